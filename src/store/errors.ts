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
