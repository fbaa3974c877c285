import type { FieldKind } from '../model';
import { describeChange, handWrittenMigrations, migrationsFolder, planChanges, type Change, type StoredTable } from '../follow';
import { sqlite } from '../sql/dialect';
import { INDEX_PREFIX, writtenColumns, type ColumnDef, type TableDef } from '../tables';
import type { Connection, SqlValue } from './driver';

/**
 * The SQLite store following the contract (../follow.ts): hand-written migrations first, then the tables
 * compared with the contract's and changed, everything recorded; in the caller's transaction.
 */
export function followContract(db: Connection, tables: readonly TableDef[], root?: string): Change[] {
  const now = new Date().toISOString();
  const applied = new Set(db.prepare('SELECT name FROM applied_migrations').all().map((row) => String(row.name)));
  for (const migration of handWrittenMigrations('sqlite', root)) {
    if (applied.has(migration.name)) continue;
    db.exec(migration.sql);
    db.prepare('INSERT INTO applied_migrations (name, applied_at) VALUES (?, ?)').run(migration.name, now);
  }
  const changes = planChanges(tables, inspect(db, tables), migrationsFolder('sqlite'));
  const rebuilt = new Set(changes.filter((c) => c.op === 'optional' || c.op === 'drop').map((c) => c.table.name));
  for (const table of tables.filter((t) => rebuilt.has(t.name))) rebuild(db, table);
  for (const change of changes) if (!rebuilt.has(change.table.name) || (change.op === 'add' && change.column.folds)) apply(db, change);
  const record = db.prepare('INSERT INTO contract_changes (applied_at, change) VALUES (?, ?)');
  for (const change of changes) record.run(now, describeChange(change));
  const kept = db.prepare('INSERT OR REPLACE INTO stored_columns (table_name, column_name, kind) VALUES (?, ?, ?)');
  for (const table of tables) {
    db.prepare('DELETE FROM stored_columns WHERE table_name = ?').run(table.name);
    for (const column of writtenColumns(table)) kept.run(table.name, column.column, column.kind);
  }
  return changes;
}

/** A value as SQLite binds it. */
const toSql = (column: ColumnDef, value: unknown) => sqlite.bind(column, value) as SqlValue;

const SQL_TYPES: Record<FieldKind, string> = { text: 'TEXT', integer: 'INTEGER', number: 'REAL', boolean: 'INTEGER', json: 'TEXT' };
/** What the values of a column of a SQL type can be, for a table whose kinds were never recorded. */
const KINDS_OF: Record<string, FieldKind[]> = { TEXT: ['text', 'json'], INTEGER: ['integer', 'boolean'], REAL: ['number'], ANY: ['json'] };

function inspect(db: Connection, tables: readonly TableDef[]): Map<string, StoredTable> {
  const stored = new Map<string, StoredTable>();
  for (const table of tables) {
    if (!db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?").get(table.name)) continue;
    const info = db.prepare(`PRAGMA table_info("${table.name}")`).all();
    const recorded = new Map(db.prepare('SELECT column_name, kind FROM stored_columns WHERE table_name = ?').all(table.name).map((r) => [String(r.column_name), String(r.kind) as FieldKind]));
    const names = info.map((c) => String(c.name)).filter((name) => name !== 'id');
    const counts = db.prepare(`SELECT count(*) AS "rows"${names.map((n) => `, count("${n}") AS "${n}"`).join('')} FROM "${table.name}"`).get()!;
    const columns = new Map(
      info
        .filter((c) => c.name !== 'id')
        .map((c) => {
          const name = String(c.name);
          const sqlType = String(c.type).toUpperCase();
          const kind = recorded.get(name);
          return [name, { kinds: kind ? [kind] : (KINDS_OF[sqlType] ?? []), notNull: Number(c.notnull) === 1, values: Number(counts[name]), sqlType }];
        }),
    );
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE ?").all(table.name, `${INDEX_PREFIX}%`);
    stored.set(table.name, { rows: Number(counts.rows), columns, indexes: new Set(indexes.map((i) => String(i.name))) });
  }
  return stored;
}

/** A default as an SQL literal. */
function literal(column: ColumnDef): string {
  const value = toSql(column, column.default);
  if (value === null) return 'NULL';
  return typeof value === 'string' ? `'${value.replace(/'/g, "''")}'` : String(value);
}

/** A column's definition: NOT NULL when every record has a value (`whole`: the table makes it so), its default, booleans 0 or 1. */
function columnSql(column: ColumnDef, whole: boolean): string {
  const hasDefault = 'default' in column && column.default !== null;
  const notNull = column.required && !column.nullable && (whole || hasDefault);
  return (
    `"${column.column}" ${SQL_TYPES[column.kind]}${notNull ? ' NOT NULL' : ''}${hasDefault ? ` DEFAULT ${literal(column)}` : ''}` +
    (column.kind === 'boolean' ? ` CHECK ("${column.column}" IN (0, 1))` : '')
  );
}

/**
 * A collection's table: `INTEGER PRIMARY KEY AUTOINCREMENT` (a new id is the largest ever given + 1, from
 * `sqlite_sequence`, written in the insert's transaction: never reused after a delete, no gap after a rollback
 * or a crash), STRICT (a value of the wrong type is refused, not stored as it comes).
 */
function createSql(table: TableDef, name = table.name): string {
  return `CREATE TABLE "${name}" (id INTEGER PRIMARY KEY AUTOINCREMENT${writtenColumns(table).map((c) => `, ${columnSql(c, true)}`).join('')}) STRICT`;
}

/**
 * The triggers that keep the collection's count and write counter in `collection_stats`, in the transaction of
 * every insert, update and delete, and the index of a parent link (children are read by parent, in id order).
 * Parent links are not foreign keys: as in the other stores, deleting a parent leaves its children.
 */
function attach(db: Connection, table: TableDef): void {
  const n = table.name;
  db.exec(`
    CREATE TRIGGER "${n}_inserted" AFTER INSERT ON "${n}" BEGIN UPDATE collection_stats SET total = total + 1, writes = writes + 1 WHERE name = '${n}'; END;
    CREATE TRIGGER "${n}_updated" AFTER UPDATE ON "${n}" BEGIN UPDATE collection_stats SET writes = writes + 1 WHERE name = '${n}'; END;
    CREATE TRIGGER "${n}_deleted" AFTER DELETE ON "${n}" BEGIN UPDATE collection_stats SET total = total - 1, writes = writes + 1 WHERE name = '${n}'; END;
  `);
  for (const column of table.columns.filter((c) => c.parent)) db.exec(`CREATE INDEX "${n}_${column.column}_idx" ON "${n}" ("${column.column}", id)`);
  for (const index of table.indexes) db.exec(`CREATE INDEX IF NOT EXISTS "${index.name}" ON "${n}" ("${index.column.column}", id)`);
}

/** A new lower-cased copy filled for the records stored before it, as the store writes it (JavaScript's toLowerCase). */
function fold(db: Connection, table: TableDef, column: ColumnDef): void {
  const source = table.columns.find((c) => c.field === column.folds)!.column;
  const write = db.prepare(`UPDATE "${table.name}" SET "${column.column}" = ? WHERE id = ?`);
  for (const row of db.prepare(`SELECT id, "${source}" AS v FROM "${table.name}" WHERE "${source}" IS NOT NULL`).all()) write.run(String(row.v).toLowerCase(), row.id as number);
}

function apply(db: Connection, change: Change): void {
  const n = change.table.name;
  switch (change.op) {
    case 'create':
      db.exec(createSql(change.table));
      db.prepare('INSERT OR REPLACE INTO collection_stats (name, total, writes) VALUES (?, 0, 0)').run(n);
      attach(db, change.table);
      return;
    case 'add':
      if (!change.column.folds || !hasColumn(db, n, change.column.column)) db.exec(`ALTER TABLE "${n}" ADD COLUMN ${columnSql(change.column, false)}`);
      if (change.column.folds) fold(db, change.table, change.column);
      return;
    case 'index':
      db.exec(`CREATE INDEX IF NOT EXISTS "${change.index.name}" ON "${n}" ("${change.index.column.column}", id)`);
      return;
    case 'unindex':
      db.exec(`DROP INDEX IF EXISTS "${change.name}"`);
      return;
    case 'fill':
      db.exec(`UPDATE "${n}" SET "${change.column.column}" = ${literal(change.column)} WHERE "${change.column.column}" IS NULL`);
      return;
    default:
      // 'optional' and 'drop' rebuild the table; 'widen' has nothing to do (SQLite integers are 64-bit).
      return;
  }
}

const hasColumn = (db: Connection, table: string, column: string) => db.prepare(`PRAGMA table_info("${table}")`).all().some((c) => c.name === column);

/**
 * The table made anew as the contract describes it, SQLite's way of changing a column's constraints or dropping
 * it: a new table, the rows copied (a field with a default gets it where a row has no value), the old one dropped,
 * the new one renamed, its triggers and index made again. The id counter is kept: ids are never reused.
 */
function rebuild(db: Connection, table: TableDef): void {
  const n = table.name;
  const next = `${n}__contract`;
  const held = new Set(db.prepare(`PRAGMA table_info("${n}")`).all().map((c) => String(c.name)));
  const copied = writtenColumns(table).filter((c) => held.has(c.column));
  const value = (c: ColumnDef) => ('default' in c && c.default !== null ? `coalesce("${c.column}", ${literal(c)})` : `"${c.column}"`);
  const sequence = Number(db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(n)?.seq ?? 0);
  db.exec(createSql(table, next));
  db.exec(`INSERT INTO "${next}" (id${copied.map((c) => `, "${c.column}"`).join('')}) SELECT id${copied.map((c) => `, ${value(c)}`).join('')} FROM "${n}"`);
  db.exec(`DROP TABLE "${n}"`);
  db.exec(`ALTER TABLE "${next}" RENAME TO "${n}"`);
  db.prepare('DELETE FROM sqlite_sequence WHERE name IN (?, ?)').run(n, next);
  db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(n, sequence);
  attach(db, table);
}
