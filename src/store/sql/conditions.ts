import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Condition, Operator, SortKey } from '../query';
import { foldColumn, type ColumnDef } from '../tables';
import type { Dialect } from './dialect';

/**
 * The SQL of the query language (../query.ts), for both dialects: what each operator means, how a sort orders, where a
 * cursor's page starts. Values are never written into the SQL: each is bound (`bind`, a slot filled per call).
 */

/** Binds a value: returns the parameter to put in the statement. */
export type Bind = (value: unknown) => unknown;

type Ref = RawBuilder<unknown>;

/** `a.b`, quoted. */
const ref = (column: string, from?: string): Ref => (from ? sql.ref(`${from}.${column}`) : sql.ref(column)) as Ref;

/** `%`, `_` and `\` taken literally in a LIKE pattern (ESCAPE '\'). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A column as it compares: text by code point. */
const compared = (dialect: Dialect, column: ColumnDef, at: Ref): Expression<unknown> => (column.kind === 'text' ? dialect.text(at) : at);

const COMPARISONS: Partial<Record<Operator, string>> = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** One filter. A record with no value for the field meets none of them: as in SQL (and PostgREST), `ne` and the comparisons leave it out. */
export function condition(dialect: Dialect, column: ColumnDef, { op, value }: Condition, bind: Bind): Expression<unknown> {
  const at = ref(column.column);
  const bound = (v: unknown) => bind(dialect.bind(column, v));
  switch (op) {
    case 'in':
      return dialect.oneOf(compared(dialect, column, at), bind(dialect.listValue((value as unknown[]).map((v) => dialect.bind(column, v)))), column);
    case 'contains':
      return sql`${ref(foldColumn(column.column))} LIKE ${bind(`%${literal((value as string).toLowerCase())}%`)} ESCAPE '\\'`;
    case 'startsWith':
      return sql`${ref(foldColumn(column.column))} LIKE ${bind(`${literal((value as string).toLowerCase())}%`)} ESCAPE '\\'`;
    default:
      return sql`${compared(dialect, column, at)} ${sql.raw(COMPARISONS[op]!)} ${bound(value)}`;
  }
}

/** A sort key's column (`id`'s is its own: required, an integer). */
export type Keyed = SortKey & { column: ColumnDef };

/** A sort key's column, as it compares. */
const keyRef = (dialect: Dialect, { column }: Keyed, from?: string) => compared(dialect, column, ref(column.field === 'id' ? 'id' : from ? column.field : column.column, from));

/**
 * The direction of a sort whose keys all go one way, on fields every record has (id last, going up): then the sort is
 * read as one direction throughout, with `-id` going down in place of `id` going up when the keys go down. A range of
 * a query index (tables.ts: the field then `id`, or then `-id`) is then exactly a page, and where a page starts is one
 * row-value comparison that bounds the index scan. Undefined for any other sort.
 */
function oneWay(keys: readonly Keyed[]): 'up' | 'down' | undefined {
  const fields = keys.slice(0, -1);
  const desc = fields[0]?.desc ?? false;
  return fields.every((k) => k.desc === desc && k.column.required && !k.column.nullable) ? (desc ? 'down' : 'up') : undefined;
}

/**
 * ORDER BY for `keys` (id last). A field with no value sorts as if above every value, on every store: last going up,
 * first going down (PostgreSQL's default; SQLite is told so). A sort one way down orders by `-id` going down, the
 * same order as `id` going up, as the index for it holds it.
 */
export function orderBy(dialect: Dialect, keys: readonly Keyed[], from?: string): RawBuilder<unknown> {
  const down = oneWay(keys) === 'down';
  return sql.join(
    keys.map((key, i) => {
      if (down && i === keys.length - 1) return sql`-${keyRef(dialect, key, from)} DESC`;
      const { column, desc } = key;
      const nulls = column.required && !column.nullable ? '' : desc ? ' NULLS FIRST' : ' NULLS LAST';
      return sql`${keyRef(dialect, key, from)}${sql.raw(desc ? ' DESC' : '')}${sql.raw(nulls)}`;
    }),
  );
}

/**
 * The records after the one whose sort values are `values` (keyset pagination: a page costs the same at any
 * depth, and records written meanwhile never make a reader skip or repeat another): for keys k1..kn,
 * `k1 after v1 OR (k1 = v1 AND k2 after v2) OR ...`, where no value counts as above every value. A bound on the
 * first key leads, so an index on it serves the search.
 */
export function after(dialect: Dialect, keys: readonly Keyed[], values: readonly unknown[], bind: Bind): Expression<unknown> {
  const way = oneWay(keys);
  if (way && keys.length > 1) {
    // `(k1, ..., id) > (v1, ..., i)` going up; `(k1, ..., -id) < (v1, ..., -i)` going down.
    const down = way === 'down';
    const id = keys.length - 1;
    const left = keys.map((key, i) => (down && i === id ? sql`-${keyRef(dialect, key)}` : keyRef(dialect, key)));
    const right = values.map((value, i) => bind(dialect.bind(keys[i].column, down && i === id ? -(value as number) : value)));
    return sql`(${sql.join(left)}) ${sql.raw(down ? '<' : '>')} (${sql.join(right)})`;
  }
  const v = values.map((value, i) => (value === null ? null : bind(dialect.bind(keys[i].column, value))));
  const at = (i: number) => compared(dialect, keys[i].column, ref(keys[i].column.column));
  const optional = (i: number) => !(keys[i].column.required && !keys[i].column.nullable);
  const equal = (i: number) => (v[i] === null ? sql`${ref(keys[i].column.column)} IS NULL` : sql`${at(i)} = ${v[i]}`);
  const beyond = (i: number, orEqual = false): RawBuilder<unknown> | undefined => {
    const { desc } = keys[i];
    // No value is above every value: going down, every value is past it; going up, nothing is (but itself).
    if (v[i] === null) return desc ? (orEqual ? sql`TRUE` : sql`${ref(keys[i].column.column)} IS NOT NULL`) : orEqual ? sql`${ref(keys[i].column.column)} IS NULL` : undefined;
    const past = sql`${at(i)} ${sql.raw(desc ? '<' : '>')}${sql.raw(orEqual ? '=' : '')} ${v[i]}`;
    return !desc && optional(i) ? sql`(${past} OR ${ref(keys[i].column.column)} IS NULL)` : past;
  };
  const branches: RawBuilder<unknown>[] = [];
  keys.forEach((_, i) => {
    const step = beyond(i);
    if (step) branches.push(sql.join([...keys.slice(0, i).map((__, j) => equal(j)), step], sql` AND `));
  });
  const any = branches.length ? sql`(${sql.join(branches, sql` OR `)})` : sql`FALSE`;
  const lead = keys.length > 1 ? beyond(0, true) : undefined;
  return lead ? sql`${lead} AND ${any}` : any;
}
