import type { Request, RequestHandler } from 'express';
import { jsonMediaType, readTextBody, type BodyLimits } from './body';
import { ApiError, NOT_ALLOWED_MESSAGE, notFound } from './errors';
import { matchOf, operationMethod, operationOf } from './routes';

/**
 * What the route table decides for every path, in this one place, before any route's own code runs:
 * - no route: 404 (JSON, the unknown-path format);
 * - OPTIONS: 204 with the route's `Allow` (CORS preflight headers come from the security layer, before);
 * - HEAD runs as GET wherever GET is declared (Node drops the body and keeps the headers); on a spec
 *   route it becomes GET for the validator and the registrar, which know GET only;
 * - a method the route does not declare: 405 with `Allow`, in the route's error format;
 * - then a route of the service's own goes to its handler, and a spec operation on to the body gate,
 *   the validator and the registrar.
 */
export const answerRoute: RequestHandler = (req, res, next) => {
  const match = matchOf(req);
  if (!match) return next(notFound(req));
  const route = match.route;
  const method = req.method;
  if (method === 'OPTIONS') {
    res.setHeader('Allow', route.allow);
    res.status(204).end();
    return;
  }
  const runsAs = route.methods.includes(method) ? method : operationMethod(method);
  if (!route.methods.includes(runsAs)) return next(new ApiError(405, NOT_ALLOWED_MESSAGE, undefined, { Allow: route.allow }));
  if (route.handler) return route.handler(req, res, next);
  // The validator and the registrar know the GET; Node still sends a HEAD answer without its body.
  req.method = runsAs;
  next();
};

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Request bodies, for operations that take one: JSON only (415 otherwise), at most `bodyLimit` bytes
 * (413, refused from Content-Length before reading, or as soon as a chunked body passes the limit),
 * valid JSON (400). The Content-Type header is then normalised to `application/json` (and dropped
 * for operations without a body), so the validator's caches, keyed by the full Content-Type value,
 * cannot be grown by varying it.
 */
export function jsonBody(limits: BodyLimits): RequestHandler {
  return (req, res, next) => {
    const op = operationOf(req);
    if (!op) return next();
    if (!op.hasRequestBody) {
      // The validator caches per Content-Type value: an operation without a body has no use for one.
      delete req.headers['content-type'];
      return next();
    }
    // No body at all. The validator only notices when the schema has required properties
    // (TaskUpdate has none), so a required body is enforced here, from the spec's `required`.
    const noBody = () => {
      if (op.bodyRequired) {
        const message = 'a JSON request body is required';
        return next(new ApiError(400, `Invalid request: ${message}`, [{ path: '/body', message }]));
      }
      req.headers['content-type'] = 'application/json';
      next();
    };
    if (!hasBody(req)) return noBody();
    const media = jsonMediaType(req);
    if (!media) return next(new ApiError(415, 'Unsupported media type: request bodies must be application/json'));
    readTextBody(req, res, limits, media).then((text) => {
      if (text === '') return noBody();
      try {
        req.body = JSON.parse(text);
      } catch {
        return next(new ApiError(400, 'Invalid request: body is not valid JSON'));
      }
      req.headers['content-type'] = 'application/json';
      next();
    }, next);
  };
}
