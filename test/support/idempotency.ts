import type { Store } from '../../src/store/types';

/** Runs `before` at the start of every piece of idempotent work of `store` (inside its transaction in PostgreSQL). */
function beforeIdempotentWork(store: Store, before: () => Promise<void> | void): void {
  const run = store.idempotent.bind(store);
  store.idempotent = (request, work) =>
    run(request, async (tx) => {
      await before();
      return work(tx);
    });
}

/**
 * Makes `store`'s idempotent work wait for `release()`: a request with an Idempotency-Key stays "in
 * progress" meanwhile (in PostgreSQL, inside its open transaction). `started` resolves when one is waiting.
 */
export function gated(store: Store): { store: Store; release: () => void; started: Promise<void> } {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  beforeIdempotentWork(store, () => {
    started();
    return gate;
  });
  return { store, release, started: startedPromise };
}

/** Makes the first `times` pieces of `store`'s idempotent work throw `error` before doing anything; later ones run. */
export function failingFirst(store: Store, times: number, error: () => Error): Store {
  let failures = times;
  beforeIdempotentWork(store, () => {
    if (failures-- > 0) throw error();
  });
  return store;
}
