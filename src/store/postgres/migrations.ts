import type { PoolClient } from 'pg';

/**
 * The schema, as an ordered list of migrations. Applied once each, in order, recorded in
 * `schema_migrations`. Never edit a released migration: append a new one.
 * Ids are identity columns (`GENERATED ALWAYS`): the database sequence, never the application,
 * assigns them, so they are unique across every process and never reused after a delete.
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
