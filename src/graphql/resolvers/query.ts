import type { QueryResolvers } from '../../../generated/graphql';
import { readAll, type ListResult } from '../../store/types';
import type { ResultBudget, ResultPath } from '../large-answers';
import { storageId } from '../ids';

/**
 * A root list, counted into the result's budget from its total before the rest of it is read: a large one
 * waits for its turn, and one the budget refuses is not read (src/graphql/large-answers.ts; the request is
 * then answered with the refusal, not with this result).
 */
async function readList<T>(page: ListResult<T>, budget: ResultBudget, at: ResultPath): Promise<T[]> {
  return (await budget.admitList(at, page.total)) ? readAll(page) : [];
}

/** Reads. Books and todos come from the same collections REST serves. */
export const Query: QueryResolvers = {
  user: async (_parent, { id }, { store }) => {
    const key = storageId(id);
    return key === undefined ? null : ((await store.users.get(key)) ?? null);
  },
  // The users are one sibling group: their posts load in one storage call.
  users: async (_parent, _args, { store, loaders, budget }, { path }) => loaders.users(await readList(await store.users.list(), budget, path)),
  book: async (_parent, { id }, { store }) => {
    const key = storageId(id);
    return key === undefined ? null : ((await store.books.get(key)) ?? null);
  },
  books: async (_parent, _args, { store, budget }, { path }) => readList(await store.books.list(), budget, path),
  todos: async (_parent, _args, { store, budget }, { path }) => readList(await store.todos.list(), budget, path),
};
