import { specFieldOrder, type FieldOrder } from '../fields';
import type { SeedData, Store } from '../types';
import { MemoryChildCollection, MemoryCollection } from './collection';
import { MemoryIdempotency } from './idempotency';

/**
 * The embedded default store: everything in this process's memory, gone when it exits. Records keep
 * their fields in `order` (default: the specs' order, see fields.ts).
 */
export function createMemoryStore(seed: SeedData, order: FieldOrder = specFieldOrder()): Store {
  const idempotency = new MemoryIdempotency();
  const store: Store = {
    kind: 'memory',
    books: new MemoryCollection(seed.books, order.books),
    todos: new MemoryCollection(seed.todos, order.todos),
    notes: new MemoryCollection(seed.notes, order.notes),
    items: new MemoryCollection(seed.items, order.items),
    tasks: new MemoryCollection(seed.tasks, order.tasks),
    users: new MemoryCollection(seed.users, order.users),
    posts: new MemoryChildCollection('userId', seed.posts, order.posts),
    comments: new MemoryChildCollection('postId', seed.comments, order.comments),
    idempotent: (request, work) => idempotency.run(store, request, work),
    ping: async () => undefined,
    close: async () => undefined,
  };
  return store;
}
