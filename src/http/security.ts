import type { RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import type { Config } from '../config';
import { ApiError, sendError } from './errors';
import { fixedHeaders, recordFixedHeaders } from './perf/fixed-headers';
import { RateLimiter } from './rate-limit';
import { messageFormat, routeOf, type Route } from './routes';

/** Response headers a cross-origin script may read. */
const EXPOSED_HEADERS = 'Location, Link, X-Total-Count, X-Request-Id, Retry-After, ETag';
/** Request headers a cross-origin script may send (beyond the CORS-safelisted ones). */
const ALLOWED_HEADERS = 'Content-Type, Accept, X-Request-Id, If-Match, If-None-Match';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Helmet, configured for an API: the source of truth for the header values. */
export function apiHelmet(): RequestHandler {
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
 * Strict headers for every response: nothing on an API answer may load or run anything
 * (`default-src 'none'`), be framed, or be sniffed as another type. The UI pages (/docs, GraphiQL)
 * replace the CSP with their own same-origin policy (src/docs/headers.ts). Helmet's headers are fixed,
 * so they are computed once at start-up and set from that list on each response.
 */
export function apiSecurityHeaders(): RequestHandler {
  return fixedHeaders(recordFixedHeaders(apiHelmet()));
}

/** The CORS options every answer shares (`origin`: `*`, or reflected when on the allow-list). */
function corsBase(origins: Config['corsOrigins']) {
  return { preflightContinue: true, exposedHeaders: EXPOSED_HEADERS, origin: origins === '*' ? '*' : true };
}

/** `cors` as configured for answers other than preflights: the source of truth for their CORS headers. */
export function apiCors(origins: Config['corsOrigins']): RequestHandler {
  return cors(corsBase(origins));
}

/**
 * CORS (the `cors` package) with an allow-list (`*` allows any origin, the default for local use).
 * Answers from an allowed origin get `Access-Control-Allow-Origin` (with `*`, every answer does, a plain
 * OPTIONS too); preflights also get the methods the route table says the path answers (its own, HEAD
 * where GET is, OPTIONS), then go on to the table's OPTIONS answer (204 + Allow); an unknown path's
 * preflight is its 404, without the preflight headers. A disallowed origin gets no CORS headers, so the
 * browser keeps the response from the script.
 */
export function corsLayer(origins: Config['corsOrigins']): RequestHandler {
  const anyOrigin = origins === '*';
  const allowList = new Set(anyOrigin ? [] : origins);
  const base = corsBase(origins);
  // With any origin allowed, a simple answer's CORS headers are the same for every request: recorded once.
  const simple = anyOrigin ? fixedHeaders(recordFixedHeaders(apiCors(origins))) : apiCors(origins);
  // Preflight options per route (built on first use; routes are a fixed set), and one for unknown paths.
  const preflights = new WeakMap<Route, RequestHandler>();
  const unknownPath = cors({ ...base, methods: '', allowedHeaders: '' });
  const preflightFor = (route: Route | undefined): RequestHandler => {
    if (!route) return unknownPath;
    let handler = preflights.get(route);
    if (!handler) {
      const methods = [...new Set([...route.methods, ...(route.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])];
      handler = cors({
        ...base,
        methods: methods.join(', '),
        allowedHeaders: ALLOWED_HEADERS,
        maxAge: PREFLIGHT_MAX_AGE_SECONDS,
      });
      preflights.set(route, handler);
    }
    return handler;
  };
  return (req, res, next) => {
    if (!anyOrigin) {
      res.vary('Origin');
      const origin = req.headers.origin;
      if (typeof origin !== 'string' || !allowList.has(origin.toLowerCase())) return next();
    }
    (req.method === 'OPTIONS' ? preflightFor(routeOf(req)) : simple)(req, res, next);
  };
}

/**
 * Request-rate limiting per client IP (the socket's address: no forwarded header is trusted), off
 * when `config.rateLimit` is 0. Over the limit: 429 with `Retry-After`, in the path's error format.
 * Routes whose template is in `unlimited` (health checks, metrics) are never counted nor refused.
 */
export function rateLimit(config: Config, unlimited: ReadonlySet<string> = new Set()): RequestHandler | undefined {
  if (config.rateLimit <= 0) return undefined;
  const limiter = new RateLimiter({
    limit: config.rateLimit,
    windowMs: config.rateLimitWindowMs,
    maxClients: config.rateLimitMaxClients,
  });
  const windowSeconds = Math.round(config.rateLimitWindowMs / 100) / 10;
  return (req, res, next) => {
    const route = routeOf(req);
    if (route && unlimited.has(route.template)) return next();
    const decision = limiter.hit(req.socket.remoteAddress ?? 'unknown');
    if (decision.allowed) return next();
    const seconds = String(decision.retryAfterSeconds);
    const message = `Too many requests: at most ${config.rateLimit} per ${windowSeconds} s; retry after ${seconds} s`;
    sendError(res, messageFormat(req), new ApiError(429, message, undefined, { 'Retry-After': seconds }));
  };
}

/** Everything this module adds, in order: headers first (so every answer has them), CORS, the rate limit. */
export function security(config: Config, unlimited?: ReadonlySet<string>): RequestHandler[] {
  const limit = rateLimit(config, unlimited);
  return [apiSecurityHeaders(), corsLayer(config.corsOrigins), ...(limit ? [limit] : [])];
}
