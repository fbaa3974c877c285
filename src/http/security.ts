import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Config } from '../config';
import { ApiError, sendError } from '../rest/errors';
import type { RouteTable } from '../rest/routes';
import { NON_REST_ROUTES } from './non-rest-routes';
import { RateLimiter } from './rate-limit';

/** Response headers a cross-origin script may read. */
const EXPOSED_HEADERS = 'Location, Link, X-Total-Count, X-Request-Id, Retry-After, ETag';
/** Request headers a cross-origin script may send (beyond the CORS-safelisted ones). */
const ALLOWED_HEADERS = 'Content-Type, Accept, X-Request-Id, If-Match, If-None-Match';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** Helmet, configured for an API: the source of truth for the header values. */
function apiHelmet(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  }) as RequestHandler;
}

/**
 * The headers `middleware` sets, found by running it once against a recording response. Only for
 * middleware whose headers do not depend on the request (helmet with fixed options is such).
 */
export function recordFixedHeaders(middleware: RequestHandler): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  middleware({} as never, recorder as never, () => undefined);
  return headers;
}

/**
 * Strict headers for every response: nothing on an API answer may load or run anything
 * (`default-src 'none'`), be framed, or be sniffed as another type. The UI pages (/docs, GraphiQL)
 * replace the CSP with their own same-origin policy (src/docs/headers.ts). Helmet's headers are fixed,
 * so they are computed once at start-up and set from that list on each response.
 */
export function apiSecurityHeaders(): RequestHandler {
  const headers = recordFixedHeaders(apiHelmet());
  if (headers.length === 0) throw new Error('helmet set no headers: the security headers would be missing');
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * CORS with an allow-list (`*` allows any origin, the default for local use). Simple requests from an
 * allowed origin get `Access-Control-Allow-Origin`; preflights also get the methods the path answers
 * and continue to the path's OPTIONS handler (204 + Allow); an unknown path's preflight is its 404.
 * A disallowed origin gets no CORS headers, so the browser keeps the response from the script.
 */
export function cors(origins: Config['corsOrigins'], routes: RouteTable): RequestHandler {
  const anyOrigin = origins === '*';
  const allowList = new Set(anyOrigin ? [] : origins);
  return (req, res, next) => {
    if (!anyOrigin) res.vary('Origin');
    const origin = req.headers.origin;
    // With `*` every answer carries the CORS headers (a plain OPTIONS too, Origin or not); with an
    // allow-list only answers to an allowed Origin do.
    if (!anyOrigin && (typeof origin !== 'string' || !allowList.has(origin.toLowerCase()))) return next();
    res.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : (origin as string));
    if (req.method !== 'OPTIONS') {
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return next();
    }
    // Preflight: the methods this path really answers (the spec's, or the GraphQL/docs routes'),
    // then on to the path's own OPTIONS handler (204 + Allow). Unknown paths go on to their 404.
    const methods = routes.match(req.path)?.methods ?? NON_REST_ROUTES[req.path];
    if (methods) {
      const all = [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])];
      res.setHeader('Access-Control-Allow-Methods', all.join(', '));
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
    }
    next();
  };
}

/**
 * Request-rate limiting per client IP (the socket's address: no forwarded header is trusted), off
 * when `config.rateLimit` is 0. Over the limit: 429 with `Retry-After`, in the path's error format.
 * Paths in `unlimited` (health checks, metrics) are never counted nor refused.
 */
export function rateLimit(config: Config, routes: RouteTable, unlimited: ReadonlySet<string> = new Set()): RequestHandler | undefined {
  if (config.rateLimit <= 0) return undefined;
  const limiter = new RateLimiter({
    limit: config.rateLimit,
    windowMs: config.rateLimitWindowMs,
    maxClients: config.rateLimitMaxClients,
  });
  const windowSeconds = Math.round(config.rateLimitWindowMs / 100) / 10;
  return (req, res, next) => {
    if (unlimited.has(req.path)) return next();
    const decision = limiter.hit(req.socket.remoteAddress ?? 'unknown');
    if (decision.allowed) return next();
    const seconds = String(decision.retryAfterSeconds);
    const message = `Too many requests: at most ${config.rateLimit} per ${windowSeconds} s; retry after ${seconds} s`;
    sendError(res, routes.errorFormat(req.path), new ApiError(429, message, undefined, { 'Retry-After': seconds }));
  };
}

/** Everything this module adds, in order: headers first (so every answer has them), CORS, the rate limit. */
export function security(config: Config, routes: RouteTable, unlimited?: ReadonlySet<string>): RequestHandler[] {
  const limit = rateLimit(config, routes, unlimited);
  return [apiSecurityHeaders(), cors(config.corsOrigins, routes), ...(limit ? [limit] : [])];
}
