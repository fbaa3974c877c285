import type { FieldOrder } from '../fields';
import { orderedTables, selectList, type ColumnDef, type TableDef } from '../postgres/tables';
import type { CollectionName } from '../types';
import type { SqlValue } from './driver';

/**
 * How one collection's records map onto its SQLite table: the same tables and columns as PostgreSQL's
 * (postgres/tables.ts), with SQLite's one difference in values: booleans are stored as 0/1.
 */
export interface SqliteTable<T> {
  readonly def: TableDef;
  /** `id, "title", "user_id" AS "userId", ...`: fields in the order answers show them (fields.ts). */
  readonly select: string;
  /** A row as read (booleans as 0/1; node:sqlite rows have no prototype) -> a plain record, fields in order. */
  fromRow(row: Record<string, unknown>): T;
  /** The columns `record` has a value for, and those values as SQLite binds them. */
  present(record: object): { columns: ColumnDef[]; values: SqlValue[] };
}

/**
 * An unpaired surrogate (U+D800..U+DFFF alone; with the `u` flag a valid pair is one code point). Both
 * drivers encode text as UTF-8 and would store it as U+FFFD, silently (better-sqlite3 as three of them):
 * the store refuses it instead. The edge refuses it before (src/text-rule.ts); NUL is kept as it is.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/u;

function toSql(column: ColumnDef, value: unknown): SqlValue {
  if (column.type === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && UNPAIRED_SURROGATE.test(value)) throw new TypeError(`${column.field} holds an unpaired surrogate, which SQLite cannot store as it is`);
  return value as SqlValue;
}

function sqliteTable<T>(def: TableDef): SqliteTable<T> {
  const fields = ['id', ...def.columns.map((c) => c.field)];
  const booleans = def.columns.filter((c) => c.type === 'boolean').map((c) => c.field);
  return {
    def,
    select: selectList(def),
    fromRow(row) {
      const record: Record<string, unknown> = {};
      for (const field of fields) record[field] = row[field];
      for (const field of booleans) record[field] = row[field] === 1;
      return record as T;
    },
    present(record) {
      const source = record as Record<string, unknown>;
      const columns = def.columns.filter((c) => source[c.field] !== undefined);
      return { columns, values: columns.map((c) => toSql(c, source[c.field])) };
    },
  };
}

/** Every collection's table, columns in `order` (fields.ts). */
export function sqliteTables(order: FieldOrder): { [K in CollectionName]: SqliteTable<never> } {
  const tables = orderedTables(order);
  return Object.fromEntries(Object.entries(tables).map(([name, def]) => [name, sqliteTable(def)])) as { [K in CollectionName]: SqliteTable<never> };
}

/** `INSERT INTO table ("a", "b") VALUES (?, ?)`. */
export function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}
