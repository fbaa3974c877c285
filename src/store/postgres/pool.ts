import { createHash } from 'node:crypto';
import { Pool, types, type PoolClient, type PoolConfig, type QueryResultRow } from 'pg';
import { OverloadedError, StorageUnavailableError } from '../errors';
import type { WaitQueue } from './queue';

/**
 * Pool settings: nothing that touches the database waits long (unreachable: a fast 503). The store's WaitQueue
 * (queue.ts) lets at most `max` statements at the pool at once, so the pool never queues.
 */
export const POOL_SETTINGS = {
  max: 10,
  /** Opening a new connection gives up after this (the database is unreachable). */
  connectionTimeoutMillis: 2000,
  idleTimeoutMillis: 30000,
  /** Server-side limit for one statement. */
  statement_timeout: 5000,
  /** Client-side limit for one answer: covers a server that stopped answering. */
  query_timeout: 7000,
  idle_in_transaction_session_timeout: 10000,
  keepAlive: true,
  application_name: 'contract-first-sample-api',
} satisfies PoolConfig;

const INT8_OID = 20;

/** Ids and counts are bigint in the database and safe integers in the service (ids are bounded by the spec). */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

/** A pool for `url`. Idle-connection errors (the server went away) are reported, never thrown: the next query fails instead. */
export function createPool(
  url: string,
  onIdleError: (err: Error) => void = () => undefined,
  overrides: Partial<typeof POOL_SETTINGS> = {},
): Pool {
  const pool = new Pool({ connectionString: url, ...POOL_SETTINGS, ...overrides, types: TYPES });
  pool.on('error', onIdleError);
  return pool;
}

const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53', '57', '58'];
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOENT']);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error|Connection ended|Client was closed|after calling end on the pool/i;

/**
 * True when an error means "storage unreachable" rather than "the query is wrong": connection
 * failures (SQLSTATE class 08), resource limits (53), shutdowns and timeouts (57), system errors (58),
 * socket errors, and the driver's own connection messages.
 */
export function isUnavailable(err: unknown): boolean {
  // Duck-typed, not `instanceof Error`: socket errors may come from another realm (e.g. under jest).
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
    if (UNAVAILABLE_NODE_CODES.has(code)) return true;
  }
  if (Array.isArray(errors) && errors.some(isUnavailable)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

/**
 * True when an error says the database itself cannot be reached or stopped answering (not merely that
 * one statement ran past `statement_timeout`, SQLSTATE 57014, which a healthy but locked table causes).
 */
export function isDatabaseDown(err: unknown): boolean {
  return isUnavailable(err) && (err as { code?: unknown }).code !== '57014';
}

/** Unreachable-storage errors become StorageUnavailableError (the original kept as `cause`); others pass unchanged. */
export function translate(err: unknown): unknown {
  return isUnavailable(err) ? new StorageUnavailableError('Storage is unreachable', { cause: err }) : err;
}

/** A statement prepared once per connection under `name` (the server keeps its plan), its rows as arrays with `rowMode`. */
export interface Statement {
  readonly name: string;
  readonly text: string;
  readonly rowMode?: 'array';
}

/** `text` as a prepared statement, named by a digest of the text (stores on different schemas may share a pool). */
export function prepared(text: string, rowMode?: 'array'): Statement {
  return { name: `s_${createHash('sha1').update(text).digest('base64url')}`, text, rowMode };
}

/** The text of a statement, for onQuery. */
export const textOf = (statement: string | Statement): string => (typeof statement === 'string' ? statement : statement.text);

export interface Queryable {
  query<R extends QueryResultRow>(statement: string | Statement, values?: unknown[]): Promise<R[]>;
}

export interface RunnerOptions {
  /** Called with the text of every statement (for logging and tests). */
  onQuery?: (text: string) => void;
  /** The signal of the request being served, if any: a request whose client went away leaves the queue. */
  signal?: () => AbortSignal | undefined;
}

/** Single statements on the pool (reads), and writes that are each their own transaction. */
export interface Runner extends Queryable {
  /** A read, and when it was sent (`Date.now()` once its turn came): a record write's budget starts there. */
  timedRead<R extends QueryResultRow>(statement: Statement, values: unknown[]): Promise<{ rows: R[]; sentAt: number }>;
  /**
   * One statement as its own transaction: sent only before `deadline` (`Date.now()` time; its turn in the queue came
   * too late: OverloadedError, nothing sent), its answer awaited until `graceMs` after it. Sent and not answered (a
   * timeout, a cut connection), it may or may not have been applied: a StorageUnavailableError with `outcomeUnknown`.
   */
  commit<R extends QueryResultRow>(statement: Statement, values: unknown[], deadline: number, graceMs: number): Promise<R[]>;
}

/**
 * Runs single statements on the pool, each after its turn in `queue`, errors translated, each reported. When the
 * database is down, the statements still waiting fail at once with the same error.
 */
export function queryRunner(pool: Pool, queue: WaitQueue, { onQuery = () => undefined, signal = () => undefined }: RunnerOptions = {}): Runner {
  /** The error of a statement, translated; when it says the database is down, the statements waiting fail with it. */
  const failed = (err: unknown): unknown => {
    const translated = translate(err);
    if (isDatabaseDown(err)) queue.failWaiting(translated as StorageUnavailableError);
    return translated;
  };
  const query = <R extends QueryResultRow>(statement: string | Statement, values: unknown[] | undefined, sent?: () => void): Promise<R[]> =>
    queue.run(async () => {
      onQuery(textOf(statement));
      sent?.();
      try {
        const result = typeof statement === 'string' ? pool.query<R>(statement, values) : pool.query<R>({ ...statement, values } as never);
        return (await result).rows;
      } catch (err) {
        throw failed(err);
      }
    }, signal());
  return {
    query: (statement, values) => query(statement, values),
    async timedRead<R extends QueryResultRow>(statement: Statement, values: unknown[]) {
      let sentAt = 0;
      const rows = await query<R>(statement, values, () => (sentAt = Date.now()));
      return { rows, sentAt };
    },
    commit: <R extends QueryResultRow>(statement: Statement, values: unknown[], deadline: number, graceMs: number) =>
      queue.run(async () => {
        if (deadline - Date.now() < 1) throw new OverloadedError('Server busy: the write waited for a storage connection past its deadline');
        onQuery(statement.text);
        // Connected first (onClient): a connection that cannot be made sends nothing, so its failure is a known one.
        let sent = false;
        try {
          return await onClient(
            pool,
            async (client) => {
              sent = true;
              return (await client.query<R>({ ...statement, values, query_timeout: deadline - Date.now() + graceMs } as never)).rows;
            },
            (_client, err) => serverAnswered(err),
          );
        } catch (err) {
          const translated = failed(err);
          if (sent && !serverAnswered(err) && translated instanceof StorageUnavailableError) {
            throw new StorageUnavailableError('Write sent, no answer: it may or may not be stored', { cause: err, outcomeUnknown: true });
          }
          throw translated;
        }
      }, signal()),
  };
}

/**
 * `work` on a connection checked out of `pool`, then given back: reused when `work` succeeded, or failed with the
 * connection in a known state (`reusable`, which may still use it, e.g. to roll back), else destroyed. A checked-out
 * connection has no error listener of the pool's: a socket error (the server shutting down, a reset) would be an
 * unhandled 'error' event and end the process, so it is ignored here (the statement waiting for its answer fails
 * anyway). A connection that cannot be made fails before `work` runs: nothing was sent.
 */
export async function onClient<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
  reusable: (client: PoolClient, err: unknown) => boolean | Promise<boolean>,
): Promise<T> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  try {
    const result = await work(client);
    client.off('error', ignore);
    client.release();
    return result;
  } catch (err) {
    // A `reusable` that fails itself (a rollback's own error) leaves the connection's state unknown: destroyed.
    const reuse = await Promise.resolve()
      .then(() => reusable(client, err))
      .catch(() => false);
    if (reuse) {
      client.off('error', ignore);
      client.release();
    } else {
      client.release(err instanceof Error ? err : true);
    }
    throw err;
  }
}

/**
 * The server answered with an error (an SQLSTATE, from a server message, which has a severity): the statement ran and
 * failed, so nothing of it was written. A socket error is not one, even one whose code has five letters (EPIPE).
 */
export const serverAnswered = (err: unknown): boolean => {
  const { code, severity } = (err ?? {}) as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && /^[0-9A-Z]{5}$/.test(String(code ?? ''));
};

/** A double-quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
