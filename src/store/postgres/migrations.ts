import type { PoolClient } from 'pg';

/**
 * The schema, as an ordered list of migrations. Applied once each, in order, recorded in
 * `schema_migrations`. Never edit a released migration: append a new one.
 * Ids: since migration 2, a counter row per collection (`id_counters`), incremented in the same
 * transaction as the insert (see PgCollection.create): unique across every process, never reused
 * after a delete, and gapless (a sequence is not: it skips values on rollback and after a crash).
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
