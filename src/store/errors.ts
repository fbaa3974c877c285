/**
 * Storage could not be reached (database down, connection refused or lost, timed out).
 * The REST error handler answers 503 for it; the request may be retried later. A write that failed
 * with this error is never reported as done.
 */
export class StorageUnavailableError extends Error {
  constructor(message = 'Storage is unreachable', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

/**
 * Storage is reachable but every connection is busy and this request could not wait its turn (the
 * wait queue was full, or the wait ran out). Load shed on purpose: the REST error handler answers
 * 503 "Server busy, retry later" with Retry-After; nothing was changed.
 */
export class OverloadedError extends Error {
  constructor(message = 'Server busy', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OverloadedError';
  }
}
