import type { PoolClient } from 'pg';
import { describeChange, handWrittenMigrations, migrationsFolder, planChanges, type Change, type StoredTable } from '../follow';
import type { FieldKind } from '../model';
import { INDEX_PREFIX, writtenColumns, type ColumnDef, type IndexDef, type TableDef } from '../tables';
import { collectionTriggers } from './migrations';
import { ident } from './pool';

/**
 * The PostgreSQL store following the contract (../follow.ts): hand-written migrations first, then the tables
 * compared with the contract's and changed, everything recorded; in the caller's transaction, under its
 * advisory lock (setup.ts), so instances starting together apply a change once.
 */
export async function followContract(client: PoolClient, tables: readonly TableDef[], root?: string): Promise<Change[]> {
  const applied = new Set((await client.query<{ name: string }>('SELECT name FROM applied_migrations')).rows.map((r) => r.name));
  for (const migration of handWrittenMigrations('postgres', root)) {
    if (applied.has(migration.name)) continue;
    await client.query(migration.sql);
    await client.query('INSERT INTO applied_migrations (name) VALUES ($1)', [migration.name]);
  }
  const changes = planChanges(tables, await inspect(client, tables), migrationsFolder('postgres'));
  for (const change of changes) {
    await client.query(sqlOf(change));
    if (change.op === 'add' && change.column.folds) await fold(client, change.table, change.column);
    await client.query('INSERT INTO contract_changes (change) VALUES ($1)', [describeChange(change)]);
  }
  for (const table of tables) {
    await client.query('DELETE FROM stored_columns WHERE table_name = $1', [table.name]);
    await client.query('INSERT INTO stored_columns (table_name, column_name, kind) SELECT $1, unnest($2::text[]), unnest($3::text[])', [
      table.name,
      writtenColumns(table).map((c) => c.column),
      writtenColumns(table).map((c) => c.kind),
    ]);
  }
  return changes;
}

/** A new lower-cased copy filled for the records stored before it, as the store writes it (JavaScript's toLowerCase). */
async function fold(client: PoolClient, table: TableDef, column: ColumnDef): Promise<void> {
  const source = ident(table.columns.find((c) => c.field === column.folds)!.column);
  const { rows } = await client.query<{ id: number; v: string }>(`SELECT id, ${source} AS v FROM ${ident(table.name)} WHERE ${source} IS NOT NULL`);
  await client.query(`UPDATE ${ident(table.name)} AS t SET ${ident(column.column)} = f.v FROM unnest($1::bigint[], $2::text[]) AS f(id, v) WHERE t.id = f.id`, [
    rows.map((r) => r.id),
    rows.map((r) => r.v.toLowerCase()),
  ]);
}

/** A query index: text by code point, as lists compare and sort it (sql/dialect.ts), then id. */
const indexSql = (table: TableDef, { name, column }: IndexDef) =>
  `CREATE INDEX IF NOT EXISTS ${ident(name)} ON ${ident(table.name)} (${ident(column.column)}${column.kind === 'text' ? ' COLLATE "C"' : ''}, id);`;

const KINDS_OF: Record<string, FieldKind[]> = {
  text: ['text'],
  'character varying': ['text'],
  bigint: ['integer'],
  integer: ['integer'],
  smallint: ['integer'],
  boolean: ['boolean'],
  'double precision': ['number'],
  real: ['number'],
  numeric: ['number'],
  jsonb: ['json'],
  json: ['json'],
};

async function inspect(client: PoolClient, tables: readonly TableDef[]): Promise<Map<string, StoredTable>> {
  const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1::text[]) ORDER BY ordinal_position`,
    [tables.map((t) => t.name)],
  );
  const recorded = new Map(
    (await client.query<{ table_name: string; column_name: string; kind: FieldKind }>('SELECT table_name, column_name, kind FROM stored_columns')).rows.map((r) => [
      `${r.table_name}.${r.column_name}`,
      r.kind,
    ]),
  );
  const stored = new Map<string, StoredTable>();
  for (const table of tables) {
    const columns = rows.filter((r) => r.table_name === table.name && r.column_name !== 'id');
    if (!rows.some((r) => r.table_name === table.name)) continue;
    const counts = (
      await client.query(`SELECT count(*)::bigint AS "rows"${columns.map((c, i) => `, count(${ident(c.column_name)})::bigint AS c${i}`).join('')} FROM ${ident(table.name)}`)
    ).rows[0] as Record<string, number>;
    const indexes = await client.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND starts_with(indexname, $2)`, [table.name, INDEX_PREFIX]);
    stored.set(table.name, {
      indexes: new Set(indexes.rows.map((r) => r.indexname)),
      rows: Number(counts.rows),
      columns: new Map(
        columns.map((c, i) => {
          const kind = recorded.get(`${table.name}.${c.column_name}`);
          return [c.column_name, { kinds: kind ? [kind] : (KINDS_OF[c.data_type] ?? []), notNull: c.is_nullable === 'NO', values: Number(counts[`c${i}`]), sqlType: c.data_type }];
        }),
      ),
    });
  }
  return stored;
}

/** A default as an SQL literal. */
function literal(column: ColumnDef): string {
  const value = column.default;
  if (value === null || value === undefined) return 'NULL';
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  if (column.kind === 'json') return `${quote(JSON.stringify(value))}::jsonb`;
  if (typeof value === 'string') return quote(value);
  return String(value);
}

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
