import type { QueryResolvers } from '../../../generated/graphql';
import { readAll, type ListResult } from '../../store/types';
import type { ResultBudget } from '../large-answers';
import { storageId } from '../ids';

/**
 * A root list, counted into the result's budget from its total before the rest of it is read: a list
 * too large is refused unread, and a large one waits for its turn (src/graphql/large-answers.ts).
 */
async function readList<T>(page: ListResult<T>, budget: ResultBudget, key: string | number): Promise<T[]> {
  await budget.admitList(String(key), page.total);
  return readAll(page);
}

/** Reads. Books and todos come from the same collections REST serves. */
export const Query: QueryResolvers = {
  user: async (_parent, { id }, { store }) => {
    const key = storageId(id);
    return key === undefined ? null : ((await store.users.get(key)) ?? null);
  },
  // The users are one sibling group: their posts load in one storage call.
  users: async (_parent, _args, { store, loaders, budget }, { path }) => loaders.users(await readList(await store.users.list(), budget, path.key)),
  book: async (_parent, { id }, { store }) => {
    const key = storageId(id);
    return key === undefined ? null : ((await store.books.get(key)) ?? null);
  },
  books: async (_parent, _args, { store, budget }, { path }) => readList(await store.books.list(), budget, path.key),
  todos: async (_parent, _args, { store, budget }, { path }) => readList(await store.todos.list(), budget, path.key),
};
