import { createHash } from 'node:crypto';

/** The request header of draft-ietf-httpapi-idempotency-key-header. */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** JSON with object keys sorted at every level: equal values give equal text, whatever the key order or spacing. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a request asks for, as one digest: its method, path and body (canonical JSON). Same request, same fingerprint. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body)}`).digest('base64url');
}

/** A 503 after COMMIT was sent and not answered: the write may be stored. */
export const OUTCOME_UNKNOWN = `Service unavailable: the outcome of this write is unknown; retry with the same ${IDEMPOTENCY_KEY}`;
/** The same for an update or delete (PUT, DELETE): they are idempotent, so repeating one is safe as it is. */
export const OUTCOME_UNKNOWN_REPEATABLE = 'Service unavailable: the outcome of this write is unknown; repeating it is safe';
export const KEY_REUSED = `${IDEMPOTENCY_KEY} was already used for a different request; nothing was created`;
export const KEY_IN_PROGRESS = `A request with this ${IDEMPOTENCY_KEY} is still in progress; retry when it has finished`;
