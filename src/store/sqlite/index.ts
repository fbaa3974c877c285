import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { specModel } from '../model';
import { DEFAULT_QUERY_LIMITS } from '../query';
import { KeptInOrder } from '../../kept-in-order';
import { CommittedCache } from '../sql/cache';
import { collectionsOf, type Database, type RecordWrite, type Row, type Run } from '../sql/collection';
import { sqlite } from '../sql/dialect';
import { bindings, TableSql, type Stats } from '../sql/table';
import { tableOf } from '../tables';
import type { Store, StoreOptions } from '../types';
import { loadDriver, type Connection, type Driver, type DriverName, type SqlValue, type Statement } from './driver';
import { translating } from './errors';
import { SqliteIdempotency } from './idempotency';
import { openFile, openMemory, type Connections } from './setup';
import { Writer } from './writer';

export interface SqliteStoreOptions extends StoreOptions {
  /** The database file (its folder and the file made when missing), or `:memory:` (the memory store). */
  file: string;
  /** The driver to use (by name, or one that wraps a driver, as tests do); default: the first that runs here (driver.ts). */
  driver?: DriverName | Driver;
}

/** The SQLite store, and the driver it runs on. */
export type SqliteStore = Store & { readonly driver: Driver['name'] };

/** The SQLite store (docs/maintainers/storage.md): the data in one file, or in memory. Opening it is synchronous; one process per file (lock.ts). */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const driver = typeof options.driver === 'object' ? options.driver : loadDriver(options.driver);
  const tables = [...(options.model ?? specModel()).resources.values()].map(tableOf);
  const opened = options.file === ':memory:' ? openMemory(driver, options.seed, tables) : openFile(driver, options.file, options.seed, tables, options.root);
  for (const change of opened.changes) options.onChange?.(change);
  return sqliteStore(driver, opened, tables, options.queryLimits);
}

/** Most statements one connection keeps prepared; the one made longest ago goes first (lists with filters come in many shapes). */
const STATEMENTS_KEPT = 512;

/** Prepared statements of one connection, made on first use and reused. */
function runner(db: Connection): Run {
  const made = new KeptInOrder<string, Statement>(STATEMENTS_KEPT);
  return (compiled, parameters) => {
    let statement = made.get(compiled.sql);
    if (!statement) {
      made.keep(compiled.sql, (statement = db.prepare(compiled.sql)));
    }
    return statement.all(...(parameters as SqlValue[]));
  };
}

/**
 * The store on opened connections: a file's (a reader beside the writer) or memory's (one connection). Reads run at
 * once on the reader; writes in the writer's batches (writer.ts), where a conditional write reads and writes with
 * nothing in between; the committed cache follows each committed write (sql/cache.ts).
 */
function sqliteStore(driver: Driver, { lock, writer: writeDb, reader }: Connections, tables: readonly ReturnType<typeof tableOf>[], limits = DEFAULT_QUERY_LIMITS): SqliteStore {
  const writer = new Writer(writeDb);
  const epoch = randomUUID();
  const stats: Stats = {
    of: (name) => sql`(SELECT total, ${epoch} || '.' || writes AS version FROM collection_stats WHERE name = ${name})`,
  };
  const sqls = tables.map((def) => new TableSql(def, sqlite, stats, def.name));
  const caches = tables.map(() => new CommittedCache<never>());
  const write = runner(writeDb);
  const database = (read: Run, writes: <R>(work: () => R, afterCommit?: (result: R) => void) => Promise<R>, cacheable: () => boolean): Database => ({
    read: (statement, parameters) => translating(() => read(statement, parameters)),
    writeRecord: (table, id, record, afterCommit) => writes(() => writeRecord(write, table, id, record), afterCommit),
    create: (table, values) => writes(() => insert(write, table, values)),
    cacheable,
  });
  // Keyed work holds the writer: its repositories read and write on the writing connection, at once, and their
  // changes reach the cache only once the batch holding the work is committed.
  const direct = <R>(work: () => R, afterCommit?: (result: R) => void): Promise<R> => {
    const result = translating(work);
    if (afterCommit) writer.afterKeyedCommit(() => afterCommit(result));
    return Promise.resolve(result);
  };
  // One connection (memory) holds keyed work's writes uncommitted while the work awaits: no read then is committed.
  const own = database(runner(reader), (work, afterCommit) => writer.write(work, afterCommit), reader === writeDb ? () => !writer.inKeyedWork : () => true);
  const repositories = (db: Database) => collectionsOf(sqls, db, limits, caches);
  const ping = reader.prepare('SELECT count(*) AS n FROM store_meta');
  let closing: Promise<void> | undefined;
  const store: SqliteStore = {
    kind: lock ? 'sqlite' : 'memory',
    driver: driver.name,
    ...repositories(own),
    idempotent: (request, work) => idempotency.run(request, work),
    ping: async () => void translating(() => ping.get()),
    close: () => (closing ??= closeAll(writer, [...new Set([reader, writeDb]), ...(lock ? [lock] : [])])),
  };
  const idempotency = new SqliteIdempotency(writer, writeDb, { ...store, ...repositories(database(write, direct, () => false)) });
  return store;
}

/** A write to one record on the writing connection: read, checked and written with nothing in between (the writer holds the database). */
function writeRecord<R>(run: Run, table: TableSql, id: number, write: RecordWrite<R>): R {
  if (write.check) {
    const [row] = run(table.byIdForWrite, [id]) as Row[];
    if (!row) return write.written([]);
    const checked = write.check(row);
    if (checked) return checked.result;
  }
  return write.written(run(write.statement, bindings(write.statement, write.slots)) as Row[]);
}

/** A create: AUTOINCREMENT's id, given by the INSERT in the batch's transaction (setup.ts). */
function insert(run: Run, table: TableSql, values: Record<string, unknown>) {
  const fields = Object.keys(values);
  const statement = table.insert(fields);
  return (run(statement, bindings(statement, fields.map((f) => table.bind(f, values[f])))) as Record<string, unknown>[])[0];
}

/** Queued writes finish; then the connections close, the lock last (closing the writer checkpoints the log into the file). */
async function closeAll(writer: Writer, connections: Connection[]): Promise<void> {
  await writer.close();
  for (const db of connections) db.close();
}
