/**
 * The SQLite database's own tables, as migrations: migration n brings `PRAGMA user_version` from n - 1 to n, in the
 * transaction that applies it (the collections' tables follow the contract: ../follow.ts). `collection_stats`: each
 * collection's row count and write counter, kept by triggers in every write's transaction (a list's total and
 * version); `stored_columns`: the kind the contract gave each column (SQLite's types do not tell a boolean from an
 * integer); `contract_changes` and `applied_migrations`: what following the contract did, and when.
 */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      -- Facts about this data set, such as when the seed data was loaded.
      CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      CREATE TABLE collection_stats (name TEXT PRIMARY KEY, total INTEGER NOT NULL, writes INTEGER NOT NULL) STRICT;
      -- Answers kept under an Idempotency-Key (draft-ietf-httpapi-idempotency-key-header); expires_at in ms since 1970.
      CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, answer TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT;
      CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE stored_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, kind TEXT NOT NULL, PRIMARY KEY (table_name, column_name)) STRICT;
      CREATE TABLE contract_changes (id INTEGER PRIMARY KEY, applied_at TEXT NOT NULL, change TEXT NOT NULL) STRICT;
      CREATE TABLE applied_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT;
    `,
  },
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
