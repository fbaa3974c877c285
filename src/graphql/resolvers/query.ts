import type { QueryResolvers } from '../../../generated/graphql';
import { specModel } from '../../store/model';
import { encodeCursor, sortOf, type ListQuery } from '../../store/query';
import { readAll, type Collection, type ListResult } from '../../store/types';
import type { ResultBudget, ResultPath } from '../large-answers';
import { storageId } from '../ids';
import { listOf, listQuery, type ListArgs } from '../list-args';

/**
 * A root list, counted into the result's budget before the rest of it is read (the filtered total, within the page's
 * bounds; a page read with `after` by what it holds): a large one waits for its turn, and one the budget refuses
 * is not read (src/graphql/large-answers.ts; the request is then answered with the refusal, not with this result).
 */
async function readList<T>(page: ListResult<T>, query: ListQuery, budget: ResultBudget, at: ResultPath): Promise<T[]> {
  if (page.total !== undefined || query.limit !== undefined) {
    const count = Math.min(Math.max((page.total ?? Infinity) - (query.offset ?? 0), 0), query.limit ?? Infinity);
    return (await budget.admitList(at, page.total === undefined ? page.items.length : count)) ? readAll(page) : [];
  }
  // The rest of a list after a cursor, of a length unknown until read: counted batch by batch, as nested lists are.
  const all: T[] = [];
  const keep = (batch: T[]) => budget.take(batch.length, at) && all.push(...batch) >= 0;
  if (!keep(page.items)) return [];
  if (page.rest) for await (const batch of page.rest) if (!keep(batch)) return [];
  return all;
}

/** A list field's records: its arguments as the store's query (list-args.ts). */
function list<T extends { id: number }>(name: string, of: (store: Record<string, unknown>) => Collection<T>) {
  const resource = specModel().resources.get(name)!;
  return async (store: object, args: ListArgs, budget: ResultBudget, at: ResultPath): Promise<T[]> => {
    const query = listQuery(resource, args);
    return listOf(async () => readList(await of(store as Record<string, unknown>).list(query), query, budget, at));
  };
}

/** A Relay connection's page: the records, each with its cursor, and whether more follow (list-args.ts for the arguments). */
function connection<T extends { id: number }>(name: string, of: (store: Record<string, unknown>) => Collection<T>) {
  const resource = specModel().resources.get(name)!;
  return async (store: object, args: ListArgs, budget: ResultBudget, at: ResultPath) => {
    const query = listQuery(resource, { where: args.where, orderBy: args.orderBy, first: args.first, after: args.after });
    const page = await listOf(async () => of(store as Record<string, unknown>).list(query));
    const nodes = await readList(page, query, budget, at);
    const keys = sortOf(query);
    const edges = nodes.map((node) => ({ cursor: encodeCursor(name, keys, node as unknown as Record<string, unknown>), node }));
    return {
      edges,
      pageInfo: { hasNextPage: page.next !== undefined, hasPreviousPage: false, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
    };
  };
}

const books = list('books', (s) => s.books as Collection<never>);
const todos = list('todos', (s) => s.todos as Collection<never>);
const users = list('users', (s) => s.users as Collection<never>);
const booksPage = connection('books', (s) => s.books as Collection<never>);
const todosPage = connection('todos', (s) => s.todos as Collection<never>);
const usersPage = connection('users', (s) => s.users as Collection<never>);

/** Reads. Books and todos come from the same collections REST serves. */
export const Query: QueryResolvers = {
  user: async (_parent, { id }, { store }) => {
    const key = storageId(id);
    return key === undefined ? null : ((await store.users.get(key)) ?? null);
  },
  // The users are one sibling group: their posts load in one storage call.
  users: async (_parent, args, { store, loaders, budget }, { path }) => loaders.users(await users(store, args, budget, path)),
  usersConnection: async (_parent, args, { store, loaders, budget }, { path }) => {
    const page = await usersPage(store, args, budget, path);
    loaders.users(page.edges.map((edge) => edge.node));
    return page;
  },
  book: async (_parent, { id }, { store }) => {
    const key = storageId(id);
    return key === undefined ? null : ((await store.books.get(key)) ?? null);
  },
  books: async (_parent, args, { store, budget }, { path }) => books(store, args, budget, path),
  booksConnection: async (_parent, args, { store, budget }, { path }) => booksPage(store, args, budget, path),
  todos: async (_parent, args, { store, budget }, { path }) => todos(store, args, budget, path),
  todosConnection: async (_parent, args, { store, budget }, { path }) => todosPage(store, args, budget, path),
};
