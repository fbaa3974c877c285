import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The signal of the HTTP request being served, for the storage calls made while serving it: a request whose client went
 * away stops waiting for a connection (postgres/queue.ts). Each request's signal lives in its own async context.
 */
const scope = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` (and everything it starts) as part of the request that `signal` belongs to. */
export function runWithRequestSignal<T>(signal: AbortSignal, fn: () => T): T {
  return scope.run(signal, fn);
}

/** The signal of the request being served, if any. */
export function requestSignal(): AbortSignal | undefined {
  return scope.getStore();
}
