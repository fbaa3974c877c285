import type { ResourceModel } from '../model';
import { selectList, tableOf, type ColumnDef, type TableDef } from '../tables';
import type { SqlValue } from './driver';

/**
 * How one collection's records map onto its SQLite table (the columns of ../tables.ts, as PostgreSQL's), with
 * SQLite's differences in values: booleans are 0/1, JSON is text.
 */
export interface SqliteTable<T> {
  readonly def: TableDef;
  /** `id, "title", "user_id" AS "userId", ...`: fields in the order answers show them. */
  readonly select: string;
  /** A row as read (booleans as 0/1; node:sqlite rows have no prototype) -> a plain record, shaped as the contract says. */
  fromRow(row: Record<string, unknown>): T;
  /** The columns `record` gives a value (or `null`) for, and those values as SQLite binds them. */
  present(record: object): { columns: ColumnDef[]; values: SqlValue[] };
}

/**
 * An unpaired surrogate (U+D800..U+DFFF alone; with the `u` flag a valid pair is one code point). Both
 * drivers encode text as UTF-8 and would store it as U+FFFD, silently (better-sqlite3 as three of them):
 * the store refuses it instead. The edge refuses it before (src/text-rule.ts); NUL is kept as it is.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/u;

/** A field's value as SQLite binds it. */
export function toSql(column: ColumnDef, value: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  if (column.kind === 'boolean') return value ? 1 : 0;
  if (column.kind === 'json') return JSON.stringify(value);
  if (typeof value === 'string' && UNPAIRED_SURROGATE.test(value)) throw new TypeError(`${column.field} holds an unpaired surrogate, which SQLite cannot store as it is`);
  return value as SqlValue;
}

export function sqliteTable<T>(resource: ResourceModel): SqliteTable<T> {
  const def = tableOf(resource);
  const fields = ['id', ...def.columns.map((c) => c.field)];
  const booleans = def.columns.filter((c) => c.kind === 'boolean').map((c) => c.field);
  const json = def.columns.filter((c) => c.kind === 'json').map((c) => c.field);
  const { shape } = def;
  return {
    def,
    select: selectList(def),
    fromRow(row) {
      const record: Record<string, unknown> = {};
      for (const field of fields) record[field] = row[field];
      for (const field of booleans) if (record[field] !== null) record[field] = record[field] === 1;
      for (const field of json) if (typeof record[field] === 'string') record[field] = JSON.parse(record[field] as string);
      return (shape ? shape(record) : record) as T;
    },
    present(record) {
      const source = record as Record<string, unknown>;
      const columns = def.columns.filter((c) => source[c.field] !== undefined);
      return { columns, values: columns.map((c) => toSql(c, source[c.field])) };
    },
  };
}

/** `INSERT INTO table ("a", "b") VALUES (?, ?)`. */
export function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}
