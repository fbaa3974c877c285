import { isSuccess, type IdempotentOutcome, type IdempotentRequest, type Store, type StoredAnswer } from '../types';

interface Entry {
  fingerprint: string;
  expiresAt: number;
  /** Undefined while the first request with this key is running. */
  answer?: StoredAnswer;
}

/**
 * Idempotency keys for the memory store. The record a request creates and the answer kept under its
 * key are written in consecutive steps of this one process, and both vanish with it: nothing can
 * observe one without the other. A key is claimed before the work runs, so a second request with it
 * meanwhile is told "in progress".
 */
export class MemoryIdempotency {
  /** In insertion order, which is expiry order (one TTL for all): purging stops at the first live key. */
  private readonly keys = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  async run(store: Store, request: IdempotentRequest, work: (store: Store) => Promise<StoredAnswer>): Promise<IdempotentOutcome> {
    this.purge();
    const known = this.keys.get(request.key);
    if (known) {
      if (known.fingerprint !== request.fingerprint) return { outcome: 'mismatch' };
      return known.answer ? { outcome: 'replay', answer: known.answer } : { outcome: 'in-progress' };
    }
    const entry: Entry = { fingerprint: request.fingerprint, expiresAt: this.now() + request.ttlMs };
    this.keys.set(request.key, entry);
    try {
      const answer = await work(store);
      if (isSuccess(answer)) entry.answer = structuredClone(answer);
      else this.keys.delete(request.key);
      return { outcome: 'done', answer };
    } catch (err) {
      this.keys.delete(request.key);
      throw err;
    }
  }

  private purge(): void {
    const now = this.now();
    for (const [key, entry] of this.keys) {
      if (entry.expiresAt > now) break;
      if (entry.answer) this.keys.delete(key);
    }
  }
}
