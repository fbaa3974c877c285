import type { Pool, PoolClient } from 'pg';
import { followContract, runStepsAsync, type Change } from '../follow';
import { withFolds, writtenColumns, type TableDef } from '../tables';
import type { SeedData } from '../types';
import { postgresFollow } from './follow';
import { applyMigrations } from './migrations';
import { ident, translate } from './pool';

/** Long enough for migrations and the seed, or for waiting on another instance doing them. */
const SETUP_STATEMENT_TIMEOUT = '60s';

/**
 * Makes `schema` ready: migrations applied, the collections' tables following the contract (follow.ts), seed data
 * loaded if this data set was never seeded. One transaction under a transaction-scoped advisory lock, so instances
 * starting together take turns: the first does the work, the others find it done. A failure rolls everything back.
 */
export async function prepareDatabase(pool: Pool, schema: string, seed: SeedData, tables: readonly TableDef[], root?: string): Promise<{ migrated: number[]; changed: Change[]; seeded: boolean }> {
  let client: PoolClient | undefined;
  try {
    client = await pool.connect();
    await client.query('BEGIN');
    await client.query(`SET LOCAL statement_timeout = '${SETUP_STATEMENT_TIMEOUT}'`);
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`contract-first-sample-api:setup:${schema}`]);
    if (schema !== 'public') await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    await client.query(`SET LOCAL search_path TO ${ident(schema)}`);
    const migrated = await applyMigrations(client);
    const changed = await runStepsAsync(followContract(postgresFollow, tables, root), async ({ sql, params, read }) => {
      let n = 0;
      const { rows } = await client!.query(params ? sql.replace(/\?/g, () => `$${++n}`) : sql, params);
      return read ? rows : [];
    });
    const seeded = await seedOnce(client, seed, tables);
    await client.query('COMMIT');
    client.release();
    return { migrated, changed, seeded };
  } catch (err) {
    // A client whose transaction failed is destroyed, not reused: the rollback happens with it.
    client?.release(err as Error);
    throw translate(err);
  }
}

/** Loads `seed` unless this data set was seeded before (even if since emptied), then moves every id counter past it. */
async function seedOnce(client: PoolClient, seed: SeedData, tables: readonly TableDef[]): Promise<boolean> {
  const marker = await client.query("SELECT 1 FROM store_meta WHERE key = 'seeded_at'");
  if (marker.rowCount) return false;
  for (const table of tables) {
    const name = ident(table.name);
    const written = writtenColumns(table);
    const columns = written.map((c) => `, ${ident(c.column)}`).join('');
    // A field a record leaves out gets the column's default (or NULL): the seed's records have their defaults already (seed.ts).
    const fields = written.map((c) => `, r.${ident(c.field)}`).join('');
    const recordType = ['id bigint', ...written.map((c) => `${ident(c.field)} ${c.type}`)].join(', ');
    await client.query(
      `INSERT INTO ${name} (id${columns})
       SELECT r.id${fields} FROM json_to_recordset($1::json) AS r(${recordType}) ORDER BY id`,
      [JSON.stringify((seed[table.name] ?? []).map((record) => withFolds(table, record as Record<string, unknown>)))],
    );
    // Ids continue after the largest seeded id.
    await client.query(`UPDATE id_counters SET last_id = greatest(last_id, (SELECT coalesce(max(id), 0) FROM ${name})) WHERE name = $1`, [table.name]);
  }
  await client.query("INSERT INTO store_meta (key, value) VALUES ('seeded_at', now()::text)");
  return true;
}
