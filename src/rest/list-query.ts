import type { Condition, ListQuery, Operator, SortKey } from '../store/query';

/** A filter parameter: `field` (equals) or `field[op]`. */
const FILTER = /^([A-Za-z][A-Za-z0-9_]*)(?:\[([A-Za-z]+)\])?$/;
/** The parameters that page a list; every other one the validate phase let through is a filter or the sort. */
const PAGING = new Set(['limit', 'offset', 'after']);

/**
 * A list operation's query parameters, as the validate phase let them through (src/http/query-params.ts: each
 * declared in openapi.yaml, typed, `in` and `sort` split at commas), as the store's query (src/store/query.ts). Filters are
 * taken in a fixed order, so one list asked for with its parameters in another order is the same query.
 */
export function listQuery(params: Record<string, unknown>): ListQuery {
  const where: Condition[] = [];
  let sort: SortKey[] | undefined;
  for (const name in params) {
    if (PAGING.has(name)) continue;
    const value = params[name];
    if (name === 'sort') {
      const seen = new Set<string>();
      sort = [];
      for (const key of value as string[]) {
        const field = key.replace(/^-/, '');
        if (!seen.has(field)) sort.push({ field, desc: key.startsWith('-') });
        seen.add(field);
      }
      continue;
    }
    const [, field, op = 'eq'] = FILTER.exec(name) ?? [];
    if (field) where.push({ field, op: op as Operator, value });
  }
  where.sort((a, b) => (a.field === b.field ? (a.op < b.op ? -1 : 1) : a.field < b.field ? -1 : 1));
  const { limit, offset, after } = params as { limit?: number; offset?: number; after?: string };
  // Only the parts asked for, always in this order (the query's JSON is a cache key and part of a list's ETag).
  const query: { -readonly [K in keyof ListQuery]: ListQuery[K] } = {};
  if (where.length) query.where = where;
  if (sort) query.sort = sort;
  if (limit !== undefined) query.limit = limit;
  if (offset !== undefined) query.offset = offset;
  if (after !== undefined) query.after = after;
  return query;
}
