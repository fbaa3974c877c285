import type { Connection, Driver } from './driver';
import { sqliteCode, StoreSetupError } from './errors';

/**
 * One service process per SQLite file. Writes from two processes would take turns on SQLite's file lock,
 * and a synchronous driver waits for that lock by blocking its event loop (docs/storage.md: 1.4 s and
 * 3.2 s stalls measured with two writers), and an Idempotency-Key "in progress" in one process would be
 * invisible to the other. So the store holds an exclusive lock on a companion file (`<file>.lock`, empty)
 * from open to close: a second process opening the same file is refused at start, in one line.
 *
 * The lock is SQLite's own (an open EXCLUSIVE transaction on the companion database): the operating system
 * drops it when the process ends, however it ends (SIGKILL included), so a crashed service restarts at once.
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
