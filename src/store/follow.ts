import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../spec';
import type { FieldKind } from './model';
import { addFolds, writtenColumns, type ColumnDef, type IndexDef, type TableDef } from './tables';
import type { SeedSource } from './types';

/**
 * How a store follows the contract (docs/changing-the-contract.md, "The data follows the contract"): at start it
 * compares the tables it holds with those the contract describes (tables.ts) and applies, in its setup transaction,
 * what is safe by itself: a new collection or field (a required one with a `default` filled), a field made
 * required with a `default` or made optional, an empty field removed, the indexes and lower-cased copies the
 * declared queries need. Anything else stops the start with one line (ContractChangeError): a required field with
 * no default that stored records lack, a changed kind, a removed field that holds values; each needs a person's
 * decision (a hand-written migration, a default, or another contract). The comparison is this file's; each store
 * describes what it holds and writes the changes in its SQL (FollowPart).
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
    // Indexes last: on the columns as changed above.
    for (const index of table.indexes) if (!held.indexes.has(index.name)) changes.push({ op: 'index', table, index });
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

/** A statement run while following the contract: SQL with `?` for its `params`; `read` when it answers rows. Without params and `read`, a script. */
export interface Statement {
  sql: string;
  params?: unknown[];
  read?: boolean;
}

/** Following the contract as steps: each yields a statement and is given its rows (SQLite runs it at once, PostgreSQL in turn). */
export type Steps<T> = Generator<Statement, T, Record<string, unknown>[]>;

/** What one database adds to following the contract: how it describes a table it holds, and its SQL for the changes. */
export interface FollowPart {
  readonly store: 'sqlite' | 'postgres';
  /** A table's columns (name, SQL type, not-null, `id` aside) and query indexes; undefined when there is no such table. */
  describe(table: string): Steps<{ columns: { name: string; type: string; notNull: boolean }[]; indexes: string[] } | undefined>;
  /** What values a column of a SQL type can hold, for a table whose kinds were never recorded. */
  readonly kindsOf: Readonly<Record<string, FieldKind[]>>;
  apply(changes: readonly Change[]): Steps<void>;
  /** An INSERT of a table's records from one JSON array parameter (its written fields, and the ids), and what follows it. */
  seed(table: TableDef): Statement[];
}

/** Loads `seed` unless this data set was seeded before (even if since emptied); ids then continue after the largest seeded one. */
export function* seedOnce(part: FollowPart, seed: SeedSource, tables: readonly TableDef[]): Steps<boolean> {
  if ((yield read("SELECT 1 AS seeded FROM store_meta WHERE key = 'seeded_at'")).length) return false;
  const data = typeof seed === 'function' ? seed() : seed;
  for (const table of tables) {
    // A field a record leaves out gets the column's default (or NULL): the seed's records have their defaults already (seed.ts).
    const records = JSON.stringify((data[table.name] ?? []).map((record) => addFolds(table, { ...(record as Record<string, unknown>) })));
    for (const statement of part.seed(table)) yield { ...statement, params: statement.params?.map((p) => (p === RECORDS ? records : p)) };
  }
  yield { sql: "INSERT INTO store_meta (key, value) VALUES ('seeded_at', ?)", params: [new Date().toISOString()] };
  return true;
}

/** In a FollowPart's seed statement, the parameter that is the table's records as a JSON array. */
export const RECORDS = Symbol('records');

const read = (sql: string, params: unknown[] = []): Statement => ({ sql, params, read: true });

/**
 * A store following the contract: hand-written migrations first, then the tables it holds compared with the
 * contract's and changed, everything recorded (`contract_changes`, the kinds in `stored_columns`); in the caller's
 * transaction (PostgreSQL's under its start-up lock, setup.ts, so instances starting together apply a change once).
 */
export function* followContract(part: FollowPart, tables: readonly TableDef[], root?: string): Steps<Change[]> {
  const now = new Date().toISOString();
  const applied = new Set((yield read('SELECT name FROM applied_migrations')).map((row) => String(row.name)));
  for (const migration of handWrittenMigrations(part.store, root)) {
    if (applied.has(migration.name)) continue;
    yield { sql: migration.sql };
    yield { sql: 'INSERT INTO applied_migrations (name, applied_at) VALUES (?, ?)', params: [migration.name, now] };
  }
  const stored = new Map<string, StoredTable>();
  for (const table of tables) {
    const held = yield* part.describe(table.name);
    if (!held) continue;
    const recorded = new Map((yield read('SELECT column_name, kind FROM stored_columns WHERE table_name = ?', [table.name])).map((r) => [String(r.column_name), String(r.kind) as FieldKind]));
    const [counts] = yield read(`SELECT count(*) AS "rows"${held.columns.map((c, i) => `, count("${c.name}") AS "c${i}"`).join('')} FROM "${table.name}"`);
    const columns = held.columns.map((c, i): [string, StoredColumn] => {
      const kind = recorded.get(c.name);
      return [c.name, { kinds: kind ? [kind] : (part.kindsOf[c.type] ?? []), notNull: c.notNull, values: Number(counts[`c${i}`]), sqlType: c.type }];
    });
    stored.set(table.name, { rows: Number(counts.rows), columns: new Map(columns), indexes: new Set(held.indexes) });
  }
  const changes = planChanges(tables, stored, migrationsFolder(part.store));
  yield* part.apply(changes);
  for (const change of changes) yield { sql: 'INSERT INTO contract_changes (applied_at, change) VALUES (?, ?)', params: [now, describeChange(change)] };
  for (const table of tables) {
    yield { sql: 'DELETE FROM stored_columns WHERE table_name = ?', params: [table.name] };
    for (const column of writtenColumns(table)) yield { sql: 'INSERT INTO stored_columns (table_name, column_name, kind) VALUES (?, ?, ?)', params: [table.name, column.column, column.kind] };
  }
  return changes;
}

/** Runs steps on a database that answers at once (SQLite). */
export function runSteps<T>(steps: Steps<T>, run: (statement: Statement) => Record<string, unknown>[]): T {
  let step = steps.next();
  while (!step.done) step = steps.next(run(step.value));
  return step.value;
}

/** Runs steps on a database that answers later (PostgreSQL), one statement after another. */
export async function runStepsAsync<T>(steps: Steps<T>, run: (statement: Statement) => Promise<Record<string, unknown>[]>): Promise<T> {
  let step = steps.next();
  while (!step.done) step = steps.next(await run(step.value));
  return step.value;
}

/** A default as an SQL literal: a string quoted, `null` as NULL, `bound` giving the database's form of other values. */
export function literal(column: ColumnDef, bound: unknown = column.default): string {
  if (bound === null || bound === undefined) return 'NULL';
  return typeof bound === 'string' ? `'${bound.replace(/'/g, "''")}'` : String(bound);
}

/** A hand-written migration: a SQL file of the project's `migrations/<store>/` folder, applied once, in name order. */
export interface HandWritten {
  name: string;
  sql: string;
}

/** The folder of hand-written migrations for a store, relative to the project (for messages). */
export const migrationsFolder = (store: 'sqlite' | 'postgres'): string => `migrations/${store}/`;

/** The project's hand-written migrations for `store` (`migrations/<store>/*.sql`, in name order), each run once, before following the contract. */
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
