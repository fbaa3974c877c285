import { createRequire } from 'node:module';

/**
 * A bounded memo for the `pathToRegexp` of the path-to-regexp instance express-openapi-validator uses.
 *
 * Why: express-openapi-validator 5.6.x (`lookupRoute` in dist/middlewares/openapi.metadata.js) calls
 * `pathToRegexp(route, {sensitive, strict})` for every spec route on every request, with no cache, to
 * find the route a request is for: up to one parse + RegExp compile per spec path per request.
 *
 * Why it is safe: the validator calls it with its spec's routes and the app's two routing settings, a
 * fixed set known at start-up, and only reads the result (`regexp.exec`, `keys[].name`). The RegExps
 * path-to-regexp builds have no `g`/`y` flag, so `exec` keeps no state between calls; the cached
 * results are frozen. Anything outside that shape (a non-string path, an option other than the known
 * boolean flags) goes to the original function uncached, and the memo stops adding entries at `maxEntries`.
 *
 * Speed trick (fenced here; installed by ./index.ts). This patches a property of a shared module object,
 * which is process-wide by nature: installing is
 * idempotent (a marker on the function), and the memo is the only cross-request state it adds. Remove
 * it when the validator caches its compiled routes itself.
 */
const MARKER = Symbol.for('contract-first-sample-api/path-to-regexp-memo');
/** The boolean options that may be cached, each one bit of the cache key (`delimiter` etc. are not cached). */
const FLAG_BITS: Record<string, number> = { sensitive: 0, strict: 2, end: 4, trailing: 6 };

type Compiled = { regexp: RegExp; keys: unknown[] };
type Compile = (path: unknown, options?: Record<string, unknown>) => Compiled;
/** Compiled results by path, then by the options' flag bits. */
type Memo = Map<string, Map<number, Compiled>>;
interface PathToRegexpModule {
  pathToRegexp: Compile & { [MARKER]?: Memo };
}

/** The path-to-regexp module exactly as express-openapi-validator resolves it. */
export function validatorPathToRegexp(): PathToRegexpModule {
  const fromValidator = createRequire(require.resolve('express-openapi-validator'));
  return fromValidator('path-to-regexp') as PathToRegexpModule;
}

/** The options as a number (2 bits per known flag: unset, false, true), or -1 when they cannot be cached. */
function flagKey(options: Record<string, unknown>): number {
  let key = 0;
  for (const name in options) {
    const bit = FLAG_BITS[name];
    const value = options[name];
    if (bit === undefined || !Object.hasOwn(options, name)) return -1;
    if (value === undefined) continue;
    if (typeof value !== 'boolean') return -1;
    key |= (value ? 2 : 1) << bit;
  }
  return key;
}

/** Installs the memo (once per process; later calls only return its cache). Returns the cache, for tests. */
export function memoizeValidatorPathToRegexp(mod: PathToRegexpModule = validatorPathToRegexp(), maxEntries = 1024): Memo {
  const installed = mod.pathToRegexp[MARKER];
  if (installed) return installed;
  const original = mod.pathToRegexp;
  const memo: Memo = new Map();
  let entries = 0;
  const memoised: PathToRegexpModule['pathToRegexp'] = (path, options = {}) => {
    const key = typeof path === 'string' ? flagKey(options) : -1;
    if (key < 0) return original(path, options);
    const byFlags = memo.get(path as string);
    const hit = byFlags?.get(key);
    if (hit) return hit;
    const compiled = original(path, options);
    if (compiled.regexp.global || compiled.regexp.sticky || entries >= maxEntries) return compiled;
    Object.freeze(compiled.keys);
    entries += 1;
    if (byFlags) byFlags.set(key, Object.freeze(compiled));
    else memo.set(path as string, new Map([[key, Object.freeze(compiled)]]));
    return compiled;
  };
  memoised[MARKER] = memo;
  mod.pathToRegexp = memoised;
  return memo;
}
