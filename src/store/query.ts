import { hash } from 'node:crypto';
import type { FieldKind, ResourceModel } from './model';

/**
 * The query language of lists, the same for every store and both APIs (docs/contract.md §7). REST
 * (src/rest/list-query.ts) and GraphQL (src/graphql/list-args.ts) turn what a client sent into a ListQuery; the store
 * checks it against the contract (model.ts) and runs it as SQL (sql/conditions.ts). What is not allowed is a QueryError.
 */

/** Every operator, with the kinds of field it applies to: the one table a new operator is added to. */
const ANY = ['text', 'integer', 'number', 'boolean'] as const;
const ORDERED = ['text', 'integer', 'number'] as const;
export const OPERATORS = { eq: ANY, ne: ANY, gt: ORDERED, gte: ORDERED, lt: ORDERED, lte: ORDERED, in: ORDERED, contains: ['text'], startsWith: ['text'] } as const satisfies Record<string, readonly FieldKind[]>;

export type Operator = keyof typeof OPERATORS;
/** Operators that compare Unicode lower-cased text: the store keeps a lower-cased copy of the field for them (tables.ts). */
export const FOLDING: readonly Operator[] = ['contains', 'startsWith'];

export const isOperator = (op: string): op is Operator => Object.hasOwn(OPERATORS, op);

/** One filter: `field op value` (`in` takes a list of values). */
export interface Condition {
  readonly field: string;
  readonly op: Operator;
  readonly value: unknown;
}

export interface SortKey {
  readonly field: string;
  readonly desc: boolean;
}

/**
 * What selects a list: filters, a sort (id ascending breaks ties, and is the order without one), a page (`limit` with
 * `offset`, or `limit` with `after`: a cursor page, read whole, naming the next page's cursor). Without either, all of it.
 */
export interface ListQuery {
  readonly where?: readonly Condition[];
  readonly sort?: readonly SortKey[];
  readonly limit?: number;
  readonly offset?: number;
  /** The opaque cursor of a page's last record (ListResult.next). */
  readonly after?: string;
}

/** What the contract lets clients query on a collection, read from the specs (model.ts). */
export interface QueryModel {
  /** Each filterable field and its operators. */
  readonly filters: ReadonlyMap<string, ReadonlySet<Operator>>;
  readonly sortable: ReadonlySet<string>;
}

/** Bounds on a query's work (settings QUERY_MAX_IN_VALUES, QUERY_MAX_FILTERS; docs/settings.md). */
export interface QueryLimits {
  /** Most values of one `in` filter. */
  readonly inValues: number;
  /** Most filters in one query. */
  readonly filters: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { inValues: 100, filters: 10 };

/** A query the contract does not allow (or a cursor that is not this list's): 400 in REST, BAD_USER_INPUT in GraphQL, naming `parameter`. */
export class QueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

/** Whether `value` is a value of a field of `kind`. */
export function fits(kind: FieldKind, value: unknown): boolean {
  if (kind === 'text') return typeof value === 'string';
  if (kind === 'boolean') return typeof value === 'boolean';
  return typeof value === 'number' && Number.isFinite(value) && (kind === 'number' || Number.isSafeInteger(value));
}

/** A field's value, checked against its kind (the APIs' validators have typed it already: this is the store's own guard). */
function checkValue(resource: ResourceModel, field: string, kind: FieldKind, value: unknown, parameter: string): void {
  if (!fits(kind, value)) throw new QueryError(parameter, `${parameter} must be ${kind === 'text' ? 'text' : `a ${kind}`} (${resource.label}.${field})`);
}

/** Checks `query` against what the contract declares for `resource` and the limits; throws a QueryError naming the first problem. */
export function checkQuery(resource: ResourceModel, query: ListQuery, limits: QueryLimits): void {
  const where = query.where ?? [];
  if (where.length > limits.filters) throw new QueryError('filters', `at most ${limits.filters} filters per request (QUERY_MAX_FILTERS), got ${where.length}`);
  for (const { field, op, value } of where) {
    const parameter = op === 'eq' ? field : `${field}[${op}]`;
    const kind = resource.fields.find((f) => f.name === field)?.kind;
    if (!kind || !resource.query.filters.get(field)?.has(op)) throw new QueryError(parameter, `${parameter} is not a filter of ${resource.name}`);
    if (op !== 'in') {
      checkValue(resource, field, kind, value, parameter);
      continue;
    }
    if (!Array.isArray(value) || value.length === 0) throw new QueryError(parameter, `${parameter} must list at least one value`);
    if (value.length > limits.inValues) throw new QueryError(parameter, `${parameter} lists ${value.length} values; at most ${limits.inValues} (QUERY_MAX_IN_VALUES)`);
    for (const each of value) checkValue(resource, field, kind, each, parameter);
  }
  for (const { field } of query.sort ?? []) if (!resource.query.sortable.has(field)) throw new QueryError('sort', `${field} is not a sort key of ${resource.name}`);
  if (query.after !== undefined && query.offset !== undefined) throw new QueryError('after', 'after and offset cannot be used together');
}

/** The sort a query reads in, `id` ascending last (ties and the default order). */
export function sortOf(query: ListQuery): SortKey[] {
  return [...(query.sort ?? []).filter((k) => k.field !== 'id'), { field: 'id', desc: false }];
}

/** `-pages,title`: a sort as REST writes it; what a cursor is bound to. */
export const sortText = (sort: readonly SortKey[]): string => sort.map((k) => `${k.desc ? '-' : ''}${k.field}`).join(',');

const digest = (text: string) => hash('sha256', text, 'base64url').slice(0, 12);

/**
 * A cursor: the sort values and id of a page's last record, bound to the collection and the sort, with a digest that
 * tells a cursor changed in transit (a flipped character) from one the service made. Opaque to clients, not
 * secret: one built by hand can only name a position in the same list.
 */
export function encodeCursor(collection: string, sort: readonly SortKey[], record: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify([collection, sortText(sort), sort.map((k) => record[k.field] ?? null)])).toString('base64url');
  return `${body}.${digest(body)}`;
}

/** Whether `text` is a cursor this service made (any list's): its digest holds. */
export function wellFormedCursor(text: string): boolean {
  const [body, check, more] = text.split('.');
  return more === undefined && check === digest(body);
}

/** The sort values a cursor holds (in `sort`'s order, id last), or a QueryError naming `after`. */
export function decodeCursor(cursor: string, collection: string, sort: readonly SortKey[]): unknown[] {
  let payload: unknown;
  try {
    if (!wellFormedCursor(cursor)) throw new Error('digest');
    payload = JSON.parse(Buffer.from(cursor.split('.')[0], 'base64url').toString('utf8'));
  } catch {
    throw new QueryError('after', 'after is not a cursor this service made (changed or cut)');
  }
  const [name, order, values] = Array.isArray(payload) ? payload : [];
  if (name !== collection || order !== sortText(sort) || !Array.isArray(values) || values.length !== sort.length) {
    throw new QueryError('after', `after is a cursor of another list (${String(name)} sorted by ${String(order)}), not of ${collection} sorted by ${sortText(sort)}`);
  }
  return values;
}
