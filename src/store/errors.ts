/**
 * Storage could not be reached (database down, connection refused or lost, timed out). The REST error handler answers
 * 503 for it; the request may be retried later. A write that failed with this error is never reported as done: either
 * it is known not to have happened, or `outcomeUnknown` is set (the write was sent and no answer came), and only an
 * Idempotency-Key makes its retry safe.
 */
export class StorageUnavailableError extends Error {
  readonly outcomeUnknown: boolean;

  constructor(message = 'Storage is unreachable', options?: { cause?: unknown; outcomeUnknown?: boolean }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
    this.outcomeUnknown = options?.outcomeUnknown ?? false;
  }
}

/** Storage is reachable but too busy for this request to wait its turn: load shed on purpose, 503 "Server busy, retry later"; nothing changed. */
export class OverloadedError extends Error {
  constructor(message = 'Server busy', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OverloadedError';
  }
}
