import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '../logger';
import { OUTCOME_UNKNOWN, OUTCOME_UNKNOWN_REPEATABLE } from '../http/idempotency';
import { OverloadedError, StorageUnavailableError } from '../store/errors';
import { TEXT_PATTERN, TEXT_RULE } from '../text-rule';
import type { RouteTable } from './routes';

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
    super(message);
  }
}

const GENERIC: Record<number, string> = {
  400: 'Bad request',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body is too large',
  415: 'Unsupported media type: request bodies must be application/json',
  500: 'Something went wrong',
  503: 'Service unavailable',
};

/** 503 when the service sheds load on purpose (storage is fine, every connection busy): not "unavailable". */
export const BUSY_MESSAGE = 'Server busy, retry later';

interface ValidatorError {
  status: number;
  message?: string;
  path?: string;
  headers?: Record<string, string>;
  errors?: { path?: string; message?: string; errorCode?: string; params?: Record<string, unknown> }[];
}

interface BodyParserError {
  type: string;
  status?: number;
  limit?: number;
  charset?: string;
}

/** A readable location from a validator path such as `/body/title` or `.params.id`. */
function where(path = ''): string {
  const clean = path.replace(/^\.?/, '/').replace(/\./g, '/').replace(/^\/+/, '/');
  return clean === '/' ? '' : clean;
}

function fromValidator(err: ValidatorError, bodyLimit: number): ApiError {
  const status = err.status;
  if (status === 405) return new ApiError(405, GENERIC[405], undefined, err.headers);
  if (status === 404) return new ApiError(404, GENERIC[404]);
  if (status === 413) return new ApiError(413, `Request body is larger than ${bodyLimit} bytes`);
  if (status === 415) return new ApiError(415, GENERIC[415]);
  const details = (err.errors ?? []).map((item) => {
    const path = where(item.path);
    const message = item.message ?? 'is invalid';
    // Name the offending property, e.g. "unknown property 'id'", rather than the generic schema text.
    const extra = item.params?.additionalProperty;
    if (typeof extra === 'string' || /additional properties/.test(message)) {
      const name = typeof extra === 'string' ? extra : path.split('/').pop();
      const parent = typeof extra === 'string' ? path : path.split('/').slice(0, -1).join('/');
      return { path: `${parent}/${name}`, message: `unknown property '${name}' is not allowed` };
    }
    // The validator reports a missing body as a missing property named 'body'; say it plainly.
    if (path === '/body' && /required property 'body'/.test(message)) return { path, message: 'a JSON request body is required' };
    // Text fields carry the text rule's pattern: say what it means rather than echoing the regex.
    if (message === `must match pattern "${TEXT_PATTERN.source}"`) return { path, message: TEXT_RULE };
    return { path, message };
  });
  const first = details[0];
  const summary = first ? `Invalid request: ${first.path.replace(/^\//, '')} ${first.message}` : 'Invalid request';
  return new ApiError(status >= 400 && status < 500 ? status : 400, summary, details.length ? details : undefined);
}

function fromBodyParser(err: BodyParserError, bodyLimit: number): ApiError {
  switch (err.type) {
    case 'entity.too.large':
      return new ApiError(413, `Request body is larger than ${bodyLimit} bytes`);
    case 'entity.parse.failed':
      return new ApiError(400, 'Invalid request: body is not valid JSON');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new ApiError(415, 'Unsupported media type: request bodies must be UTF-8 JSON without content encoding');
    default:
      return new ApiError(400, 'Invalid request: the body could not be read');
  }
}

/** Turns anything thrown into an ApiError; unexpected errors become a bare 500. */
export function toApiError(err: unknown, bodyLimit: number, method = 'GET'): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  // Storage unreachable: 503. The request was not carried out and may be retried, unless the database
  // stopped answering during COMMIT: then the outcome is unknown, and the message says so (a create is
  // retried safely with its Idempotency-Key; an update or delete is idempotent as it is).
  if (err instanceof StorageUnavailableError) {
    const message = !err.outcomeUnknown ? GENERIC[503] : method === 'POST' ? OUTCOME_UNKNOWN : OUTCOME_UNKNOWN_REPEATABLE;
    return { error: new ApiError(503, message, undefined, { 'Retry-After': '1' }), unexpected: false };
  }
  // Load shed: storage is up but this request could not get a connection in time. Also a 503, said plainly.
  if (err instanceof OverloadedError) {
    return { error: new ApiError(503, BUSY_MESSAGE, undefined, { 'Retry-After': '1' }), unexpected: false };
  }
  const candidate = err as Partial<ValidatorError & BodyParserError> | null;
  if (candidate && typeof candidate.type === 'string' && typeof candidate.status === 'number' && candidate.status < 500) {
    return { error: fromBodyParser(candidate as BodyParserError, bodyLimit), unexpected: false };
  }
  if (
    candidate &&
    typeof candidate.status === 'number' &&
    candidate.status >= 400 &&
    candidate.status < 500 &&
    Array.isArray(candidate.errors)
  ) {
    return { error: fromValidator(candidate as ValidatorError, bodyLimit), unexpected: false };
  }
  return { error: new ApiError(500, GENERIC[500]), unexpected: true };
}

/** One line, no control characters (a path or language code may carry %00 or a newline). */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/** Writes an error in the given format: `{"error": ...}` JSON, or a one-line text/plain message. */
export function sendError(res: Response, format: 'json' | 'text', error: ApiError): void {
  if (error.headers) res.set(error.headers);
  res.status(error.status);
  const message = oneLine(error.message);
  if (format === 'text') {
    res.type('text/plain; charset=utf-8').send(message);
  } else {
    res.json(error.details ? { error: message, details: error.details } : { error: message });
  }
}

/** The one error handler, registered last: every failure leaves here in its family's format. */
export function errorHandler(routes: RouteTable, logger: Logger, bodyLimit: number): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { error, unexpected } = toApiError(err, bodyLimit, req.method);
    if (unexpected) {
      (res.locals.log ?? logger).error({ method: req.method, path: req.path, err }, 'unexpected error');
    }
    if (res.headersSent) {
      // A handler that already answered does not answer twice; just make sure the socket ends.
      res.end();
      return;
    }
    const route = routes.match(req.path);
    // 405: `Allow` lists the methods the spec gives for this path, in the route table's order
    // (the same as OPTIONS), whatever order the validator's own header used.
    const answer =
      error.status === 405 && route
        ? new ApiError(405, error.message, error.details, { ...error.headers, Allow: route.allow })
        : error;
    sendError(res, route?.errorFormat ?? 'json', answer);
  };
}

/** Unknown paths: a JSON 404 (or the family's format if the path belongs to one). */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError(404, `Not found: ${req.method} ${req.path}`.slice(0, 200)));
};
