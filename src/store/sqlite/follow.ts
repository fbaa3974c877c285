import type { FieldKind } from '../model';
import { literal as sqlLiteral, RECORDS, type Change, type FollowPart, type Statement, type Steps } from '../follow';
import { sqlite } from '../sql/dialect';
import { indexTail, INDEX_PREFIX, writtenColumns, type ColumnDef, type TableDef } from '../tables';

/** SQLite's part in following the contract (../follow.ts): how it describes its tables, and its SQL for each change. */
export const sqliteFollow: FollowPart = {
  store: 'sqlite',
  *describe(table) {
    const info = yield read(`PRAGMA table_info("${table}")`);
    if (info.length === 0) return undefined;
    const indexes = yield read("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE ?", [table, `${INDEX_PREFIX}%`]);
    return {
      columns: info.filter((c) => c.name !== 'id').map((c) => ({ name: String(c.name), type: String(c.type).toUpperCase(), notNull: Number(c.notnull) === 1 })),
      indexes: indexes.map((i) => String(i.name)),
    };
  },
  /** What the values of a column of a SQL type can be, for a table whose kinds were never recorded. */
  kindsOf: { TEXT: ['text', 'json'], INTEGER: ['integer', 'boolean'], REAL: ['number'], ANY: ['json'] },
  *apply(changes) {
    // 'optional' and 'drop' rebuild the table (SQLite's way of changing a column's constraints or dropping it).
    const rebuilt = new Set(changes.filter((c) => c.op === 'optional' || c.op === 'drop').map((c) => c.table.name));
    for (const table of new Set(changes.filter((c) => rebuilt.has(c.table.name)).map((c) => c.table))) yield* rebuild(table);
    for (const change of changes) if (!rebuilt.has(change.table.name) || (change.op === 'add' && change.column.folds)) yield* apply(change);
  },
  // Ids continue after the largest seeded id: AUTOINCREMENT's counter moves past every id inserted.
  seed: (table) => {
    const columns = writtenColumns(table);
    const value = (c: ColumnDef) => (c.kind === 'json' ? `value -> '$.${c.field}'` : `value ->> '$.${c.field}'`);
    return [{ sql: `INSERT INTO "${table.name}" (id${columns.map((c) => `, "${c.column}"`).join('')}) SELECT value ->> '$.id'${columns.map((c) => `, ${value(c)}`).join('')} FROM json_each(?) ORDER BY 1`, params: [RECORDS] }];
  },
};

const read = (sql: string, params: unknown[] = []): Statement => ({ sql, params, read: true });
const run = (sql: string, ...params: unknown[]): Statement => (params.length ? { sql, params } : { sql });

const SQL_TYPES: Record<FieldKind, string> = { text: 'TEXT', integer: 'INTEGER', number: 'REAL', boolean: 'INTEGER', json: 'TEXT' };

/** A default as an SQL literal (booleans 0/1, JSON as text). */
const literal = (column: ColumnDef) => sqlLiteral(column, sqlite.bind(column, column.default));

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
 * A collection's table: `INTEGER PRIMARY KEY AUTOINCREMENT` (ids from `sqlite_sequence`, in the insert's transaction:
 * never reused, no gap after a rollback or a crash), STRICT (a value of the wrong type is refused).
 */
function createSql(table: TableDef, name = table.name): string {
  return `CREATE TABLE "${name}" (id INTEGER PRIMARY KEY AUTOINCREMENT${writtenColumns(table).map((c) => `, ${columnSql(c, true)}`).join('')}) STRICT`;
}

const indexSql = (table: string, name: string, column: ColumnDef, tail = 'id') => `CREATE INDEX IF NOT EXISTS "${name}" ON "${table}" ("${column.column}", ${tail})`;

/**
 * The triggers that keep `collection_stats` (count and writes) in every write's transaction, and the indexes: a parent
 * link's (children are read by parent; not a foreign key: deleting a parent leaves its children) and the queries'.
 */
function attach(table: TableDef): Statement {
  const n = table.name;
  return run(`
    CREATE TRIGGER "${n}_inserted" AFTER INSERT ON "${n}" BEGIN UPDATE collection_stats SET total = total + 1, writes = writes + 1 WHERE name = '${n}'; END;
    CREATE TRIGGER "${n}_updated" AFTER UPDATE ON "${n}" BEGIN UPDATE collection_stats SET writes = writes + 1 WHERE name = '${n}'; END;
    CREATE TRIGGER "${n}_deleted" AFTER DELETE ON "${n}" BEGIN UPDATE collection_stats SET total = total - 1, writes = writes + 1 WHERE name = '${n}'; END;
    ${table.columns.filter((c) => c.parent).map((c) => `${indexSql(n, `${n}_${c.column}_idx`, c)};`).join('\n')}
    ${table.indexes.map((index) => `${indexSql(n, index.name, index.column, indexTail(index))};`).join('\n')}
  `);
}

function* apply(change: Change): Steps<void> {
  const n = change.table.name;
  switch (change.op) {
    case 'create':
      yield run(createSql(change.table));
      yield run('INSERT OR REPLACE INTO collection_stats (name, total, writes) VALUES (?, 0, 0)', n);
      yield attach(change.table);
      return;
    case 'add': {
      const { column } = change;
      const held = (yield read(`PRAGMA table_info("${n}")`)).some((c) => c.name === column.column);
      if (!held) yield run(`ALTER TABLE "${n}" ADD COLUMN ${columnSql(column, false)}`);
      if (!column.folds) return;
      // A new lower-cased copy, filled for the records stored before it as the store writes it (JavaScript's toLowerCase).
      const source = change.table.columns.find((c) => c.field === column.folds)!.column;
      for (const row of yield read(`SELECT id, "${source}" AS v FROM "${n}" WHERE "${source}" IS NOT NULL`)) yield run(`UPDATE "${n}" SET "${column.column}" = ? WHERE id = ?`, String(row.v).toLowerCase(), row.id);
      return;
    }
    case 'index':
      yield run(indexSql(n, change.index.name, change.index.column, indexTail(change.index)));
      return;
    case 'unindex':
      yield run(`DROP INDEX IF EXISTS "${change.name}"`);
      return;
    case 'fill':
      yield run(`UPDATE "${n}" SET "${change.column.column}" = ${literal(change.column)} WHERE "${change.column.column}" IS NULL`);
      return;
    default:
      // 'widen' has nothing to do (SQLite integers are 64-bit); 'optional' and 'drop' rebuilt the table.
      return;
  }
}

/**
 * The table made anew (SQLite's way of changing a column's constraints or dropping it): the rows copied (a default where
 * a row has none), the old table dropped, the new one renamed, its triggers and indexes made again, its id counter kept.
 */
function* rebuild(table: TableDef): Steps<void> {
  const n = table.name;
  const next = `${n}__contract`;
  const held = new Set((yield read(`PRAGMA table_info("${n}")`)).map((c) => String(c.name)));
  const copied = writtenColumns(table).filter((c) => held.has(c.column));
  const value = (c: ColumnDef) => ('default' in c && c.default !== null ? `coalesce("${c.column}", ${literal(c)})` : `"${c.column}"`);
  const [sequence] = yield read('SELECT seq FROM sqlite_sequence WHERE name = ?', [n]);
  yield run(createSql(table, next));
  yield run(`INSERT INTO "${next}" (id${copied.map((c) => `, "${c.column}"`).join('')}) SELECT id${copied.map((c) => `, ${value(c)}`).join('')} FROM "${n}"`);
  yield run(`DROP TABLE "${n}"; ALTER TABLE "${next}" RENAME TO "${n}"`);
  yield run('DELETE FROM sqlite_sequence WHERE name IN (?, ?)', n, next);
  yield run('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', n, Number(sequence?.seq ?? 0));
  yield attach(table);
}
