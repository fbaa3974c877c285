import { OverloadedError, StorageUnavailableError } from '../errors';

/**
 * SQLite's primary result codes this store tells apart. better-sqlite3 names them (`code: 'SQLITE_BUSY'`,
 * extended ones such as `SQLITE_IOERR_FSYNC` too); node:sqlite gives the extended number (`errcode`),
 * whose low byte is the primary code.
 */
const PRIMARY: Record<number, string> = {
  3: 'SQLITE_PERM',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
};

/** The primary result code of an error thrown by either driver (`SQLITE_BUSY`, ...), or undefined for any other error. */
export function sqliteCode(err: unknown): string | undefined {
  const { code, errcode } = (err ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return PRIMARY[errcode & 0xff] ?? `SQLITE_${errcode & 0xff}`;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  return Object.values(PRIMARY).find((name) => code === name || code.startsWith(`${name}_`)) ?? code;
}

/** Another connection holds the lock (a tool opened the file for writing): the write could not wait its turn. */
const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);
/** The file cannot be read or written (disk full, I/O error, permissions, damaged file, out of memory). */
const UNAVAILABLE = new Set(['SQLITE_PERM', 'SQLITE_NOMEM', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_CORRUPT', 'SQLITE_FULL', 'SQLITE_CANTOPEN', 'SQLITE_NOTADB']);

/**
 * Errors after which SQLite may have rolled the whole transaction back (SQLite's documentation: "the
 * transaction may or may not be rolled back automatically"), so the batch it was part of must be
 * rolled back and nothing of it reported as written. Other errors (a constraint) undo their statement only.
 */
export function abortsTransaction(err: unknown): boolean {
  const code = sqliteCode(err);
  return code !== undefined && (BUSY.has(code) || UNAVAILABLE.has(code));
}

/** A closed store's connections refuse every statement (the driver's words differ). */
const isClosed = (err: unknown) => /not open|closed|finalized/i.test(String((err as Error)?.message)) && sqliteCode(err) === undefined;

/**
 * Errors the REST error handler and GraphQL's masking know: a locked file becomes OverloadedError (503,
 * "Server busy, retry later"), a file that cannot be read or written or a closed store
 * StorageUnavailableError (503, nothing changed). Others pass unchanged (500).
 */
export function translate(err: unknown): unknown {
  if (err instanceof StorageUnavailableError || err instanceof OverloadedError) return err;
  const code = sqliteCode(err);
  if (code !== undefined && BUSY.has(code)) return new OverloadedError('Server busy: the SQLite file is locked by another connection', { cause: err });
  if ((code !== undefined && UNAVAILABLE.has(code)) || isClosed(err)) return new StorageUnavailableError('Storage is unreachable', { cause: err });
  return err;
}

/** Runs `fn`, turning the driver's failures into the store's (see translate). */
export function translating<R>(fn: () => R): R {
  try {
    return fn();
  } catch (err) {
    throw translate(err);
  }
}

/** The SQLite file cannot be used (in use by another process, not a database, made by a newer version...): one line for the operator. */
export class StoreSetupError extends Error {}
