import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from '../logger';
import { OverloadedError, StorageUnavailableError } from '../store/errors';
import { QueryError } from '../store/query';
import { OUTCOME_UNKNOWN, OUTCOME_UNKNOWN_REPEATABLE } from './idempotency';
import type { ErrorFormat } from './spec-routes';
import { sendJson, sendText, TEXT_TYPE } from './send';
import { isValidatorError, validatorRefusal } from './validator-errors';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An error the service means to answer with: a status, a one-line message, optional details and headers. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    // No stack: an ApiError is an answer, not a defect (an unexpected error is logged as itself, with its own). Where it
    // is made says nothing its status and message do not, and capturing it costs a refusal about a sixth of its CPU (design.md).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/** An answer that breaks openapi.yaml, found by response validation (src/rest/response-check.ts): a defect of the service. */
export class ResponseDrift extends Error {}

/**
 * What a 500 says, in both API styles: REST's `{"error"}` and every answer the edge writes, and the masked
 * message of an unexpected GraphQL error (docs/contract.md). Details go to the log, never to the client.
 */
export const INTERNAL_ERROR_MESSAGE = 'Unexpected error.';
export const NOT_ALLOWED_MESSAGE = 'Method not allowed';

/** 503 when the service sheds load on purpose (storage is fine, every connection busy): not "unavailable". The one wording, REST and GraphQL alike. */
export const BUSY_MESSAGE = 'Server busy, retry later';
const UNAVAILABLE_MESSAGE = 'Service unavailable';

/** The 404 of a path nothing answers, naming the request (cut to 200 characters). */
export function notFound(req: { method: string; path: string }): ApiError {
  return new ApiError(404, `Not found: ${req.method} ${req.path}`.slice(0, 200));
}

/** Turns anything thrown into an ApiError; unexpected errors become a bare 500. `body` is the request's parsed body (a PATCH's is a merge patch). */
function toApiError(err: unknown, method = 'GET', body?: unknown): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  // Storage unreachable: 503. The request was not carried out and may be retried, unless the database
  // stopped answering once the write was sent: then the outcome is unknown, and the message says so (a create is
  // retried safely with its Idempotency-Key; an update or delete is idempotent as it is).
  if (err instanceof StorageUnavailableError) {
    const message = !err.outcomeUnknown ? UNAVAILABLE_MESSAGE : method === 'POST' ? OUTCOME_UNKNOWN : OUTCOME_UNKNOWN_REPEATABLE;
    return { error: new ApiError(503, message, undefined, { 'Retry-After': '1' }), unexpected: false };
  }
  // Load shed: storage is up but this request could not get a connection in time. Also a 503, said plainly.
  if (err instanceof OverloadedError) {
    return { error: new ApiError(503, BUSY_MESSAGE, undefined, { 'Retry-After': '1' }), unexpected: false };
  }
  // A list query the contract does not allow (a cursor of another list, over a limit): 400 naming the parameter.
  if (err instanceof QueryError) {
    return { error: new ApiError(400, `Invalid request: ${err.message}`, [{ path: `/query/${err.parameter}`, message: err.message }]), unexpected: false };
  }
  if (isValidatorError(err)) {
    const { status, message, details } = validatorRefusal(err, method === 'PATCH' ? body : undefined);
    return { error: new ApiError(status, message, details), unexpected: false };
  }
  // An answer that breaks openapi.yaml, caught by response validation (VALIDATE_RESPONSES, on in `npm run dev` and
  // the tests): a defect of the service, logged as one, and the 500 says which operation and field (never a value),
  // so the mistake is seen where it is made.
  if (err instanceof ResponseDrift) return { error: new ApiError(500, `${INTERNAL_ERROR_MESSAGE.replace(/\.$/, '')}: ${err.message}`), unexpected: true };
  return { error: new ApiError(500, INTERNAL_ERROR_MESSAGE), unexpected: true };
}

/** One line, no control characters (a path or language code may carry %00 or a newline). */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/**
 * The JSON body of an error: `{"error": ...}` (with `details` when there are any), or for GraphQL's
 * transport answers the same object with a GraphQL-style `errors` list beside it, so both kinds of client read it.
 */
export function errorBody(format: Exclude<ErrorFormat, 'text'>, message: string, details?: ErrorDetail[]): Record<string, unknown> {
  if (format === 'graphql') return { error: message, errors: [{ message }] };
  return details ? { error: message, details } : { error: message };
}

/**
 * Writes an error in the given format: `{"error": ...}` JSON, a one-line text/plain message, or (GraphQL's
 * transport answers) the same JSON object with a GraphQL-style `errors` list beside it.
 */
export function sendError(res: Response, format: ErrorFormat, error: ApiError): void {
  if (error.headers) res.set(error.headers);
  const message = oneLine(error.message);
  if (format === 'text') sendText(res, error.status, TEXT_TYPE, message);
  else sendJson(res, error.status, errorBody(format, message, error.details));
}

/** The headers that describe a successful answer's representation, set by the registrar before it writes one. */
const ANSWER_HEADERS = ['ETag', 'X-Total-Count', 'Link', 'Location', 'Idempotent-Replayed', 'Content-Type', 'Content-Length'];

/**
 * The service's error handler, added after the service (and after any error handler of yours): every failure
 * leaves here in its route's error format, read from the request's state (JSON before the service has seen it).
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return function serviceErrors(err, req, res, _next) {
    const state = res.locals.state;
    const { error, unexpected } = toApiError(err, req.method, state?.body);
    if (unexpected) {
      (state?.log ?? logger).error({ method: req.method, path: req.path, err }, 'unexpected error');
    }
    if (res.headersSent) {
      // An answer already under way is never answered twice. One cut short (a list whose reading failed
      // after its first bytes) ends its connection: a client must not read half an answer as a whole one.
      if (!res.writableEnded) res.destroy();
      return;
    }
    // The error replaces an answer that may have begun to set its headers (a list whose reading failed before
    // its first bytes): none of them describes the error.
    for (const name of ANSWER_HEADERS) res.removeHeader(name);
    sendError(res, state?.match?.route.errorFormat ?? 'json', error);
  };
}
