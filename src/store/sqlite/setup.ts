import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SeedSource } from '../types';
import type { Connection, Driver, SqlValue } from './driver';
import { sqliteCode, StoreSetupError } from './errors';
import { ContractChangeError, followContract, runSteps, seedOnce, type Change, type Statement } from '../follow';
import type { TableDef } from '../tables';
import { sqliteFollow } from './follow';
import { lockFile } from './lock';
import { MIGRATIONS, SCHEMA_VERSION } from './schema';

/**
 * Durability (docs/maintainers/storage.md): WAL and `synchronous = FULL`, so COMMIT returns once the log is on disk: an acknowledged
 * write survives a crash or a power loss; one not committed is rolled back whole.
 */
const WRITER_PRAGMAS = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = OFF';
/** Longest wait for SQLite's file lock (ms): only a tool that opened the file for writing holds it (lock.ts keeps other services out). */
export const BUSY_TIMEOUT_MS = 1000;

/** The store's connections to its file: the lock (lock.ts), the one that writes, and the one that reads. */
export interface Connections {
  lock?: Connection;
  writer: Connection;
  reader: Connection;
  /** What following the contract changed at this start. */
  changes: Change[];
}

/**
 * Opens `file` (made if missing): locked for this process, migrated, following the contract and seeded (once per file),
 * with a connection that writes and one that reads committed data only.
 */
export function openFile(driver: Driver, file: string, seed: SeedSource, tables: readonly TableDef[], root?: string): Connections {
  const opened: Connection[] = [];
  const open = () => {
    const db = driver.open(file);
    opened.push(db);
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return db;
  };
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const lock = lockFile(driver, file);
    opened.push(lock);
    const writer = open();
    const mode = writer.prepare('PRAGMA journal_mode = WAL').get()?.journal_mode;
    if (mode !== 'wal') throw new StoreSetupError(`SQLITE_FILE ${file}: SQLite cannot use write-ahead logging there (journal mode ${String(mode)})`);
    writer.exec(WRITER_PRAGMAS);
    const changes = prepare(writer, file, seed, tables, root);
    const reader = open();
    reader.exec('PRAGMA query_only = ON');
    return { lock, writer, reader, changes };
  } catch (err) {
    for (const db of opened.reverse()) db.close();
    throw setupError(err, file);
  }
}

/**
 * A database in this process's memory (the memory store): one connection that writes and reads, made and seeded as a
 * file is, gone with the process. Nothing to lock, and no log to keep on a disk.
 */
export function openMemory(driver: Driver, seed: SeedSource, tables: readonly TableDef[]): Connections {
  const db = driver.open(':memory:');
  const changes = prepare(db, ':memory:', seed, tables, undefined);
  return { writer: db, reader: db, changes };
}

/** Migrations, the contract's tables and the seed, in one transaction: a start that fails half-way leaves the file as it was. */
function prepare(db: Connection, file: string, seed: SeedSource, tables: readonly TableDef[], root?: string): Change[] {
  db.exec('BEGIN IMMEDIATE');
  try {
    const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
    if (version > SCHEMA_VERSION) {
      throw new StoreSetupError(`SQLITE_FILE ${file} was written by a newer version of the service (schema ${version}; this one knows up to ${SCHEMA_VERSION})`);
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= version) continue;
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    }
    const run = ({ sql, params, read }: Statement) => {
      if (read) return db.prepare(sql).all(...(params as SqlValue[]));
      if (params) db.prepare(sql).run(...(params as SqlValue[]));
      else db.exec(sql);
      return [];
    };
    const changes = runSteps(followContract(sqliteFollow, tables, root), run);
    runSteps(seedOnce(sqliteFollow, seed, tables), run);
    db.exec('COMMIT');
    return changes;
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}

/** The reasons a file cannot be opened, in the operator's words. */
function setupError(err: unknown, file: string): unknown {
  if (err instanceof StoreSetupError || err instanceof ContractChangeError) return err;
  const code = sqliteCode(err);
  if (code === 'SQLITE_NOTADB') return new StoreSetupError(`SQLITE_FILE ${file} is not a SQLite database`);
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PERM' || code === 'SQLITE_READONLY' || (err as NodeJS.ErrnoException)?.syscall) {
    return new StoreSetupError(`cannot open SQLITE_FILE ${file}: ${(err as Error).message}`);
  }
  return err;
}
