import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { StorageUnavailableError } from '../errors';
import { onClient, POOL_SETTINGS, serverAnswered, textOf, translate, type Queryable, type Statement } from './pool';

/** Runs a write's statements: on its own transaction, or on one already open. */
export type Writes = <R>(work: (db: Queryable) => Promise<R>) => Promise<R>;

/** Time a write transaction has, from asking for a connection to COMMIT: the service's usual answer time. */
export const WRITE_BUDGET_MS = POOL_SETTINGS.query_timeout;

/**
 * How long past its budget a COMMIT's answer (or a record write's, record-writes.ts) is awaited: the server refuses late
 * ones (COMMIT_IF_IN_TIME; the write's deadline), so most "no answer" cases become known.
 */
export const COMMIT_GRACE_MS = 2000;

/** Starts the transaction with its deadline on the server's clock (its own time plus the budget left): no two clocks compared. */
const begin = (budgetMs: number) =>
  `BEGIN; SELECT set_config('app.write_deadline', (extract(epoch FROM clock_timestamp()) * 1000 + ${Math.max(1, Math.floor(budgetMs))})::text, true)`;

/**
 * COMMIT, unless the server reaches it after the deadline: a statement sent to a stalled (frozen)
 * server runs when the server resumes, long after the service answered 503; then the check raises,
 * the rest of this one message (the COMMIT) is skipped and the transaction is rolled back.
 */
export const COMMIT_IF_IN_TIME = `DO $$ BEGIN
  IF extract(epoch FROM clock_timestamp()) * 1000 > current_setting('app.write_deadline')::numeric THEN
    RAISE EXCEPTION 'write deadline passed: rolled back' USING ERRCODE = 'query_canceled';
  END IF;
END $$; COMMIT`;

/**
 * Runs `work` as one transaction on one connection within `budgetMs`, each statement with the time left as its limit. A
 * failure before COMMIT wrote nothing: the connection is rolled back and reused when every statement was answered, else
 * destroyed (a stalled server never seeing COMMIT rolls back). COMMIT unanswered is the one unknown outcome (`outcomeUnknown`).
 */
export async function inTransaction<R>(
  pool: Pool,
  work: (db: Queryable) => Promise<R>,
  { budgetMs = WRITE_BUDGET_MS, onQuery = () => undefined }: { budgetMs?: number; onQuery?: (text: string) => void } = {},
): Promise<R> {
  const deadline = Date.now() + budgetMs;
  let committing = false;
  /** False once a statement went unanswered (or was never sent for lack of time): the connection's state is unknown. */
  let answered = true;
  const run = async <T extends QueryResultRow>(client: PoolClient, statement: string | Statement, values: unknown[] | undefined, timeoutMs: number): Promise<T[]> => {
    if (timeoutMs < 1) {
      answered = false;
      throw new StorageUnavailableError('Write deadline passed before the statement was sent');
    }
    onQuery(textOf(statement));
    const config = typeof statement === 'string' ? { text: statement } : statement;
    try {
      const result = await client.query<T>({ ...config, values, query_timeout: timeoutMs } as never);
      return (result as unknown as { rows: T[] }).rows;
    } catch (err) {
      if (!serverAnswered(err)) answered = false;
      throw err;
    }
  };
  try {
    return await onClient(
      pool,
      async (client) => {
        await run(client, begin(deadline - Date.now()), undefined, deadline - Date.now());
        const result = await work({ query: (statement, values) => run(client, statement, values, deadline - Date.now()) });
        committing = true;
        await run(client, COMMIT_IF_IN_TIME, undefined, deadline - Date.now() + COMMIT_GRACE_MS);
        return result;
      },
      (client) => answered && rolledBack(client),
    );
  } catch (err) {
    const translated = translate(err);
    if (committing && !serverAnswered(err) && translated instanceof StorageUnavailableError) {
      throw new StorageUnavailableError('COMMIT sent, no answer: the write may or may not be stored', { cause: err, outcomeUnknown: true });
    }
    throw translated;
  }
}

/** A failed transaction's connection, rolled back for reuse: false when ROLLBACK is not answered in time (it is destroyed). */
async function rolledBack(client: PoolClient): Promise<boolean> {
  try {
    await client.query({ text: 'ROLLBACK', query_timeout: COMMIT_GRACE_MS } as never);
    return true;
  } catch {
    return false;
  }
}
