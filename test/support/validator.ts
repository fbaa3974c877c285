import { createRequire } from 'node:module';

/** The path-to-regexp module exactly as express-openapi-validator resolves it (its route lookup compiles with it). */
export function validatorPathToRegexp(): { pathToRegexp: (...args: unknown[]) => unknown } {
  const fromValidator = createRequire(require.resolve('express-openapi-validator'));
  return fromValidator('path-to-regexp');
}
