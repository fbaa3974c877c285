import type { PoolClient } from 'pg';

/** The collections' tables, as every migration since the first knows them. */
const COLLECTION_NAMES = ['books', 'todos', 'notes', 'items', 'tasks', 'users', 'posts', 'comments'] as const;

/** Answers kept under an Idempotency-Key (migration 2). */
const IDEMPOTENCY_KEYS_TABLE = `
      -- Answers kept under an Idempotency-Key (draft-ietf-httpapi-idempotency-key-header).
      CREATE TABLE idempotency_keys (
        key text PRIMARY KEY,
        fingerprint text NOT NULL,
        answer jsonb NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);`;

/** Each collection's writes and record count (migration 3). */
const COLLECTION_WRITES_TABLE = `
      CREATE TABLE collection_writes (
        name text NOT NULL,
        slot integer NOT NULL,
        writes bigint NOT NULL DEFAULT 0,
        records bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (name, slot)
      );`;

/** The function the triggers of every collection's table run (migration 3). */
const COLLECTION_WRITTEN = `
      -- Every statement that changes a collection's rows (the service's, a seed's, or one typed by hand) counts as a
      -- write, in its own transaction. search_path is the schema's, whatever the caller's.
      CREATE FUNCTION collection_written() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        -- One statement per case (each a plan kept by the function); a statement that changed no row is no write.
        IF TG_OP = 'INSERT' THEN
          UPDATE collection_writes SET writes = writes + 1, records = records + c.n FROM (SELECT count(*) AS n FROM added) AS c
            WHERE name = TG_TABLE_NAME AND slot = pg_backend_pid() % 32 AND c.n > 0;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE collection_writes SET writes = writes + 1, records = records - c.n FROM (SELECT count(*) AS n FROM removed) AS c
            WHERE name = TG_TABLE_NAME AND slot = pg_backend_pid() % 32 AND c.n > 0;
        ELSIF TG_OP = 'UPDATE' THEN
          UPDATE collection_writes SET writes = writes + 1
            WHERE name = TG_TABLE_NAME AND slot = pg_backend_pid() % 32 AND EXISTS (SELECT FROM added);
        ELSE -- TRUNCATE
          UPDATE collection_writes SET writes = writes + 1, records = 0 WHERE name = TG_TABLE_NAME;
        END IF;
        RETURN NULL;
      END $$;`;

/** The triggers that count a collection's writes and records in `collection_writes` (migration 3; follow.ts for a collection made since). */
export function collectionTriggers(name: string): string {
  return `      CREATE TRIGGER ${name}_inserted AFTER INSERT ON ${name} REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION collection_written();
      CREATE TRIGGER ${name}_updated AFTER UPDATE ON ${name} REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION collection_written();
      CREATE TRIGGER ${name}_deleted AFTER DELETE ON ${name} REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION collection_written();
      CREATE TRIGGER ${name}_truncated AFTER TRUNCATE ON ${name}
        FOR EACH STATEMENT EXECUTE FUNCTION collection_written();`;
}

/**
 * The store's own tables, as migrations applied once each, in order (`schema_migrations`; append, never edit). A new
 * database starts from BASELINE (what 1 to 3 left; the collections' tables follow the contract: ../follow.ts). `id_counters`
 * (2): a counter row per collection, raised in the insert's transaction: unique, never reused, gapless. `collection_writes`
 * (3): each collection's records and writes, kept by triggers in every write's transaction: a list's total and version.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 2,
    name: 'gapless ids and idempotency keys',
    // Counters start past every id ever given: the largest stored and the identity sequence's last value.
    sql: `
      CREATE TABLE id_counters (
        name text PRIMARY KEY,
        last_id bigint NOT NULL
      );
      ${['books', 'todos', 'notes', 'items', 'tasks', 'users', 'posts', 'comments']
        .map(
          (name) => `
      INSERT INTO id_counters (name, last_id) SELECT '${name}', greatest(
        (SELECT coalesce(max(id), 0) FROM ${name}),
        coalesce(pg_sequence_last_value(pg_get_serial_sequence('${name}', 'id')), 0));
      ALTER TABLE ${name} ALTER COLUMN id DROP IDENTITY;`,
        )
        .join('')}
      ${IDEMPOTENCY_KEYS_TABLE}
    `,
  },
  {
    version: 3,
    name: 'collection versions and counts',
    sql: `
      -- Writers of a service still running the previous version wait until this commits: none is missed by the counts below.
      LOCK TABLE ${COLLECTION_NAMES.join(', ')} IN SHARE ROW EXCLUSIVE MODE;
      -- Names this data set in every list version: a database made anew never repeats an earlier one's versions.
      INSERT INTO store_meta (key, value) VALUES ('data_set', gen_random_uuid()::text);
      -- Each collection's writes and record count, spread over 32 rows: a writer bumps the row of its
      -- connection (backend pid modulo 32), so concurrent writers rarely wait for one another's row lock.
      -- A list reads the sums: the count is its total, the writes (with data_set) its version.
      ${COLLECTION_WRITES_TABLE}
      INSERT INTO collection_writes (name, slot, records)
        SELECT name, slot, CASE WHEN slot = 0 THEN counted ELSE 0 END
        FROM (${COLLECTION_NAMES.map((name) => `SELECT '${name}' AS name, (SELECT count(*) FROM ${name}) AS counted`).join(' UNION ALL ')}) AS c,
             generate_series(0, 31) AS slot;
      ${COLLECTION_WRITTEN}
      ${COLLECTION_NAMES.map(collectionTriggers).join('')}
    `,
  },
  {
    version: 4,
    name: 'following the contract',
    sql: `
      -- The kind the contract gave each column, what following the contract changed, the hand-written migrations run (follow.ts).
      CREATE TABLE stored_columns (table_name text NOT NULL, column_name text NOT NULL, kind text NOT NULL, PRIMARY KEY (table_name, column_name));
      CREATE TABLE contract_changes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), change text NOT NULL);
      CREATE TABLE applied_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
    `,
  },
];

/** What migrations 1 to 3 made, the collections' tables aside (those follow the contract), for a database made anew. */
const BASELINE = {
  versions: [1, 2, 3],
  sql: `
      -- Facts about this data set, such as when the seed data was loaded.
      CREATE TABLE store_meta (
        key text PRIMARY KEY,
        value text NOT NULL
      );
      -- Names this data set in every list version: a database made anew never repeats an earlier one's versions.
      INSERT INTO store_meta (key, value) VALUES ('data_set', gen_random_uuid()::text);
      -- Ids: a counter row per collection, raised in the same transaction as the insert (see insert.ts):
      -- unique across every process, never reused after a delete, gapless (a sequence skips values on rollback).
      CREATE TABLE id_counters (
        name text PRIMARY KEY,
        last_id bigint NOT NULL
      );
      ${IDEMPOTENCY_KEYS_TABLE}
      ${COLLECTION_WRITES_TABLE}
      ${COLLECTION_WRITTEN}
  `,
};

/** Applies the migrations not yet applied. Runs inside the caller's transaction, under its advisory lock. */
export async function applyMigrations(client: PoolClient): Promise<number[]> {
  await client.query(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
  const applied: number[] = [];
  if (done.size === 0) {
    await client.query(BASELINE.sql);
    for (const version of BASELINE.versions) {
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, 'baseline']);
      done.add(version);
    }
    applied.push(...BASELINE.versions);
  }
  for (const migration of MIGRATIONS) {
    if (done.has(migration.version)) continue;
    await client.query(migration.sql);
    await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    applied.push(migration.version);
  }
  return applied;
}
