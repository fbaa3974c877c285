import { createHash } from 'node:crypto';
import type { OpenApiDocument } from '../spec';

/** The request header of draft-ietf-httpapi-idempotency-key-header. */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** Which Idempotency-Key values are keys, and what a refused one is told. */
export interface KeyRule {
  test(key: string): boolean;
  message: string;
}

/**
 * The Idempotency-Key rule exactly as openapi.yaml declares it (`components.parameters.IdempotencyKey`):
 * its length bounds and pattern. REST's validator applies the spec itself; GraphQL's keyed mutations
 * use this, so both styles take the same keys and the rule is written once, in the spec.
 */
export function idempotencyKeyRule(doc: OpenApiDocument): KeyRule {
  const parameters = doc.components.parameters as Record<string, { schema?: { minLength?: number; maxLength?: number; pattern?: string } }> | undefined;
  const schema = parameters?.IdempotencyKey?.schema;
  if (!schema?.pattern || schema.minLength === undefined || schema.maxLength === undefined) {
    throw new Error('openapi.yaml: components.parameters.IdempotencyKey needs a schema with minLength, maxLength and pattern');
  }
  const { minLength, maxLength, pattern } = schema;
  const matches = new RegExp(pattern, 'u');
  return {
    // Lengths count characters (code points), as JSON Schema's do.
    test: (key) => {
      const length = [...key].length;
      return length >= minLength && length <= maxLength && matches.test(key);
    },
    message: `${IDEMPOTENCY_KEY} must be ${minLength} to ${maxLength} characters matching ${pattern}`,
  };
}

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

/** A 503 after the write was sent (its COMMIT, or an update's or delete's one statement) and not answered: the write may be stored. */
export const OUTCOME_UNKNOWN = `Service unavailable: the outcome of this write is unknown; retry with the same ${IDEMPOTENCY_KEY}`;
/** The same for an update or delete (PUT, DELETE): they are idempotent, so repeating one is safe as it is. */
export const OUTCOME_UNKNOWN_REPEATABLE = 'Service unavailable: the outcome of this write is unknown; repeating it is safe';
export const KEY_REUSED = `${IDEMPOTENCY_KEY} was already used for a different request; nothing was created`;
export const KEY_IN_PROGRESS = `A request with this ${IDEMPOTENCY_KEY} is still in progress; retry when it has finished`;

/**
 * The key a store keeps for a request's Idempotency-Key: the key itself, or with auth on the sender's `sub` and
 * the key (a newline, which no key holds, between them), so one principal's key never answers another's request.
 */
export function ownedKey(key: string, principal: { subject: string } | undefined): string {
  return principal ? `${principal.subject}\n${key}` : key;
}
