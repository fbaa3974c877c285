import type { Connection, Driver } from './driver';
import { sqliteCode, StoreSetupError } from './errors';

/**
 * One service process per SQLite file (docs/maintainers/storage.md, "One process per file"): the store holds SQLite's own exclusive
 * lock on a companion file (`<file>.lock`) from open to close, which the system drops when the process ends, however.
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
