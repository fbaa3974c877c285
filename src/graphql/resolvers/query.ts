import type { QueryResolvers } from '../../../generated/graphql';
import { readAll } from '../../store/types';
import { storageId } from '../ids';

/** Reads. Books and todos come from the same collections REST serves. */
export const Query: QueryResolvers = {
  user: async (_parent, { id }, { store }) => {
    const key = storageId(id);
    return key === undefined ? null : ((await store.users.get(key)) ?? null);
  },
  // The users are one sibling group: their posts load in one storage call.
  users: async (_parent, _args, { store, loaders }) => loaders.users(await readAll(await store.users.list())),
  book: async (_parent, { id }, { store }) => {
    const key = storageId(id);
    return key === undefined ? null : ((await store.books.get(key)) ?? null);
  },
  books: async (_parent, _args, { store }) => readAll(await store.books.list()),
  todos: async (_parent, _args, { store }) => readAll(await store.todos.list()),
};
