import { GraphQLError } from 'graphql';
import type { ResourceModel } from '../store/model';
import { QueryError, type Condition, type ListQuery, type Operator, type SortKey } from '../store/query';

/** The arguments of a list field (`books(where, orderBy, limit, offset)`) or its connection (`first`, `after`), as codegen types them. */
export interface ListArgs {
  where?: Record<string, Record<string, unknown> | null | undefined> | null;
  orderBy?: readonly Record<string, 'ASC' | 'DESC' | null | undefined>[] | null;
  limit?: number | null;
  offset?: number | null;
  first?: number | null;
  after?: string | null;
}

/** Most records one page holds, as REST's `limit`. */
const MAX_PAGE = 1000;

export function badInput(argumentName: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', argumentName } });
}

/**
 * A list field's arguments as the store's query (src/store/query.ts): GraphQL names of fields to the stored ones
 * (`Todo.title` is `text`: schema.graphql's `@stored`, read by src/store/model-queries.ts), `orderBy` elements
 * (each one field: `@oneOf`) to sort keys. What the types allow and the store refuses (too many values in `in`, a
 * cursor of another list) is a BAD_USER_INPUT naming the argument (`listOf`), before anything is read.
 */
export function listQuery(resource: ResourceModel, args: ListArgs): ListQuery {
  const stored = (field: string) => resource.graphqlNames.get(field) ?? field;
  const where: Condition[] = [];
  for (const [field, ops] of Object.entries(args.where ?? {})) {
    for (const [op, value] of Object.entries(ops ?? {})) if (value !== null && value !== undefined) where.push({ field: stored(field), op: op as Operator, value });
  }
  const sort: SortKey[] = (args.orderBy ?? []).flatMap((key) => Object.entries(key).map(([field, direction]) => ({ field: stored(field), desc: direction === 'DESC' })));
  const limit = args.first ?? args.limit ?? undefined;
  const argument = args.first !== undefined ? 'first' : 'limit';
  if (limit !== undefined && (limit < 1 || limit > MAX_PAGE)) throw badInput(argument, `${argument} must be from 1 to ${MAX_PAGE}.`);
  if (args.offset !== undefined && args.offset !== null && args.offset < 0) throw badInput('offset', 'offset must be 0 or more.');
  return {
    ...(where.length ? { where } : {}),
    ...(sort.length ? { sort } : {}),
    ...(limit === undefined ? {} : { limit }),
    ...(args.offset === undefined || args.offset === null ? {} : { offset: args.offset }),
    ...(args.after === undefined || args.after === null ? {} : { after: args.after }),
  };
}

/** The store's refusal of a query as GraphQL's: BAD_USER_INPUT naming the argument (`where`, `orderBy`, `after`). */
export async function listOf<R>(read: () => Promise<R>): Promise<R> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof QueryError)) throw err;
    const argument = err.parameter === 'sort' ? 'orderBy' : err.parameter === 'after' ? 'after' : 'where';
    throw badInput(argument, `${err.message}.`);
  }
}
