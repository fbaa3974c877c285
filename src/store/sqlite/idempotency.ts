import { isSuccess, type IdempotentOutcome, type IdempotentRequest, type Store, type StoredAnswer } from '../types';
import type { Connection } from './driver';
import type { Writer } from './writer';

/** Expired keys deleted per stored answer: bounded work, and enough to keep up with any create rate. */
const PURGE_BATCH = 100;

/**
 * Idempotency keys for the SQLite store, in the file with the records. A keyed request runs as the writer's keyed work:
 * its writes and its key's answer in one savepoint, committed together or not at all. Keys in progress are known in
 * this process, the file's only writer (lock.ts): a second request with one is told "in progress" at once.
 */
export class SqliteIdempotency {
  private readonly running = new Set<string>();
  private readonly find;
  private readonly keep;
  private readonly purge;

  constructor(
    private readonly writer: Writer,
    db: Connection,
    /** The store whose repositories run on the writing connection, inside the keyed work. */
    private readonly inWork: Store,
    private readonly now: () => number = Date.now,
  ) {
    this.find = db.prepare('SELECT fingerprint, answer FROM idempotency_keys WHERE key = ? AND expires_at > ?');
    this.keep = db.prepare(
      `INSERT INTO idempotency_keys (key, fingerprint, answer, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, answer = excluded.answer, expires_at = excluded.expires_at`,
    );
    this.purge = db.prepare(`DELETE FROM idempotency_keys WHERE key IN (SELECT key FROM idempotency_keys WHERE expires_at <= ? AND key <> ? LIMIT ${PURGE_BATCH})`);
  }

  async run(request: IdempotentRequest, work: (store: Store) => Promise<StoredAnswer>): Promise<IdempotentOutcome> {
    if (this.running.has(request.key)) return { outcome: 'in-progress' };
    this.running.add(request.key);
    try {
      return await this.writer.keyed(
        async (): Promise<IdempotentOutcome> => {
          const now = this.now();
          const known = this.find.get(request.key, now) as { fingerprint: string; answer: string } | undefined;
          if (known) return known.fingerprint === request.fingerprint ? { outcome: 'replay', answer: JSON.parse(known.answer) } : { outcome: 'mismatch' };
          const answer = await work(this.inWork);
          if (!isSuccess(answer)) return { outcome: 'done', answer };
          this.purge.run(now, request.key);
          this.keep.run(request.key, request.fingerprint, JSON.stringify(answer), now + request.ttlMs);
          return { outcome: 'done', answer };
        },
        // A non-2xx answer keeps nothing: its writes are rolled back, and the key may be retried.
        (outcome) => outcome.outcome !== 'done' || isSuccess(outcome.answer),
      );
    } finally {
      this.running.delete(request.key);
    }
  }
}
