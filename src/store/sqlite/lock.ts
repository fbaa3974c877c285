import type { Connection, Driver } from './driver';
import { sqliteCode, StoreSetupError } from './errors';

/**
 * One service process per SQLite file (docs/storage.md, "One process per file"): two would take turns on SQLite's
 * file lock, blocking their event loops, and one's Idempotency-Key "in progress" would be invisible to the other. The
 * store holds SQLite's own exclusive lock on a companion file (`<file>.lock`) from open to close: the operating
 * system drops it when the process ends, however it ends, so a crashed service restarts at once.
 */
export function lockFile(driver: Driver, dataFile: string): Connection {
  const file = `${dataFile}.lock`;
  let lock: Connection | undefined;
  try {
    lock = driver.open(file);
    lock.exec('PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
    return lock;
  } catch (err) {
    lock?.close();
    if (sqliteCode(err) === 'SQLITE_BUSY') {
      throw new StoreSetupError(
        `SQLITE_FILE ${dataFile} is in use by another service process (one process per file; to run several, use PostgreSQL: DATABASE_URL)`,
      );
    }
    throw new StoreSetupError(`cannot lock SQLITE_FILE ${dataFile} (${file}): ${(err as Error).message}`);
  }
}
