import type { Pool, PoolClient } from 'pg';
import { followContract, runStepsAsync, seedOnce, type Change, type Statement } from '../follow';
import type { TableDef } from '../tables';
import type { SeedSource } from '../types';
import { postgresFollow } from './follow';
import { applyMigrations } from './migrations';
import { ident, translate } from './pool';

/** Long enough for migrations and the seed, or for waiting on another instance doing them. */
const SETUP_STATEMENT_TIMEOUT = '60s';

/**
 * Makes `schema` ready (migrations, the contract's tables, the seed once) in one transaction under an advisory lock:
 * instances starting together take turns, the first does the work. A failure rolls everything back.
 */
export async function prepareDatabase(pool: Pool, schema: string, seed: SeedSource, tables: readonly TableDef[], root?: string): Promise<{ migrated: number[]; changed: Change[]; seeded: boolean }> {
  let client: PoolClient | undefined;
  try {
    client = await pool.connect();
    await client.query('BEGIN');
    await client.query(`SET LOCAL statement_timeout = '${SETUP_STATEMENT_TIMEOUT}'`);
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`contract-first-sample-api:setup:${schema}`]);
    if (schema !== 'public') await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    await client.query(`SET LOCAL search_path TO ${ident(schema)}`);
    const migrated = await applyMigrations(client);
    const run = async ({ sql, params, read }: Statement) => {
      let n = 0;
      // The client's own limit a little past the server's: a big seed or index takes longer than the pool's per-query limit.
      const { rows } = await client!.query({ text: params ? sql.replace(/\?/g, () => `$${++n}`) : sql, values: params, query_timeout: 65000 } as never);
      return read ? rows : [];
    };
    const changed = await runStepsAsync(followContract(postgresFollow, tables, root), run);
    const seeded = await runStepsAsync(seedOnce(postgresFollow, seed, tables), run);
    await client.query('COMMIT');
    client.release();
    return { migrated, changed, seeded };
  } catch (err) {
    // A client whose transaction failed is destroyed, not reused: the rollback happens with it.
    client?.release(err as Error);
    throw translate(err);
  }
}
