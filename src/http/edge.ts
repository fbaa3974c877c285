import contentType from 'content-type';
import type { Request, RequestHandler } from 'express';
import { ApiError } from '../rest/errors';
import { readTextBody, type BodyLimits } from './body';
import type { RouteTable } from '../rest/routes';

/**
 * HEAD and OPTIONS, before the validator (which knows neither):
 * - HEAD on a path with GET runs the GET; Node drops the body and keeps the headers.
 * - OPTIONS on a known path answers 204 with `Allow`; CORS preflight headers are added by the CORS layer.
 */
export function headAndOptions(routes: RouteTable): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'HEAD' && req.method !== 'OPTIONS') return next();
    const route = routes.match(req.path);
    if (!route) return next();
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', route.allow);
      res.status(204).end();
      return;
    }
    if (route.methods.includes('GET')) req.method = 'GET';
    next();
  };
}

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
export function jsonBody(routes: RouteTable, limits: BodyLimits): RequestHandler {
  return (req, res, next) => {
    const op = routes.match(req.path)?.operations[req.method];
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
    let media: string | undefined;
    try {
      media = contentType.parse(req).type;
    } catch {
      media = undefined;
    }
    if (media !== 'application/json') {
      return next(new ApiError(415, 'Unsupported media type: request bodies must be application/json'));
    }
    readTextBody(req, res, limits).then((text) => {
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
