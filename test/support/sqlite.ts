import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSqliteStore, type SqliteStore, type SqliteStoreOptions } from '../../src/store/sqlite';
import { driverRuns, loadDriver, type Driver, type DriverName } from '../../src/store/sqlite/driver';
import type { SeedSource } from '../../src/store/types';

/**
 * SQLite files for one test file: each store on a new file in one temporary folder, every store closed and
 * the folder removed in afterAll. Create it at the top of a test file (or a describe), where afterAll can be registered.
 */
export class SqliteFiles {
  private folder: string | undefined;
  private readonly stores: SqliteStore[] = [];
  private count = 0;

  constructor() {
    afterAll(() => this.dispose());
  }

  /** The folder, made on first use: a suite that is skipped (and so never runs afterAll) leaves nothing behind. */
  get dir(): string {
    this.folder ??= mkdtempSync(path.join(tmpdir(), 'sqlite-test-'));
    return this.folder;
  }

  /** A path for a new file (nothing made there yet). */
  newFile(): string {
    this.count += 1;
    return path.join(this.dir, `store-${this.count}.sqlite`);
  }

  /** A SQLite store on `file` (default: a new file), seeded with `seed` if the file is new; closed in afterAll. */
  store(seed: SeedSource, options: Partial<SqliteStoreOptions> = {}): SqliteStore {
    const store = createSqliteStore({ file: this.newFile(), seed, ...options });
    this.stores.push(store);
    return store;
  }

  private async dispose(): Promise<void> {
    for (const store of this.stores) await store.close();
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
  }
}

/** `describe` when `driver` runs on this Node; otherwise `describe.skip` and one plain line saying which suite was skipped and why. */
export function describeDriver(name: string, driver: DriverName, fn: () => void): void {
  if (driverRuns(driver)) return describe(name, fn);
  process.stderr.write(`SKIPPED SQLite suite "${name}": the ${driver} driver does not run on Node ${process.version}.\n`);
  describe.skip(name, fn);
}

/**
 * A driver that records the SQL of every statement it runs (get, all, run and exec) in `ran`, on every
 * connection it opens; `fail` may answer an error for a statement, which it then throws instead of running it.
 */
export function spyDriver(name: DriverName, ran: string[], fail: (sql: string) => Error | undefined = () => undefined): Driver {
  const driver = loadDriver(name);
  const run = <R>(sql: string, real: () => R): R => {
    ran.push(sql);
    const error = fail(sql);
    if (error) throw error;
    return real();
  };
  return {
    name: driver.name,
    open(file) {
      const db = driver.open(file);
      return {
        prepare(sql) {
          const statement = db.prepare(sql);
          return {
            get: (...params) => run(sql, () => statement.get(...params)),
            all: (...params) => run(sql, () => statement.all(...params)),
            run: (...params) => run(sql, () => statement.run(...params)),
          };
        },
        exec: (sql) => run(sql, () => db.exec(sql)),
        close: () => db.close(),
      };
    },
  };
}
