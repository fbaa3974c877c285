import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../spec';
import type { FieldKind } from './model';
import { writtenColumns, type ColumnDef, type IndexDef, type TableDef } from './tables';

/**
 * How a SQL store follows the contract: at start it compares the tables it holds with the tables the
 * contract describes (tables.ts, from model.ts) and applies, in its setup transaction, what is safe by
 * itself; anything else stops the start with one line. The comparison is the same for SQLite and
 * PostgreSQL (this file); each store reads what it holds (`StoredTable`) and writes the changes in its SQL.
 *
 * Safe by itself:
 * - a new collection: its table;
 * - a new field: a new column (records stored before have no value: an optional field is absent from them);
 *   a new required field with a `default`: the column, with the default in every stored record;
 * - a field that becomes required and has a `default`: the default where a record has no value;
 * - a field that becomes optional: the column accepts no value;
 * - a field removed from the contract that no stored record has a value for: its column goes;
 * - a field clients may now filter or sort by: its index; one they no longer may: its index goes; a text field they
 *   may now search (`contains`, `startsWith`): its lower-cased copy, filled for the stored records (tables.ts).
 * Refused (ContractChangeError): a field made required, or added as required, with no default while stored
 * records have no value for it; a field whose kind changed (text to integer, ...); a field removed while stored
 * records hold values for it. Each needs a decision only a person can make: a hand-written migration
 * (`handWrittenMigrations`), a default, or a change of the contract.
 */

/** A column as a store holds it: the kinds its values can be read as, whether it refuses NULL, how many rows have a value. */
export interface StoredColumn {
  kinds: readonly FieldKind[];
  notNull: boolean;
  /** Rows with a value (not NULL) in this column. */
  values: number;
  /** The SQL type as the database names it. */
  sqlType: string;
}

export interface StoredTable {
  rows: number;
  columns: ReadonlyMap<string, StoredColumn>;
  /** The query indexes it has (named INDEX_PREFIX...). */
  indexes: ReadonlySet<string>;
}

export type Change =
  | { op: 'create'; table: TableDef }
  | { op: 'add'; table: TableDef; column: ColumnDef }
  | { op: 'fill'; table: TableDef; column: ColumnDef; missing: number }
  | { op: 'optional'; table: TableDef; column: ColumnDef }
  | { op: 'widen'; table: TableDef; column: ColumnDef }
  | { op: 'drop'; table: TableDef; column: string }
  | { op: 'index'; table: TableDef; index: IndexDef }
  | { op: 'unindex'; table: TableDef; name: string };

/** The stored data cannot be served under the contract as it now is: the start stops with this one line. */
export class ContractChangeError extends Error {}

const MIGRATION_HELP = 'docs/changing-the-contract.md, "Changes a store does not make by itself"';

/** What a store holding `stored` must change to hold the tables of `tables`, or the one-line refusal. */
export function planChanges(tables: readonly TableDef[], stored: ReadonlyMap<string, StoredTable>, migrations: string): Change[] {
  const changes: Change[] = [];
  const refused: string[] = [];
  const records = (n: number) => `${n} stored record${n === 1 ? '' : 's'}`;
  for (const table of tables) {
    const held = stored.get(table.name);
    if (!held) {
      changes.push({ op: 'create', table });
      continue;
    }
    for (const index of table.indexes) if (!held.indexes.has(index.name)) changes.push({ op: 'index', table, index });
    for (const name of held.indexes) if (!table.indexes.some((i) => i.name === name)) changes.push({ op: 'unindex', table, name });
    for (const column of writtenColumns(table)) {
      const where = `${table.name}.${column.field}`;
      const have = held.columns.get(column.column);
      const hasDefault = 'default' in column;
      if (!have) {
        if (column.required && !hasDefault && held.rows > 0) {
          refused.push(`${where} is new and required with no default, and ${records(held.rows)} have no value for it: give it a default in the contract, make it optional, or add it with a migration in ${migrations} that fills it (${MIGRATION_HELP})`);
        } else changes.push({ op: 'add', table, column });
        continue;
      }
      if (!have.kinds.includes(column.kind)) {
        refused.push(`${where} is stored as ${have.kinds.join(' or ')} but the contract now says ${column.kind}: change it back, or convert the stored values with a migration in ${migrations} (${MIGRATION_HELP})`);
        continue;
      }
      const missing = held.rows - have.values;
      if (column.required && !column.nullable && missing > 0) {
        if (hasDefault) changes.push({ op: 'fill', table, column, missing });
        else refused.push(`${where} is now required with no default, and ${records(missing)} have no value for it: give it a default in the contract, keep it optional, or fill it with a migration in ${migrations} (${MIGRATION_HELP})`);
      } else if (have.notNull && !(column.required && !column.nullable)) {
        changes.push({ op: 'optional', table, column });
      }
      if (column.type === 'bigint' && have.sqlType === 'integer') changes.push({ op: 'widen', table, column });
    }
    const known = new Set(writtenColumns(table).map((c) => c.column));
    for (const [column, have] of held.columns) {
      if (column === 'id' || known.has(column)) continue;
      // A lower-cased copy is the store's own: it goes with what made it.
      if (have.values > 0 && !column.startsWith('_fold_')) {
        refused.push(`${table.name}.${column} is no longer in the contract, but ${records(have.values)} hold a value for it: keep the field (deprecate it first), or drop or move the values with a migration in ${migrations} (${MIGRATION_HELP})`);
      } else changes.push({ op: 'drop', table, column });
    }
  }
  if (refused.length) throw new ContractChangeError(`The stored data does not fit the contract: ${refused.join('; ')}`);
  return changes;
}

/** The collection and field a change is about (for the log line of each change: src/store/index.ts). */
export function changeSubject(change: Change): { collection: string; field?: string } {
  const field = change.op === 'create' ? undefined : change.op === 'drop' ? change.column : change.op === 'index' ? change.index.column.field : change.op === 'unindex' ? change.name : (change.column.folds ?? change.column.field);
  return { collection: change.table.name, ...(field === undefined ? {} : { field }) };
}

/** One line per change, as the store records it. */
export function describeChange(change: Change): string {
  switch (change.op) {
    case 'create':
      return `${change.table.name}: new collection`;
    case 'add':
      if (change.column.folds) return `${change.table.name}.${change.column.folds}: lower-cased copy for contains/startsWith, filled for the stored records`;
      return `${change.table.name}.${change.column.field}: new ${change.column.required ? 'required' : 'optional'} field (${change.column.kind})`;
    case 'index':
      return `${change.table.name}.${change.index.column.field}: index ${change.index.name} made for filters and sorts`;
    case 'unindex':
      return `${change.table.name}: index ${change.name} dropped (no longer filtered or sorted by)`;
    case 'fill':
      return `${change.table.name}.${change.column.field}: now required; ${change.missing} stored record(s) got the default ${JSON.stringify(change.column.default)}`;
    case 'optional':
      return `${change.table.name}.${change.column.field}: now optional`;
    case 'widen':
      return `${change.table.name}.${change.column.field}: integers wider than 32 bits`;
    case 'drop':
      return `${change.table.name}.${change.column}: no longer in the contract and empty; column dropped`;
  }
}

/** A hand-written migration: a SQL file of the project's `migrations/<store>/` folder, applied once, in name order. */
export interface HandWritten {
  name: string;
  sql: string;
}

/** The folder of hand-written migrations for a store, relative to the project (for messages). */
export const migrationsFolder = (store: 'sqlite' | 'postgres'): string => `migrations/${store}/`;

/**
 * The project's hand-written migrations for `store` (`migrations/sqlite/*.sql`, `migrations/postgres/*.sql`), in
 * name order: a rename, a split, a conversion, what no comparison of the contract can infer. Each runs once per
 * database, before the store follows the contract, in the same transaction.
 */
export function handWrittenMigrations(store: 'sqlite' | 'postgres', root = projectRoot): HandWritten[] {
  const folder = path.join(root, migrationsFolder(store));
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.sql'));
  } catch {
    return [];
  }
  return names.sort().map((name) => ({ name, sql: readFileSync(path.join(folder, name), 'utf8') }));
}
