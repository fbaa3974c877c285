import type { RequestHandler } from 'express';
import { operationOf } from './routes';

/**
 * An empty (or blank) value of an optional header parameter the operation declares in openapi.yaml is
 * that header's absence: the header is removed before anything reads it. Tools that exercise a spec send
 * every optional header they have no example for with an empty value (Dredd sends `If-Match:`), which
 * would otherwise be a 412 (no tag matches an empty list) or, for `Idempotency-Key`, a 400. Go's
 * net/http reads an empty `If-Match` / `If-None-Match` the same way. The names come from the spec
 * (`OperationInfo.optionalHeaders`), so a header parameter the spec gains is covered as it is declared;
 * headers the operation does not declare, and required ones, are left as they came.
 *
 * Place: right after the route match, before the security layer, the validator and the registrar.
 */
export const emptyHeadersAbsent: RequestHandler = (req, _res, next) => {
  const names = operationOf(req)?.optionalHeaders;
  if (names) {
    for (const name of names) {
      const value = req.headers[name];
      if (typeof value === 'string' && value.trim() === '') delete req.headers[name];
    }
  }
  next();
};
