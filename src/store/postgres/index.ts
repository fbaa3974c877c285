import { sql } from 'kysely';
import { Pool } from 'pg';
import { specModel } from '../model';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from '../query';
import { requestSignal } from '../request-scope';
import { collectionsOf, type Database, type Row, type Run } from '../sql/collection';
import { postgres } from '../sql/dialect';
import { TableSql, type Compiled, type Stats } from '../sql/table';
import { tableOf } from '../tables';
import type { Store, StoreOptions } from '../types';
import { CreateGroups, type Grouping } from './create-groups';
import { notKept, pgIdempotent } from './idempotency';
import { PgInserts } from './insert';
import { createPool, prepared, queryRunner, translate, type Queryable, type Statement } from './pool';
import { WaitQueue, type QueueSettings } from './queue';
import { writeRecord, type RecordWriteRunner } from './record-writes';
import { prepareDatabase } from './setup';
import { inTransaction, type Writes } from './transaction';

export interface PostgresStoreOptions extends StoreOptions {
  /** postgres:// URL; the store owns (and closes) the pool it makes. */
  url?: string;
  /** Or an existing pool, which the store borrows and does not close. */
  pool?: Pool;
  /** Schema holding the tables; default `public`. */
  schema?: string;
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
}

/** The connection pool's occupancy: connections open, of which idle, and requests waiting for one. */
export type PoolStats = ReturnType<NonNullable<Store['poolStats']>>;

/** The PostgreSQL store (setup.ts makes the database ready); several processes may share one database. */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store & { poolStats(): PoolStats }> {
  const { schema = 'public', seed, onQuery, signal = requestSignal, pingTimeoutMs = 1000, queueLimit = 1000, queueTimeoutMs = 10000 } = options;
  if (!options.pool && !options.url) throw new Error('createPostgresStore needs a url or a pool');
  const pool = options.pool ?? createPool(options.url!, options.onPoolError, options.poolSize ? { max: options.poolSize } : {});
  const owned = !options.pool;
  const tables = [...(options.model ?? specModel()).resources.values()].map(tableOf);
  try {
    const { changed } = await prepareDatabase(pool, schema, seed, tables, options.root);
    for (const change of changed) options.onChange?.(change);
  } catch (err) {
    if (owned) await pool.end().catch(() => undefined);
    throw err;
  }
  const queue = new WaitQueue({ size: pool.options.max, limit: queueLimit, timeoutMs: queueTimeoutMs } satisfies QueueSettings);
  // /health has a connection of its own: it never waits behind the requests queued for the pool.
  const health = new Pool({ ...pool.options, max: 1, connectionTimeoutMillis: pingTimeoutMs, allowExitOnIdle: true });
  health.on('error', options.onPoolError ?? (() => undefined));
  const collectionWrites = sql.table(`${schema}.collection_writes`);
  // The version: the data set's id, the server's start (a server restored from a backup starts anew), and the count of
  // writes, which every committed write raises (triggers of migration 3). Snapshots see commits in one order, so two
  // snapshots with the same count see the same writes.
  const stats: Stats = {
    of: (name) => sql`(SELECT sum(records)::bigint AS total, (SELECT value FROM ${sql.table(`${schema}.store_meta`)} WHERE key = 'data_set')
      || '.' || floor(extract(epoch FROM pg_postmaster_start_time()) * 1000000)::bigint::text || '.' || sum(writes)::text AS version
      FROM ${collectionWrites} WHERE name = ${name})`,
  };
  // Each table's statements and inserts, made once per store and shared by every collection on it (the store's, and keyed work's).
  const sqls = tables.map((table) => ({ table: new TableSql(table, postgres, stats, `${schema}.${table.name}`), inserts: new PgInserts<Row & { id: number }>(schema, table) }));
  // A write transaction holds one pooled connection: it waits its turn in the same queue as single statements.
  const transaction: Writes = (work) => queue.run(() => inTransaction(pool, work, { onQuery }), signal());
  // A group of creates serves several requests: no one request's signal takes it out of the queue.
  const grouping: Grouping = { transaction: (work) => queue.run(() => inTransaction(pool, work, { onQuery })), signal, limit: queueLimit };
  const runner = queryRunner(pool, queue, { onQuery, signal });
  // A record write outside a transaction: its write is its own commit, awaited for the time it is given.
  const records: RecordWriteRunner = {
    read: (statement, values) => runner.timedRead<never>(statementOf(statement), values),
    write: (statement, values, deadline, graceMs) => runner.commit<never>(statementOf(statement), values, deadline, graceMs),
  };
  const store: Store & { poolStats(): PoolStats } = {
    kind: 'postgres',
    ...repositories(sqls, runner, records, transaction, grouping, options.queryLimits),
    // The work's repositories run on the transaction that also keeps the key's answer.
    idempotent: (request, work) =>
      transaction((tx) =>
        pgIdempotent(tx, schema, request, () => work({ ...store, ...repositories(sqls, tx, recordsOn(tx), (write) => write(tx), undefined, options.queryLimits) })),
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

/** A statement as a prepared one (named by its text: pool.ts), made once per text; rows as arrays (the core reads them in select order). */
const statements = new Map<string, Statement>();
const preparedOf = (text: string) => {
  let statement = statements.get(text);
  if (!statement) statements.set(text, (statement = prepared(text, 'array')));
  return statement;
};
const statementOf = (compiled: Compiled): Statement => (compiled.prepare ? preparedOf(compiled.sql) : ({ text: compiled.sql, rowMode: 'array' } as Statement));
const on = (db: Queryable): Run => (compiled, parameters) => db.query<never>(statementOf(compiled), parameters);
/**
 * Record writes on a transaction's connection: its statements, within the transaction's limits (transaction.ts). Its
 * deadline began before the record's read, so it comes before the record write's own and governs the write.
 */
const recordsOn = (tx: Queryable): RecordWriteRunner => ({
  read: async (statement, values) => ({ sentAt: Date.now(), rows: await tx.query<never>(statementOf(statement), values) }),
  write: (statement, values) => tx.query<never>(statementOf(statement), values),
});

type Tables = readonly { table: TableSql; inserts: PgInserts<Row & { id: number }> }[];

/**
 * Every collection on `db`: reads are one statement each; a write to one record is read and written on its row's
 * version with a server-side deadline (`records`, record-writes.ts); creates in groups with `grouping`
 * (create-groups.ts), else in `writes` (a transaction with a server-side deadline, transaction.ts). Either way a write
 * that reaches a stalled server after the service answered 503 changes nothing.
 */
function repositories(tables: Tables, db: Queryable, records: RecordWriteRunner, writes: Writes, grouping?: Grouping, limits: QueryLimits = DEFAULT_QUERY_LIMITS) {
  const creates = new Map(tables.map(({ table, inserts }) => [table, grouping ? new CreateGroups(inserts, grouping) : undefined]));
  const database: Database = {
    read: on(db),
    writeRecord: (table, id, write, afterCommit) => writeRecord(records, table, id, write).then((result) => (afterCommit?.(result), result)),
    create: (table, values) => creates.get(table)?.create(values) ?? writes(async (tx) => (await tables.find((t) => t.table === table)!.inserts.insert(tx, [values]))[0]),
    cacheable: () => false,
  };
  return collectionsOf(tables.map((t) => t.table), database, limits);
}
