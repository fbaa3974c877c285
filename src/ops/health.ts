import type { Store } from '../store/types';

/** Paths of the health endpoints (openapi.yaml): never rate-limited, so a prober is never refused. */
export const HEALTH_PATHS = ['/health', '/health/live', '/health/ready'] as const;

/** What the process tells the app about its life: server.ts sets `draining` on SIGTERM/SIGINT; /health/ready reads it. */
export interface Lifecycle {
  draining: boolean;
}

/** Thrown by pingWithin when storage did not answer in time. */
class PingTimeoutError extends Error {}

/**
 * Resolves when storage answers `ping` within `timeoutMs`; rejects when it fails or takes longer, so a
 * health check answers in bounded time whatever the storage does.
 */
export function pingWithin(store: Store, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new PingTimeoutError(`storage did not answer within ${timeoutMs} ms`)), timeoutMs);
    store.ping().then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
