import { GraphQLError, getNamedType, isListType, isNonNullType, isObjectType, Kind, type GraphQLSchema, type GraphQLType } from 'graphql';
import type { Logger } from '../logger';
import { BUSY_MESSAGE, INTERNAL_ERROR_MESSAGE } from '../http/errors';
import { OUTCOME_UNKNOWN } from '../http/idempotency';
import { OverloadedError, StorageUnavailableError } from '../store/errors';

/** An unexpected error's message: the same words as a REST 500. */
export const MASKED_MESSAGE = INTERNAL_ERROR_MESSAGE;
export const UNAVAILABLE_MESSAGE = 'Service unavailable: storage is unreachable; retry later.';

/** Failures of storage that are expected to pass, with what the client is told: said plainly, still without internals. */
function expectedFailure(error: unknown): { message: string; code: string } | undefined {
  // A create whose COMMIT got no answer may be stored: say so rather than "retry later".
  if (error instanceof StorageUnavailableError) {
    return { message: error.outcomeUnknown ? OUTCOME_UNKNOWN : UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' };
  }
  if (error instanceof OverloadedError) return { message: BUSY_MESSAGE, code: 'SERVER_BUSY' };
  return undefined;
}

/** graphql-js 16's wording of its completion error for a null in a non-null position (execute.js, completeValue). */
const NON_NULL_VIOLATION = /^Cannot return null for non-nullable field ([_A-Za-z][_0-9A-Za-z]*)\.([_A-Za-z][_0-9A-Za-z]*)\.$/;

/** Whether a field's type has a non-null wrapper at any level (`T!`, `[T!]`, `[T!]!`...). */
function holdsNonNull(type: GraphQLType | undefined): boolean {
  for (let t = type; t; t = isListType(t) || isNonNullType(t) ? t.ofType : undefined) {
    if (isNonNullType(t)) return true;
  }
  return false;
}

export interface ErrorMasking {
  /** graphql-http's `formatError`: an unexpected error becomes "Unexpected error." (or the plain storage message); others pass as they are. */
  formatError(error: Readonly<GraphQLError | Error>): GraphQLError | Error;
  /** Logs each unexpected error of a result in full on the request's logger (which adds the request id) (formatError has no request to name). */
  logUnexpected(errors: readonly GraphQLError[] | undefined, log: Logger): void;
}

/**
 * Masking of the errors a resolver (or the store below it) did not mean to send: anything but a
 * GraphQLError. Deliberate errors (GraphQLError with a code, such as BAD_USER_INPUT), validation and
 * request errors pass unchanged; a masked error keeps `path` and `locations` and nothing else.
 */
export function errorMasking(schema: GraphQLSchema): ErrorMasking {
  /**
   * graphql-js's own error for a null in a non-null field is a plain Error (no class or code marks it),
   * like an unexpected failure, but it is the standard message the contract asks clients to see. It is
   * told apart by its wording AND by the schema: the field it names must be the field the error is
   * located at, and that field's type must hold a non-null. A resolver's own error that merely reads
   * alike is masked. (graphql-jit's results never reach here with errors: see execution.ts.)
   */
  const isNonNullViolation = (error: GraphQLError, original: Error): boolean => {
    const named = NON_NULL_VIOLATION.exec(original.message);
    const node = error.nodes?.[0];
    if (!named || node?.kind !== Kind.FIELD || node.name.value !== named[2]) return false;
    const parent = getNamedType(schema.getType(named[1]));
    return isObjectType(parent) && holdsNonNull(parent.getFields()[named[2]]?.type);
  };

  const isUnexpected = (error: Readonly<GraphQLError | Error>): error is GraphQLError & { originalError: Error } => {
    if (!(error instanceof GraphQLError)) return false; // request errors (unparsable body...) are the client's
    const original = error.originalError;
    if (!original || original instanceof GraphQLError) return false;
    return !isNonNullViolation(error, original);
  };

  return {
    formatError(error) {
      if (!isUnexpected(error)) return error as GraphQLError | Error;
      // Storage down or busy is expected to pass: say so (as REST's 503 does), still without internals.
      const expected = expectedFailure(error.originalError);
      return new GraphQLError(expected?.message ?? MASKED_MESSAGE, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        extensions: { code: expected?.code ?? 'INTERNAL_SERVER_ERROR' },
      });
    },
    logUnexpected(errors, log) {
      for (const error of errors ?? []) {
        if (!isUnexpected(error)) continue;
        const level = expectedFailure(error.originalError) ? 'warn' : 'error';
        log[level]({ path: error.path?.join('.'), error: error.originalError }, 'graphql resolver failed');
      }
    },
  };
}
