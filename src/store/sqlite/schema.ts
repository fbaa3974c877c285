/**
 * The SQLite file's schema, as an ordered list of migrations: migration n brings `PRAGMA user_version`
 * from n - 1 to n, in the transaction that applies it. Never edit a released migration: append one.
 *
 * - STRICT tables: SQLite refuses a value of the wrong type instead of storing it as it comes.
 * - `INTEGER PRIMARY KEY AUTOINCREMENT`: a new id is the largest ever given + 1 (`sqlite_sequence`, written in
 *   the same transaction as the insert): never reused after a delete, and a rolled-back insert or a crash
 *   before COMMIT leaves no gap. Seed rows with explicit ids move it past them.
 * - Booleans are INTEGER 0/1 (SQLite has no boolean type).
 * - `collection_stats` keeps each collection's row count and a write counter, kept by triggers in the same
 *   transaction as every insert, update and delete (whatever makes it): the list's total and version
 *   without counting rows.
 * - Parent links (posts.user_id, comments.post_id) are indexed, not foreign keys: as in the other stores,
 *   deleting a parent leaves its children.
 */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE books (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, pages INTEGER NOT NULL DEFAULT 0) STRICT;
      CREATE TABLE todos (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1))) STRICT;
      CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL) STRICT;
      CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL) STRICT;
      CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1))) STRICT;
      CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, email TEXT NOT NULL) STRICT;
      CREATE TABLE posts (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL) STRICT;
      CREATE INDEX posts_user_id_idx ON posts (user_id, id);
      CREATE TABLE comments (id INTEGER PRIMARY KEY AUTOINCREMENT, post_id INTEGER NOT NULL, body TEXT NOT NULL) STRICT;
      CREATE INDEX comments_post_id_idx ON comments (post_id, id);
      -- Facts about this data set, such as when the seed data was loaded.
      CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      CREATE TABLE collection_stats (name TEXT PRIMARY KEY, total INTEGER NOT NULL, writes INTEGER NOT NULL) STRICT;
      ${['books', 'todos', 'notes', 'items', 'tasks', 'users', 'posts', 'comments'].map(
        (name) => `
      INSERT INTO collection_stats (name, total, writes) VALUES ('${name}', 0, 0);
      CREATE TRIGGER ${name}_inserted AFTER INSERT ON ${name}
        BEGIN UPDATE collection_stats SET total = total + 1, writes = writes + 1 WHERE name = '${name}'; END;
      CREATE TRIGGER ${name}_updated AFTER UPDATE ON ${name}
        BEGIN UPDATE collection_stats SET writes = writes + 1 WHERE name = '${name}'; END;
      CREATE TRIGGER ${name}_deleted AFTER DELETE ON ${name}
        BEGIN UPDATE collection_stats SET total = total - 1, writes = writes + 1 WHERE name = '${name}'; END;`,
      ).join('')}
      -- Answers kept under an Idempotency-Key (draft-ietf-httpapi-idempotency-key-header); expires_at in ms since 1970.
      CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, answer TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT;
      CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
    `,
  },
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
