import { Pool } from 'pg';
import { storeOf } from '../collections';
import { specModel, type ContractModel } from '../model';
import { tableOf } from '../tables';
import type { Collection, SeedData, Store } from '../types';
import { requestSignal } from '../request-scope';
import { PgChildCollection, PgCollection } from './collection';
import type { Grouping } from './create-groups';
import { notKept, pgIdempotent } from './idempotency';
import { createPool, queryRunner, translate, type Queryable } from './pool';
import { WaitQueue, type QueueSettings } from './queue';
import { prepareDatabase } from './setup';
import { TableStatements } from './statements';
import { inTransaction, type Writes } from './transaction';

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
  /** The stored resources (default: the contract's, model.ts). */
  model?: ContractModel;
  /** The project folder whose `migrations/postgres/` holds hand-written migrations (default: this project, follow.ts). */
  root?: string;
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
  const tables = [...(options.model ?? specModel()).resources.values()].map(tableOf);
  try {
    await prepareDatabase(pool, schema, seed, tables, options.root);
  } catch (err) {
    if (owned) await pool.end().catch(() => undefined);
    throw err;
  }
  const queue = new WaitQueue({ size: pool.options.max, limit: queueLimit, timeoutMs: queueTimeoutMs } satisfies QueueSettings);
  // /health has a connection of its own: it never waits behind the requests queued for the pool.
  const health = new Pool({ ...pool.options, max: 1, connectionTimeoutMillis: pingTimeoutMs, allowExitOnIdle: true });
  health.on('error', options.onPoolError ?? (() => undefined));
  // Each table's statements, made once per store and shared by every collection on it (statements.ts).
  const sql = tables.map((table) => new TableStatements<never>(schema, table, table.resource.parentKey));
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

/** Every collection on `db`; writes run through `writes`, creates in groups with `grouping`. */
function repositories(sql: readonly TableStatements<never>[], db: Queryable, writes: Writes, grouping?: Grouping) {
  return storeOf(
    new Map<string, Collection<never>>(
      sql.map((statements) => {
        const { parentKey } = statements.def.resource;
        const collection = parentKey
          ? new PgChildCollection(db, statements, parentKey as never, writes, grouping)
          : new PgCollection(db, statements, writes, grouping);
        return [statements.def.name, collection];
      }),
    ),
  );
}
