import type { PoolClient } from 'pg';

/** The collections' tables, as every migration since the first knows them. */
const COLLECTION_NAMES = ['books', 'todos', 'notes', 'items', 'tasks', 'users', 'posts', 'comments'] as const;

/**
 * The schema, as an ordered list of migrations. Applied once each, in order, recorded in
 * `schema_migrations`. Never edit a released migration: append a new one.
 * Ids: since migration 2, a counter row per collection (`id_counters`), incremented in the same
 * transaction as the insert (see PgCollection.create): unique across every process, never reused
 * after a delete, and gapless (a sequence is not: it skips values on rollback and after a crash).
 * Since migration 3, each collection's record count and write count (`collection_writes`), kept by
 * triggers in the same transaction as every change to its rows: a list's total and version.
 * Parent links (posts.user_id, comments.post_id) are indexed but not foreign keys: like the
 * in-memory store, deleting a parent leaves its children.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'collections',
    sql: `
      CREATE TABLE books (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        title text NOT NULL,
        pages integer NOT NULL DEFAULT 0
      );
      CREATE TABLE todos (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        text text NOT NULL,
        done boolean NOT NULL DEFAULT false
      );
      CREATE TABLE notes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        body text NOT NULL
      );
      CREATE TABLE items (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL
      );
      CREATE TABLE tasks (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        title text NOT NULL,
        done boolean NOT NULL DEFAULT false
      );
      CREATE TABLE users (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        email text NOT NULL
      );
      CREATE TABLE posts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL,
        title text NOT NULL,
        body text NOT NULL
      );
      CREATE INDEX posts_user_id_idx ON posts (user_id, id);
      CREATE TABLE comments (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        post_id bigint NOT NULL,
        body text NOT NULL
      );
      CREATE INDEX comments_post_id_idx ON comments (post_id, id);
      -- Facts about this data set, such as when the seed data was loaded.
      CREATE TABLE store_meta (
        key text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
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
      -- Answers kept under an Idempotency-Key (draft-ietf-httpapi-idempotency-key-header).
      CREATE TABLE idempotency_keys (
        key text PRIMARY KEY,
        fingerprint text NOT NULL,
        answer jsonb NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
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
      CREATE TABLE collection_writes (
        name text NOT NULL,
        slot integer NOT NULL,
        writes bigint NOT NULL DEFAULT 0,
        records bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (name, slot)
      );
      INSERT INTO collection_writes (name, slot, records)
        SELECT name, slot, CASE WHEN slot = 0 THEN counted ELSE 0 END
        FROM (${COLLECTION_NAMES.map((name) => `SELECT '${name}' AS name, (SELECT count(*) FROM ${name}) AS counted`).join(' UNION ALL ')}) AS c,
             generate_series(0, 31) AS slot;
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
      END $$;
      ${COLLECTION_NAMES.map(
        (name) => `
      CREATE TRIGGER ${name}_inserted AFTER INSERT ON ${name} REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION collection_written();
      CREATE TRIGGER ${name}_updated AFTER UPDATE ON ${name} REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION collection_written();
      CREATE TRIGGER ${name}_deleted AFTER DELETE ON ${name} REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION collection_written();
      CREATE TRIGGER ${name}_truncated AFTER TRUNCATE ON ${name}
        FOR EACH STATEMENT EXECUTE FUNCTION collection_written();`,
      ).join('')}
    `,
  },
];

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
  for (const migration of MIGRATIONS) {
    if (done.has(migration.version)) continue;
    await client.query(migration.sql);
    await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    applied.push(migration.version);
  }
  return applied;
}
