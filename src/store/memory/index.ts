import type { SeedData, Store } from '../types';
import { MemoryChildCollection, MemoryCollection } from './collection';
import { MemoryIdempotency } from './idempotency';

/** The embedded default store: everything in this process's memory, gone when it exits. */
export function createMemoryStore(seed: SeedData): Store {
  const idempotency = new MemoryIdempotency();
  const store: Store = {
    kind: 'memory',
    books: new MemoryCollection(seed.books),
    todos: new MemoryCollection(seed.todos),
    notes: new MemoryCollection(seed.notes),
    items: new MemoryCollection(seed.items),
    tasks: new MemoryCollection(seed.tasks),
    users: new MemoryCollection(seed.users),
    posts: new MemoryChildCollection('userId', seed.posts),
    comments: new MemoryChildCollection('postId', seed.comments),
    idempotent: (request, work) => idempotency.run(store, request, work),
    ping: async () => undefined,
    close: async () => undefined,
  };
  return store;
}
