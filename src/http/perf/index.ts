/**
 * Every speed trick that reaches into a library's internals lives in this folder, each with the
 * measurement that keeps it and a test through the real createApp / createHttpServer
 * (test/hardening/perf-tricks.test.ts) that fails if an upgrade switches it off:
 * - path-regexp-memo.ts: a bounded memo for express-openapi-validator's per-request path-to-regexp compiles;
 * - express-classes.ts: request/response classes born with express's prototypes (http-server.ts uses them);
 * - fixed-headers.ts: helmet's fixed headers recorded once at start-up (security.ts uses them);
 * - one-layer.ts: the fixed steps before a handler, the validator's middlewares among them, as one express layer.
 */
import { memoizeValidatorPathToRegexp } from './path-regexp-memo';

/**
 * Installs the tricks that patch a library module. Process-wide by nature (a module object is shared by
 * every app in the process) and idempotent: the first call installs, later calls change nothing.
 */
export function installPerfTricks(): void {
  memoizeValidatorPathToRegexp();
}
