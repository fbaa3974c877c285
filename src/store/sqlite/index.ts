import { randomUUID } from 'node:crypto';
import { storeOf } from '../collections';
import { specModel, type ContractModel } from '../model';
import type { Collection, SeedData, Store } from '../types';
import { CommittedCache, SqliteChildCollection, SqliteCollection, type Writes } from './collection';
import { loadDriver, type Connection, type Driver, type DriverName } from './driver';
import { translating } from './errors';
import { SqliteIdempotency } from './idempotency';
import { openFile } from './setup';
import { sqliteTable } from './tables';
import { Writer } from './writer';

export interface SqliteStoreOptions {
  /** The database file; its folder and the file are made when missing. */
  file: string;
  /** Loaded once, into a file that was never seeded. */
  seed: SeedData;
  /** The driver to use (by name, or one that wraps a driver, as tests do); default: the first that runs here (driver.ts). */
  driver?: DriverName | Driver;
  /** The stored resources (default: the contract's, model.ts). */
  model?: ContractModel;
  /** The project folder whose `migrations/sqlite/` holds hand-written migrations (default: this project, follow.ts). */
  root?: string;
}

/** The SQLite store, and the driver it runs on. */
export type SqliteStore = Store & { readonly driver: Driver['name'] };

/**
 * The SQLite store: the data in one file that outlives the process (docs/storage.md). Opening it is
 * synchronous: lock, migrations and the seed (once per file), then every repository reads from its table.
 * One process per file (lock.ts).
 */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const driver = typeof options.driver === 'object' ? options.driver : loadDriver(options.driver);
  const resources = [...(options.model ?? specModel()).resources.values()];
  const tables = resources.map((resource) => sqliteTable<never>(resource));
  const { lock, writer: writeDb, reader } = openFile(driver, options.file, options.seed, tables, options.root);
  const writer = new Writer(writeDb);
  const epoch = randomUUID();
  const caches = tables.map(() => new CommittedCache<never>());
  const repositories = (db: Connection, writes: Writes, committedReads: boolean) =>
    storeOf(
      new Map<string, Collection<never>>(
        tables.map((table, i) => {
          const { parentKey } = resources[i];
          const collection = parentKey
            ? new SqliteChildCollection(db, writeDb, table, parentKey as never, writes, epoch, caches[i], committedReads)
            : new SqliteCollection(db, writeDb, table, writes, epoch, caches[i], committedReads);
          return [table.def.name, collection];
        }),
      ),
    );
  const ping = reader.prepare('SELECT count(*) AS n FROM store_meta');
  let closing: Promise<void> | undefined;
  const store: SqliteStore = {
    kind: 'sqlite',
    driver: driver.name,
    ...repositories(reader, (write, afterCommit) => writer.write(write, afterCommit), true),
    idempotent: (request, work) => idempotency.run(request, work),
    ping: async () => void translating(() => ping.get()),
    close: () => (closing ??= closeAll(writer, [reader, writeDb, lock])),
  };
  // Keyed work holds the writer: its repositories read and write on the writing connection, at once, and
  // their changes reach the cache only once the batch holding the work is committed.
  const direct: Writes = async (write, afterCommit) => {
    const result = translating(write);
    if (afterCommit) writer.afterKeyedCommit(() => afterCommit(result));
    return result;
  };
  const idempotency = new SqliteIdempotency(writer, writeDb, { ...store, ...repositories(writeDb, direct, false) });
  return store;
}

/** Queued writes finish; then the connections close, the lock last (closing the writer checkpoints the log into the file). */
async function closeAll(writer: Writer, connections: Connection[]): Promise<void> {
  await writer.close();
  for (const db of connections) db.close();
}
