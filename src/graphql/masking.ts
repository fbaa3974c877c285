import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Logger } from '../logger';
import { OUTCOME_UNKNOWN } from '../http/idempotency';
import { StorageUnavailableError } from '../store/errors';

export const MASKED_MESSAGE = 'Unexpected error.';
export const UNAVAILABLE_MESSAGE = 'Service unavailable: storage is unreachable; retry later.';

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
 * `locations`, dropping the message and everything else) and logs each in full with the request id.
 * Deliberate errors (GraphQLError with a code, such as BAD_USER_INPUT) pass unchanged.
 */
export function maskErrors(result: ExecutionResult, logger: Logger, requestId: string): ExecutionResult {
  if (!result.errors?.some(isUnexpected)) return result;
  const errors = result.errors.map((error) => {
    if (!isUnexpected(error)) return error;
    const unavailable = error.originalError instanceof StorageUnavailableError;
    // A create whose COMMIT got no answer may be stored: say so rather than "retry later".
    const unknown = unavailable && (error.originalError as StorageUnavailableError).outcomeUnknown;
    logger[unavailable ? 'warn' : 'error']('graphql resolver failed', { requestId, path: error.path?.join('.'), error: error.originalError });
    // Storage down is expected to pass: say so (as REST's 503 does), still without internals.
    return new GraphQLError(unknown ? OUTCOME_UNKNOWN : unavailable ? UNAVAILABLE_MESSAGE : MASKED_MESSAGE, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      extensions: { code: unavailable ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR' },
    });
  });
  return { ...result, errors };
}
