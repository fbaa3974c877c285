import { randomUUID } from 'node:crypto';
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
  // One epoch per store: its versions never repeat those of another store (or of this one before a restart).
  const epoch = randomUUID();
  const store: Store = {
    kind: 'memory',
    books: new MemoryCollection(seed.books, order.books, epoch),
    todos: new MemoryCollection(seed.todos, order.todos, epoch),
    notes: new MemoryCollection(seed.notes, order.notes, epoch),
    items: new MemoryCollection(seed.items, order.items, epoch),
    tasks: new MemoryCollection(seed.tasks, order.tasks, epoch),
    users: new MemoryCollection(seed.users, order.users, epoch),
    posts: new MemoryChildCollection('userId', seed.posts, order.posts, epoch),
    comments: new MemoryChildCollection('postId', seed.comments, order.comments, epoch),
    idempotent: (request, work) => idempotency.run(store, request, work),
    ping: async () => undefined,
    close: async () => undefined,
  };
  return store;
}
