import { isSuccess, type IdempotentOutcome, type IdempotentRequest, type StoredAnswer } from '../types';
import { ident, type Queryable } from './pool';

/** Expired keys deleted per stored answer: bounded work, and enough to keep up with any create rate. */
const PURGE_BATCH = 100;

/** Thrown to roll back a transaction whose answer is not kept (a non-2xx answer changes nothing). */
class NotKept extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('answer not kept');
  }
}

/**
 * One idempotent request inside an open transaction (`tx`): the key's advisory lock (held by a request
 * with this key that is still running, in any instance: then "in progress"), the key's live answer if
 * there is one, else `work` and its answer kept, committed by the caller together with the work's writes.
 */
export async function pgIdempotent(
  tx: Queryable,
  schema: string,
  request: IdempotentRequest,
  work: () => Promise<StoredAnswer>,
): Promise<IdempotentOutcome> {
  const keys = `${ident(schema)}.idempotency_keys`;
  const [{ locked }] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [
    `idempotency:${schema}:${request.key}`,
  ]);
  if (!locked) return { outcome: 'in-progress' };
  // A statement of its own, after the lock: its snapshot sees what the lock's previous holder committed.
  const [known] = await tx.query<{ fingerprint: string; answer: StoredAnswer }>(
    `SELECT fingerprint, answer FROM ${keys} WHERE key = $1 AND expires_at > clock_timestamp()`,
    [request.key],
  );
  if (known) return known.fingerprint === request.fingerprint ? { outcome: 'replay', answer: known.answer } : { outcome: 'mismatch' };
  const answer = await work();
  if (!isSuccess(answer)) throw new NotKept(answer);
  await tx.query(
    `WITH purged AS (
       DELETE FROM ${keys} WHERE key IN (
         SELECT key FROM ${keys} WHERE expires_at <= clock_timestamp() AND key <> $1 LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED))
     INSERT INTO ${keys} (key, fingerprint, answer, expires_at)
     VALUES ($1, $2, $3::jsonb, clock_timestamp() + $4 * interval '1 millisecond')
     ON CONFLICT (key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, answer = EXCLUDED.answer, expires_at = EXCLUDED.expires_at`,
    [request.key, request.fingerprint, JSON.stringify(answer), request.ttlMs],
  );
  return { outcome: 'done', answer };
}

/** The outcome of a request whose transaction was rolled back on purpose, else rethrows. */
export function notKept(err: unknown): IdempotentOutcome {
  if (err instanceof NotKept) return { outcome: 'done', answer: err.answer };
  throw err;
}
