import { randomUUID } from 'node:crypto';
import { specModel, type ContractModel } from '../model';
import { storeOf } from '../collections';
import type { SeedData, Store } from '../types';
import { MemoryChildCollection, MemoryCollection } from './collection';
import { MemoryIdempotency } from './idempotency';

/** The store for demos and tests: everything in this process's memory, gone when it exits. One collection per collection of the contract (model.ts). */
export function createMemoryStore(seed: SeedData, model: ContractModel = specModel()): Store {
  const idempotency = new MemoryIdempotency();
  // One epoch per store: its versions never repeat those of another store (or of this one before a restart).
  const epoch = randomUUID();
  const collections = new Map(
    [...model.resources.values()].map((resource) => {
      const records = (seed[resource.name] ?? []) as never[];
      return [
        resource.name,
        resource.parentKey ? new MemoryChildCollection(resource, resource.parentKey as never, records, epoch) : new MemoryCollection(resource, records, epoch),
      ];
    }),
  );
  const store: Store = {
    kind: 'memory',
    ...storeOf(collections),
    idempotent: (request, work) => idempotency.run(store, request, work),
    ping: async () => undefined,
    close: async () => undefined,
  };
  return store;
}
