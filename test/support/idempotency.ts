import type { Store } from '../../src/store/types';

/**
 * Makes `store`'s idempotent work wait for `release()`: a request with an Idempotency-Key stays "in
 * progress" meanwhile (in PostgreSQL, inside its open transaction). `started` resolves when one is waiting.
 */
export function gated(store: Store): { store: Store; release: () => void; started: Promise<void> } {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const run = store.idempotent.bind(store);
  store.idempotent = (request, work) =>
    run(request, async (tx) => {
      started();
      await gate;
      return work(tx);
    });
  return { store, release, started: startedPromise };
}
