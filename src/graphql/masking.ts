import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Logger } from '../logger';
import { OUTCOME_UNKNOWN } from '../http/idempotency';
import { OverloadedError, StorageUnavailableError } from '../store/errors';

export const MASKED_MESSAGE = 'Unexpected error.';
export const UNAVAILABLE_MESSAGE = 'Service unavailable: storage is unreachable; retry later.';
export const BUSY_MESSAGE = 'Server busy: retry later.';

/** Failures of storage that are expected to pass, with what the client is told: said plainly, still without internals. */
function expectedFailure(error: unknown): { message: string; code: string } | undefined {
  // A create whose COMMIT got no answer may be stored: say so rather than "retry later".
  if (error instanceof StorageUnavailableError) {
    return { message: error.outcomeUnknown ? OUTCOME_UNKNOWN : UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' };
  }
  if (error instanceof OverloadedError) return { message: BUSY_MESSAGE, code: 'SERVER_BUSY' };
  return undefined;
}

/**
 * graphql-js's own completion error for a null in a non-null position. It is a plain Error, like an
 * unexpected failure, but it is the standard, intended message the contract asks clients to see.
 */
const NON_NULL_VIOLATION = /^Cannot return null for non-nullable field [_A-Za-z][_0-9A-Za-z]*\.[_A-Za-z][_0-9A-Za-z]*\.$/;

/** An error a resolver (or the store below it) did not mean to send: anything but a GraphQLError. */
function isUnexpected(error: GraphQLError): boolean {
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) return false;
  return !NON_NULL_VIOLATION.test(original.message);
}

/**
 * Replaces unexpected errors in an execution result with "Unexpected error." (keeping `path` and
 * `locations`, dropping the message and everything else) and logs each in full on the request's logger (which adds the request id).
 * Deliberate errors (GraphQLError with a code, such as BAD_USER_INPUT) pass unchanged.
 */
export function maskErrors(result: ExecutionResult, log: Logger): ExecutionResult {
  if (!result.errors?.some(isUnexpected)) return result;
  const errors = result.errors.map((error) => {
    if (!isUnexpected(error)) return error;
    const expected = expectedFailure(error.originalError);
    log[expected ? 'warn' : 'error']({ path: error.path?.join('.'), error: error.originalError }, 'graphql resolver failed');
    // Storage down or busy is expected to pass: say so (as REST's 503 does), still without internals.
    return new GraphQLError(expected?.message ?? MASKED_MESSAGE, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      extensions: { code: expected?.code ?? 'INTERNAL_SERVER_ERROR' },
    });
  });
  return { ...result, errors };
}
