import { KeptInOrder } from '../kept-in-order';

/** A fixed-window request counter per client key, holding at most `maxClients` keys. */
export interface RateLimiterOptions {
  /** Requests allowed per key per window. */
  limit: number;
  windowMs: number;
  /** Most keys tracked in one window; beyond it the key seen longest ago is forgotten (its count restarts). */
  maxClients: number;
  now?: () => number;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/**
 * One fixed window shared by every client (it starts with the first request after the previous one
 * ended): when a window ends, every count starts again, so the counts
 * never hold more than the clients seen in one window, and never more than `maxClients`. Past that bound the
 * client seen longest ago is forgotten, never one that keeps sending: a flood of new addresses cannot wipe a busy
 * client's count, and each request costs the same however many were forgotten before it.
 */
export class RateLimiter {
  private readonly counts: KeptInOrder<string, number>;
  private windowStart = -Infinity;
  private readonly now: () => number;

  constructor(private readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.counts = new KeptInOrder(options.maxClients);
  }

  /** Number of client keys currently tracked (bounded by `maxClients`). */
  get size(): number {
    return this.counts.size;
  }

  /** Counts one request for `key` and says whether it may proceed. */
  hit(key: string): RateDecision {
    const now = this.now();
    const { limit, windowMs } = this.options;
    if (now - this.windowStart >= windowMs) {
      this.windowStart = now;
      this.counts.clear();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.keep(key, count);
    if (count <= limit) return { allowed: true, remaining: limit - count };
    const retryAfterSeconds = Math.max(1, Math.ceil((this.windowStart + windowMs - now) / 1000));
    return { allowed: false, retryAfterSeconds };
  }
}
