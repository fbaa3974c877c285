import type { Request, RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import type { Config, CorsOrigins } from '../config';
import { closeAfterDiscarding, discardIfClosing, expectBody, type BodyLimits } from './unread-body';
import { authSteps } from './auth';
import { ApiError, sendError } from './errors';
import { addHeaders } from './head';
import { recordFixedHeaders } from './perf/fixed-headers';
import { RateLimiter } from './rate-limit';
import { MOCK_HEADER } from '../mock/rest';
import { loadOpenApi } from '../spec';
import type { Phase } from './request-state';
import { messageFormat } from './routes';
import { specHeaders, type Route, type SpecHeaders } from './spec-routes';

/** Request headers the service reads itself, beyond the spec's header parameters (Prefer: by mocked operations, src/mock/rest.ts). */
const SERVICE_REQUEST_HEADERS = ['Content-Type', 'Accept', 'X-Request-Id', 'Prefer'];
/** Response headers the service writes itself, beyond the spec's response headers. */
const SERVICE_RESPONSE_HEADERS = ['X-Request-Id', MOCK_HEADER];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Request headers a cross-origin script may send (beyond the CORS-safelisted ones): the service's own and the spec's. */
function allowedHeaders(spec: SpecHeaders): string {
  return joinNames([...SERVICE_REQUEST_HEADERS, ...spec.request, ...(spec.bearer ? ['Authorization'] : [])]);
}

/** Response headers a cross-origin script may read: the service's own and every one the spec declares. */
function exposedHeaders(spec: SpecHeaders): string {
  return joinNames([...SERVICE_RESPONSE_HEADERS, ...spec.response, ...(spec.bearer ? ['WWW-Authenticate'] : [])]);
}

/** Header names, each once whatever its case, comma-separated. */
function joinNames(names: string[]): string {
  return names.filter((name, i) => names.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === i).join(', ');
}

/** What an unknown path (no route, so no spec) allows and exposes: the service's own headers only. */
const NO_SPEC: SpecHeaders = { request: [], response: [], bearer: false };

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

/** A step that gives each answer a list of headers recorded once at start-up (./perf/fixed-headers.ts): they wait for its head (./head.ts). */
function setHeaders(headers: readonly [string, string][]): Phase {
  const list = headers.flat();
  return (state, next) => {
    addHeaders(state, list);
    next();
  };
}

/**
 * Strict headers for every response: nothing on an API answer may load or run anything
 * (`default-src 'none'`), be framed, or be sniffed as another type. The UI pages (/docs, GraphiQL)
 * replace the CSP with their own same-origin policy (src/docs/headers.ts). Helmet's headers are fixed,
 * so they are computed once at start-up and set from that list on each response.
 */
function apiSecurityHeaders(): Phase {
  return setHeaders(recordFixedHeaders(apiHelmet()));
}

/** The CORS options every answer shares (`origin`: `*`, or reflected when on the allow-list). */
function corsBase(anyOrigin: boolean, exposed: string) {
  return { preflightContinue: true, exposedHeaders: exposed, origin: anyOrigin ? '*' : true };
}

/**
 * `cors` as configured for answers other than preflights: the source of truth for their CORS headers.
 * `exposed` defaults to what a path of openapi.yaml exposes (the file is read then: callers that know the spec pass it).
 */
export function apiCors(origins: CorsOrigins, exposed = exposedHeaders(specHeaders(loadOpenApi()))): RequestHandler {
  return cors(corsBase(!Array.isArray(origins), exposed));
}

/** The methods that read: what any origin may call by default (CORS_ORIGINS unset). */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CORS (the `cors` package), as CORS_ORIGINS says:
 * - unset (`read-only`, the default): any origin may read (GET and HEAD, and preflights for them) and none may
 *   write: a preflight for another method, and the answer to one, get no CORS headers, so a web page can never
 *   write to the service (every write needs a preflight: a non-safelisted method, or a JSON body);
 * - `*`: any origin may read and write;
 * - an allow-list: those origins may read and write; others get no CORS headers.
 * Answers an origin may read get `Access-Control-Allow-Origin` (`*`, or the origin, with `Vary: Origin`) and
 * `Access-Control-Expose-Headers`; preflights also get the methods the route table says the path answers
 * (its own, HEAD where GET is, OPTIONS; the reads alone by default) and the headers a script may send, then go
 * on to the table's OPTIONS answer (204 + Allow); an unknown path's preflight is its 404, without the
 * preflight headers. A refused one gets no CORS headers, so the browser keeps the response from the script.
 * The header lists come from openapi.yaml through the route table (`Route.specHeaders`): a header the spec
 * gains is allowed and exposed as it is declared.
 */
function corsLayer(origins: CorsOrigins): Phase {
  const readOnly = origins === 'read-only';
  const anyOrigin = !Array.isArray(origins);
  const allowList = new Set(anyOrigin ? [] : origins);
  // Simple answers' CORS per header list (the spec's, shared by every route, and NO_SPEC for unknown
  // paths). With any origin allowed, their headers are the same for every request: recorded once.
  const simples = new WeakMap<SpecHeaders, Phase>();
  const simpleFor = (spec: SpecHeaders): Phase => {
    let step = simples.get(spec);
    if (!step) {
      const handler = apiCors(origins, exposedHeaders(spec));
      step = anyOrigin ? setHeaders(recordFixedHeaders(handler)) : ({ req, res }, next) => handler(req, res, next);
      simples.set(spec, step);
    }
    return step;
  };
  // Preflight options per route (built on first use; routes are a fixed set), and one for unknown paths.
  const preflights = new WeakMap<Route, RequestHandler>();
  const unknownPath = cors({ ...corsBase(anyOrigin, exposedHeaders(NO_SPEC)), methods: '', allowedHeaders: '' });
  const preflightFor = (route: Route | undefined): RequestHandler => {
    if (!route) return unknownPath;
    let handler = preflights.get(route);
    if (!handler) {
      const all = [...new Set([...route.methods, ...(route.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])];
      const methods = readOnly ? all.filter((method) => READS.has(method)) : all;
      handler = cors({
        ...corsBase(anyOrigin, exposedHeaders(route.specHeaders)),
        methods: methods.join(', '),
        allowedHeaders: allowedHeaders(route.specHeaders),
        maxAge: PREFLIGHT_MAX_AGE_SECONDS,
      });
      preflights.set(route, handler);
    }
    return handler;
  };
  return (state, next) => {
    const { req, res } = state;
    if (!anyOrigin) {
      res.vary('Origin');
      const origin = req.headers.origin;
      if (typeof origin !== 'string' || !allowList.has(origin.toLowerCase())) return next();
    }
    const route = state.match?.route;
    if (req.method === 'OPTIONS') {
      // By default, a preflight for a write is refused: no CORS headers.
      const asked = req.headers['access-control-request-method'];
      if (readOnly && typeof asked === 'string' && !READS.has(asked.toUpperCase())) return next();
      return preflightFor(route)(req, res, next);
    }
    if (readOnly && !READS.has(req.method)) return next();
    simpleFor(route?.specHeaders ?? NO_SPEC)(state, next);
  };
}

/**
 * Request-rate limiting per principal (with auth on, a verified token's `sub`), else per client IP (the socket's
 * address: no forwarded header is trusted), off when `config.rateLimit` is 0. Every request counts, those auth
 * refuses too (a bad token has no principal: it counts against its address). Over the limit: 429 with
 * `Retry-After`, in the path's error format. Routes whose template is in `unlimited` (health checks, metrics)
 * are never counted nor refused.
 */
export function rateLimit(config: Config, unlimited: ReadonlySet<string> = new Set()): Phase | undefined {
  if (config.rateLimit <= 0) return undefined;
  const limiter = new RateLimiter({
    limit: config.rateLimit,
    windowMs: config.rateLimitWindowMs,
    maxClients: config.rateLimitMaxClients,
  });
  const windowSeconds = Math.round(config.rateLimitWindowMs / 100) / 10;
  return (state, next) => {
    const route = state.match?.route;
    if (route && unlimited.has(route.template)) return next();
    // Per principal when the request's token was checked (newlines cannot be in an address, so the two never meet).
    const decision = limiter.hit(state.principal ? `sub\n${state.principal.subject}` : (state.req.socket.remoteAddress ?? 'unknown'));
    if (decision.allowed) return next();
    const seconds = String(decision.retryAfterSeconds);
    const message = `Too many requests: at most ${config.rateLimit} per ${windowSeconds} s; retry after ${seconds} s`;
    sendError(state.res, messageFormat(state), new ApiError(429, message, undefined, { 'Retry-After': seconds }));
  };
}

/** A Host value: a host name, IPv4 or bracketed IPv6 literal, and an optional port (RFC 9110 §7.2). */
const HOST_VALUE = /^(?:\[[0-9a-f:.]+\]|[a-z0-9._~!$&'()*+,;=%-]*)(?::\d{0,5})?$/i;

function countHosts(raw: string[]): number {
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  return hosts;
}

/** What makes a request unservable at the HTTP/1.1 message level, if anything (Node's parser lets these through). */
function messageProblem(req: Request): ApiError | undefined {
  const codings = req.headers['transfer-encoding'];
  if (codings !== undefined) {
    // RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 is faulty framing (400); a coding other than chunked is a 501.
    if (req.httpVersion === '1.0') return new ApiError(400, 'Bad request: Transfer-Encoding is not allowed in an HTTP/1.0 request');
    if (codings.toLowerCase() !== 'chunked') {
      return new ApiError(501, `Not implemented: transfer coding "${codings.slice(0, 100)}"; request bodies may only be sent as is or chunked`);
    }
  }
  if (req.url.charCodeAt(0) !== 0x2f && !(req.url === '*' && req.method === 'OPTIONS')) {
    return new ApiError(400, 'Bad request: the request target must be a path or an http(s) URL');
  }
  // RFC 9112 §3.2: an HTTP/1.1 request with no Host, more than one, or an invalid one is a 400.
  const hosts = countHosts(req.rawHeaders);
  if (hosts > 1) return new ApiError(400, 'Bad request: more than one Host header');
  if (hosts === 0 && req.httpVersion !== '1.0') return new ApiError(400, 'Bad request: an HTTP/1.1 request needs a Host header');
  if (hosts === 1 && !HOST_VALUE.test(req.headers.host ?? '')) return new ApiError(400, 'Bad request: invalid Host header');
  return undefined;
}

/**
 * A step of the protect phase. Refuses requests that HTTP/1.1 says a server must not serve, before anything
 * reads their body or answers but the security headers and CORS (the token check and the rate limit come after
 * it, so no refusal of theirs keeps a connection this step would close): a
 * transfer coding other than chunked (501), Transfer-Encoding in HTTP/1.0, a target that is neither a
 * path nor an http(s) URL, a missing, duplicated or invalid Host (400). The answer is in the path's
 * error format; the rest of the body is discarded and the connection closed after it (closeAfterDiscarding),
 * since the message's framing or target cannot be trusted. A request it lets through with a body is registered
 * (expectBody): any later answer given before that body was read closes the same way (./unread-body.ts).
 */
function protocolChecks(limits: BodyLimits): Phase {
  return (state, next) => {
    const { req, res } = state;
    // A pipelined request, parsed while an earlier answer on its connection is unfinished, waits for its
    // turn (Node hands it the socket then): an earlier refusal may close the connection. Requests on a
    // connection that is closing after a refusal are not served, and nothing they ask is stored.
    if (discardIfClosing(req)) return;
    if (!res.socket) {
      res.once('socket', () => discardIfClosing(req) || next());
      return;
    }
    const problem = messageProblem(req);
    if (!problem) {
      // From here, an answer given before the body was read closes the connection after a bounded discard.
      expectBody(req, res, limits);
      return next();
    }
    closeAfterDiscarding(req, res, limits);
    sendError(res, messageFormat(state), problem);
  };
}

/**
 * The `protect` phase (./phases.ts), in one order for every request: headers first (so every answer has them),
 * CORS (so a refusal is readable cross-origin), the HTTP/1.1 message rules (so a message that cannot be framed
 * or targeted is refused, and its connection closed, before anything else answers it), then with auth on the
 * token check (src/http/auth.ts `identify`), the rate limit (per principal, else per address: refusals count
 * too) and the refusal, if any (`refuse`). Routes whose template is in `unlimited` (health checks, metrics) are
 * never rate limited. With auth off no auth step is built.
 */
export function protect(config: Config, unlimited?: ReadonlySet<string>): Phase[] {
  const limit = rateLimit(config, unlimited);
  const steps: Phase[] = [apiSecurityHeaders(), corsLayer(config.corsOrigins), protocolChecks(config)];
  if (!config.auth) return limit ? [...steps, limit] : steps;
  const { identify, refuse } = authSteps(config.auth);
  return [...steps, identify, ...(limit ? [limit] : []), refuse];
}
