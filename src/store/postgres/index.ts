import { Pool } from 'pg';
import { specFieldOrder, type FieldOrder } from '../fields';
import type { BookRecord, CollectionName, CommentRecord, ItemRecord, NoteRecord, PostRecord, SeedData, Store, TaskRecord, TodoRecord, UserRecord } from '../types';
import { requestSignal } from '../request-scope';
import { PgChildCollection, PgCollection, type Grouping, type Writes } from './collection';
import { notKept, pgIdempotent } from './idempotency';
import { createPool, queryRunner, translate, type Queryable } from './pool';
import { WaitQueue, type QueueSettings } from './queue';
import { prepareDatabase } from './setup';
import { TableStatements } from './statements';
import { orderedTables, type TableDef } from './tables';
import { inTransaction } from './transaction';

export interface PostgresStoreOptions {
  /** postgres:// URL; the store owns (and closes) the pool it makes. */
  url?: string;
  /** Or an existing pool, which the store borrows and does not close. */
  pool?: Pool;
  /** Schema holding the tables; default `public`. */
  schema?: string;
  /** Loaded once, into a data set that was never seeded. */
  seed: SeedData;
  /** Called with the text of every statement a repository method runs (for logging and tests). */
  onQuery?: (text: string) => void;
  /** Errors of idle pooled connections (the server went away). */
  onPoolError?: (err: Error) => void;
  /** Time limit for `ping` (ms), connecting included. */
  pingTimeoutMs?: number;
  /** Connections in the pool the store makes (a borrowed pool keeps its own `max`). Default 10. */
  poolSize?: number;
  /** Requests allowed to wait for a connection, and for how long (ms). Default 1000 and 10000. */
  queueLimit?: number;
  queueTimeoutMs?: number;
  /** The signal of the request being served (a request whose client went away leaves the queue); default: request-scope.ts. */
  signal?: () => AbortSignal | undefined;
  /** The order of each record's fields (default: the specs' order, see fields.ts). */
  order?: FieldOrder;
}

/** The connection pool's occupancy: connections open, of which idle, and requests waiting for one. */
export interface PoolStats {
  size: number;
  idle: number;
  waiting: number;
}

/**
 * The PostgreSQL store: applies migrations and the seed (see setup.ts), then serves every
 * repository from its table. Several processes may share one database.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store & { poolStats(): PoolStats }> {
  const { schema = 'public', seed, onQuery, signal = requestSignal, pingTimeoutMs = 1000, queueLimit = 1000, queueTimeoutMs = 10000 } = options;
  if (!options.pool && !options.url) throw new Error('createPostgresStore needs a url or a pool');
  const pool = options.pool ?? createPool(options.url!, options.onPoolError, options.poolSize ? { max: options.poolSize } : {});
  const owned = !options.pool;
  try {
    await prepareDatabase(pool, schema, seed);
  } catch (err) {
    if (owned) await pool.end().catch(() => undefined);
    throw err;
  }
  const queue = new WaitQueue({ size: pool.options.max, limit: queueLimit, timeoutMs: queueTimeoutMs } satisfies QueueSettings);
  // /health has a connection of its own: it never waits behind the requests queued for the pool.
  const health = new Pool({ ...pool.options, max: 1, connectionTimeoutMillis: pingTimeoutMs, allowExitOnIdle: true });
  health.on('error', options.onPoolError ?? (() => undefined));
  // Columns in the order every answer shows the fields (fields.ts).
  const sql = tableStatements(schema, orderedTables(options.order ?? specFieldOrder()));
  // A write transaction holds one pooled connection: it waits its turn in the same queue as single statements.
  const transaction: Writes = (work) => queue.run(() => inTransaction(pool, work, { onQuery }), signal());
  // A group of creates serves several requests: no one request's signal takes it out of the queue.
  const grouping: Grouping = { transaction: (work) => queue.run(() => inTransaction(pool, work, { onQuery })), signal, limit: queueLimit };
  const store: Store & { poolStats(): PoolStats } = {
    kind: 'postgres',
    ...repositories(sql, queryRunner(pool, queue, { onQuery, signal }), transaction, grouping),
    // The work's repositories run on the transaction that also keeps the key's answer.
    idempotent: (request, work) =>
      transaction((tx) =>
        pgIdempotent(tx, schema, request, () => work({ ...store, ...repositories(sql, tx, (write) => write(tx)) })),
      ).catch(notKept),
    async ping() {
      try {
        await health.query({ text: 'SELECT 1', query_timeout: pingTimeoutMs } as never);
      } catch (err) {
        throw translate(err);
      }
    },
    poolStats: () => ({ size: pool.totalCount, idle: pool.idleCount, waiting: queue.waiting }),
    async close() {
      if (!health.ended) await health.end();
      if (owned && !pool.ended) await pool.end();
    },
  };
  return store;
}

/** Each table's statements, made once per store (statements.ts). */
function tableStatements(schema: string, tables: Record<CollectionName, TableDef>) {
  const of = <T extends { id: number }>(name: CollectionName, parentKey?: string) => new TableStatements<T>(schema, tables[name], parentKey);
  return {
    books: of<BookRecord>('books'),
    todos: of<TodoRecord>('todos'),
    notes: of<NoteRecord>('notes'),
    items: of<ItemRecord>('items'),
    tasks: of<TaskRecord>('tasks'),
    users: of<UserRecord>('users'),
    posts: of<PostRecord>('posts', 'userId'),
    comments: of<CommentRecord>('comments', 'postId'),
  };
}

/** Every collection on `db`; writes run through `writes`, creates in groups with `grouping`. */
function repositories(sql: ReturnType<typeof tableStatements>, db: Queryable, writes: Writes, grouping?: Grouping) {
  return {
    books: new PgCollection(db, sql.books, writes, grouping),
    todos: new PgCollection(db, sql.todos, writes, grouping),
    notes: new PgCollection(db, sql.notes, writes, grouping),
    items: new PgCollection(db, sql.items, writes, grouping),
    tasks: new PgCollection(db, sql.tasks, writes, grouping),
    users: new PgCollection(db, sql.users, writes, grouping),
    posts: new PgChildCollection(db, sql.posts, 'userId', writes, grouping),
    comments: new PgChildCollection(db, sql.comments, 'postId', writes, grouping),
  };
}
