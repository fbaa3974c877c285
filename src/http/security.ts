import type { RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import type { Config } from '../config';
import { ApiError, sendError } from './errors';
import { fixedHeaders, recordFixedHeaders } from './perf/fixed-headers';
import { RateLimiter } from './rate-limit';
import { MOCK_HEADER } from '../mock/rest';
import { loadOpenApi } from '../spec';
import { messageFormat, routeOf, type Route, type SpecHeaders } from './routes';
import { specHeaders } from './spec-routes';

/** Request headers the service reads itself, beyond the spec's header parameters (Prefer: by mocked operations, src/mock/rest.ts). */
const SERVICE_REQUEST_HEADERS = ['Content-Type', 'Accept', 'X-Request-Id', 'Prefer'];
/** Response headers the service writes itself, beyond the spec's response headers. */
const SERVICE_RESPONSE_HEADERS = ['X-Request-Id', MOCK_HEADER];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Request headers a cross-origin script may send (beyond the CORS-safelisted ones): the service's own and the spec's. */
function allowedHeaders(spec: SpecHeaders): string {
  return joinNames([...SERVICE_REQUEST_HEADERS, ...spec.request]);
}

/** Response headers a cross-origin script may read: the service's own and every one the spec declares. */
function exposedHeaders(spec: SpecHeaders): string {
  return joinNames([...SERVICE_RESPONSE_HEADERS, ...spec.response]);
}

/** Header names, each once whatever its case, comma-separated. */
function joinNames(names: string[]): string {
  return names.filter((name, i) => names.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === i).join(', ');
}

/** What an unknown path (no route, so no spec) allows and exposes: the service's own headers only. */
const NO_SPEC: SpecHeaders = { request: [], response: [] };

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
function apiSecurityHeaders(): RequestHandler {
  return fixedHeaders(recordFixedHeaders(apiHelmet()));
}

/** The CORS options every answer shares (`origin`: `*`, or reflected when on the allow-list). */
function corsBase(origins: Config['corsOrigins'], exposed: string) {
  return { preflightContinue: true, exposedHeaders: exposed, origin: origins === '*' ? '*' : true };
}

/**
 * `cors` as configured for answers other than preflights: the source of truth for their CORS headers.
 * `exposed` defaults to what a path of openapi.yaml exposes (the file is read then: callers that know the spec pass it).
 */
export function apiCors(origins: Config['corsOrigins'], exposed = exposedHeaders(specHeaders(loadOpenApi()))): RequestHandler {
  return cors(corsBase(origins, exposed));
}

/**
 * CORS (the `cors` package) with an allow-list (`*` allows any origin, the default for local use).
 * Answers from an allowed origin get `Access-Control-Allow-Origin` (with `*`, every answer does, a plain
 * OPTIONS too) and `Access-Control-Expose-Headers`; preflights also get the methods the route table says
 * the path answers (its own, HEAD where GET is, OPTIONS) and the headers a script may send, then go on to
 * the table's OPTIONS answer (204 + Allow); an unknown path's preflight is its 404, without the preflight
 * headers. A disallowed origin gets no CORS headers, so the browser keeps the response from the script.
 * The header lists come from openapi.yaml through the route table (`Route.specHeaders`): a header the
 * spec gains is allowed and exposed as it is declared.
 */
function corsLayer(origins: Config['corsOrigins']): RequestHandler {
  const anyOrigin = origins === '*';
  const allowList = new Set(anyOrigin ? [] : origins);
  // Simple answers' CORS per header list (the spec's, shared by every route, and NO_SPEC for unknown
  // paths). With any origin allowed, their headers are the same for every request: recorded once.
  const simples = new WeakMap<SpecHeaders, RequestHandler>();
  const simpleFor = (spec: SpecHeaders): RequestHandler => {
    let handler = simples.get(spec);
    if (!handler) {
      handler = apiCors(origins, exposedHeaders(spec));
      if (anyOrigin) handler = fixedHeaders(recordFixedHeaders(handler));
      simples.set(spec, handler);
    }
    return handler;
  };
  // Preflight options per route (built on first use; routes are a fixed set), and one for unknown paths.
  const preflights = new WeakMap<Route, RequestHandler>();
  const unknownPath = cors({ ...corsBase(origins, exposedHeaders(NO_SPEC)), methods: '', allowedHeaders: '' });
  const preflightFor = (route: Route | undefined): RequestHandler => {
    if (!route) return unknownPath;
    let handler = preflights.get(route);
    if (!handler) {
      const methods = [...new Set([...route.methods, ...(route.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])];
      handler = cors({
        ...corsBase(origins, exposedHeaders(route.specHeaders)),
        methods: methods.join(', '),
        allowedHeaders: allowedHeaders(route.specHeaders),
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
    const route = routeOf(req);
    (req.method === 'OPTIONS' ? preflightFor(route) : simpleFor(route?.specHeaders ?? NO_SPEC))(req, res, next);
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
