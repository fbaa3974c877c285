import { randomUUID } from 'node:crypto';
import { specFieldOrder, type FieldOrder } from '../fields';
import { makeRepositories } from '../repositories';
import { COLLECTIONS, type CollectionName, type SeedData, type Store } from '../types';
import { ChildrenCache, RecordCache } from './cache';
import { SqliteChildCollection, SqliteCollection, type Writes } from './collection';
import { loadDriver, type Connection, type Driver, type DriverName } from './driver';
import { translating } from './errors';
import { SqliteIdempotency } from './idempotency';
import { openFile } from './setup';
import { sqliteTables } from './tables';
import { Writer } from './writer';

export interface SqliteStoreOptions {
  /** The database file; its folder and the file are made when missing. */
  file: string;
  /** Loaded once, into a file that was never seeded. */
  seed: SeedData;
  /** The driver to use (by name, or one that wraps a driver, as tests do); default: the first that runs here (driver.ts). */
  driver?: DriverName | Driver;
  /** The order of each record's fields (default: the specs' order, see fields.ts). */
  order?: FieldOrder;
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
  const tables = sqliteTables(options.order ?? specFieldOrder());
  const { lock, writer: writeDb, reader } = openFile(driver, options.file, options.seed, tables);
  const writer = new Writer(writeDb);
  const epoch = randomUUID();
  const caches = Object.fromEntries(COLLECTIONS.map((name) => [name, new RecordCache()])) as Record<CollectionName, RecordCache<never>>;
  const children = { posts: new ChildrenCache(), comments: new ChildrenCache() } as Record<'posts' | 'comments', ChildrenCache<never>>;
  const repositories = (db: Connection, writes: Writes, committedReads: boolean) =>
    makeRepositories({
      collection: (name) => new SqliteCollection(db, writeDb, tables[name], writes, epoch, caches[name], committedReads),
      children: (name, parentKey) => new SqliteChildCollection(db, writeDb, tables[name], parentKey, writes, epoch, caches[name], children[name], committedReads),
    });
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
