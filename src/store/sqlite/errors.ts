import { OverloadedError, StorageUnavailableError } from '../errors';

/**
 * SQLite's primary result codes this store tells apart. better-sqlite3 names them (`code: 'SQLITE_BUSY'`,
 * extended ones such as `SQLITE_IOERR_FSYNC` too); node:sqlite gives the extended number (`errcode`),
 * whose low byte is the primary code.
 */
const PRIMARY: Record<number, string> = Object.fromEntries(
  [[3, 'PERM'], [5, 'BUSY'], [6, 'LOCKED'], [7, 'NOMEM'], [8, 'READONLY'], [10, 'IOERR'], [11, 'CORRUPT'], [13, 'FULL'], [14, 'CANTOPEN'], [19, 'CONSTRAINT'], [26, 'NOTADB']].map(([n, name]) => [n, `SQLITE_${name}`]),
);

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

/** As the service's errors: a locked file is OverloadedError (503 busy), a file that cannot be used or a closed store StorageUnavailableError. */
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
