import { literal as sqlLiteral, RECORDS, type Change, type FollowPart, type Statement } from '../follow';
import { indexTail, INDEX_PREFIX, writtenColumns, type ColumnDef, type IndexDef, type TableDef } from '../tables';
import { collectionTriggers } from './migrations';
import { ident } from './pool';

/** PostgreSQL's part in following the contract (../follow.ts): how it describes its tables, and its SQL for each change. */
export const postgresFollow: FollowPart = {
  store: 'postgres',
  *describe(table) {
    const columns = yield read(
      'SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
      [table],
    );
    if (columns.length === 0) return undefined;
    const indexes = yield read('SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? AND starts_with(indexname, ?)', [table, INDEX_PREFIX]);
    return {
      columns: columns.filter((c) => c.column_name !== 'id').map((c) => ({ name: String(c.column_name), type: String(c.data_type), notNull: c.is_nullable === 'NO' })),
      indexes: indexes.map((r) => String(r.indexname)),
    };
  },
  kindsOf: { text: ['text'], 'character varying': ['text'], bigint: ['integer'], integer: ['integer'], smallint: ['integer'], boolean: ['boolean'], 'double precision': ['number'], real: ['number'], numeric: ['number'], jsonb: ['json'], json: ['json'] },
  seed,
  *apply(changes) {
    for (const change of changes) {
      yield { sql: sqlOf(change) };
      if (change.op !== 'add' || !change.column.folds) continue;
      // A new lower-cased copy, filled for the records stored before it as the store writes it (JavaScript's toLowerCase).
      const source = ident(change.table.columns.find((c) => c.field === change.column.folds)!.column);
      const rows = yield read(`SELECT id, ${source} AS v FROM ${ident(change.table.name)} WHERE ${source} IS NOT NULL`);
      yield {
        sql: `UPDATE ${ident(change.table.name)} AS t SET ${ident(change.column.column)} = f.v FROM unnest(?::bigint[], ?::text[]) AS f(id, v) WHERE t.id = f.id`,
        params: [rows.map((r) => r.id), rows.map((r) => String(r.v).toLowerCase())],
      };
    }
  },
};

const read = (sql: string, params: unknown[] = []): Statement => ({ sql, params, read: true });

/** A table's seed records from JSON, then its id counter moved past the largest seeded id. */
function seed(table: TableDef): Statement[] {
  const written = writtenColumns(table);
  const recordType = ['id bigint', ...written.map((c) => `${ident(c.field)} ${c.type}`)].join(', ');
  return [
    {
      sql: `INSERT INTO ${ident(table.name)} (id${written.map((c) => `, ${ident(c.column)}`).join('')})
        SELECT r.id${written.map((c) => `, r.${ident(c.field)}`).join('')} FROM json_to_recordset(?::json) AS r(${recordType}) ORDER BY id`,
      params: [RECORDS],
    },
    { sql: `UPDATE id_counters SET last_id = greatest(last_id, (SELECT coalesce(max(id), 0) FROM ${ident(table.name)})) WHERE name = ?`, params: [table.name] },
  ];
}

/** A query index: text by code point, as lists compare and sort it (sql/dialect.ts), then id. */
const indexSql = (table: TableDef, index: IndexDef) =>
  `CREATE INDEX IF NOT EXISTS ${ident(index.name)} ON ${ident(table.name)} (${ident(index.column.column)}${index.column.kind === 'text' ? ' COLLATE "C"' : ''}, ${indexTail(index)});`;

/** A default as an SQL literal (JSON as jsonb). */
const literal = (column: ColumnDef) => (column.kind === 'json' && column.default != null ? `${sqlLiteral(column, JSON.stringify(column.default))}::jsonb` : sqlLiteral(column));

function columnSql(column: ColumnDef, notNull: boolean): string {
  const hasDefault = 'default' in column && column.default !== null;
  return `${ident(column.column)} ${column.type}${notNull ? ' NOT NULL' : ''}${hasDefault ? ` DEFAULT ${literal(column)}` : ''}`;
}

const required = (column: ColumnDef) => column.required && !column.nullable;

/** A change as SQL statements (the table's name unqualified: setup.ts sets the search path). */
function sqlOf(change: Change): string {
  const table = ident(change.table.name);
  switch (change.op) {
    case 'create': {
      const { name } = change.table;
      const columns = writtenColumns(change.table);
      // Ids come from the collection's counter row (insert.ts); counts and versions from collection_writes.
      return `
        CREATE TABLE ${table} (id bigint PRIMARY KEY${columns.map((c) => `, ${columnSql(c, required(c))}`).join('')});
        INSERT INTO id_counters (name, last_id) VALUES ('${name}', 0) ON CONFLICT (name) DO NOTHING;
        INSERT INTO collection_writes (name, slot) SELECT '${name}', slot FROM generate_series(0, 31) AS slot ON CONFLICT DO NOTHING;
        ${collectionTriggers(name)}
        ${columns
          .filter((c) => c.parent)
          .map((c) => `CREATE INDEX ${ident(`${name}_${c.column}_idx`)} ON ${table} (${ident(c.column)}, id);`)
          .join('\n')}
        ${change.table.indexes.map((index) => indexSql(change.table, index)).join('\n')}`;
    }
    case 'add':
      // A required column with no default is added to an empty table only (follow.ts): NOT NULL holds there.
      return `ALTER TABLE ${table} ADD COLUMN ${columnSql(change.column, required(change.column))}`;
    case 'fill':
      return `UPDATE ${table} SET ${ident(change.column.column)} = ${literal(change.column)} WHERE ${ident(change.column.column)} IS NULL;
        ALTER TABLE ${table} ALTER COLUMN ${ident(change.column.column)} SET NOT NULL`;
    case 'optional':
      return `ALTER TABLE ${table} ALTER COLUMN ${ident(change.column.column)} DROP NOT NULL`;
    case 'widen':
      return `ALTER TABLE ${table} ALTER COLUMN ${ident(change.column.column)} TYPE bigint`;
    case 'drop':
      return `ALTER TABLE ${table} DROP COLUMN ${ident(change.column)}`;
    case 'index':
      return indexSql(change.table, change.index);
    case 'unindex':
      return `DROP INDEX IF EXISTS ${ident(change.name)}`;
  }
}
