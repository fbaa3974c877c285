import type { Collection, Store } from './types';

/** A store's collections as the Store interface shows them: each under its name, and any of them through `collection(name)`. */
export type Collections = Omit<Store, 'kind' | 'idempotent' | 'ping' | 'close' | 'poolStats'>;

const OWN = new Set(['kind', 'idempotent', 'ping', 'close', 'poolStats', 'collection']);

/**
 * The collections of `byName` (one per collection of the contract, model.ts) as a store shows them. `collection(name)`
 * reads the store's own property of that name, so a store made from another by replacing a collection
 * (`{ ...store, books }`, as keyed work and tests do) answers the replacement.
 */
export function storeOf(byName: ReadonlyMap<string, Collection<never>>): Collections {
  for (const name of byName.keys()) if (OWN.has(name)) throw new Error(`a collection cannot be named ${name}`);
  function collection(this: Record<string, unknown>, name: string) {
    if (!byName.has(name)) throw new Error(`the contract has no stored collection ${name}`);
    return this[name];
  }
  return { ...(Object.fromEntries(byName) as unknown as Omit<Collections, 'collection'>), collection: collection as Collections['collection'] };
}
