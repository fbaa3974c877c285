import type { Request } from 'express';
import type { OpenApiDocument } from '../spec';
import { ApiError, NOT_ALLOWED_MESSAGE, notFound } from './errors';
import { setWaitingHeaders } from './head';
import type { Phase, RequestState, RouteMatch } from './request-state';
import { sendEmpty } from './send';
import { specRoutes, type ErrorFormat, type OperationInfo, type OwnRoute, type Route, type SpecHeaders } from './spec-routes';

export type { ErrorFormat, OperationInfo, OwnRoute, Route, SpecHeaders };
export { HTTP_METHODS } from './spec-routes';
export type { RouteMatch };

/** The method whose operation answers `method`: HEAD runs as GET wherever GET is declared. The one place that says so. */
export function operationMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

const NO_PARAMS: readonly string[] = Object.freeze([]);

/**
 * The format of refusals about the message rather than the route (HTTP/1.1 framing, the rate limit):
 * the route's, except that GraphQL's transport format is reserved for its own answers, so those are plain JSON.
 */
export function messageFormat(state: RequestState): ErrorFormat {
  return state.match?.route.errorFormat === 'text' ? 'text' : 'json';
}

/**
 * The one route table: every path the service answers, the spec's operations (from openapi.yaml)
 * and the service's own routes (GraphQL, the docs, the spec files, the metrics), built once at start.
 * A request is matched once (the `route` phase, first); every later phase reads the match from the request's
 * state, and this module answers OPTIONS, 405 and unknown paths for all of them (the `dispatch` phase).
 *
 * Whatever the order of the spec's paths, a path is matched as find-my-way matches it: segment by
 * segment, literal text wins over a parameter (`/users/me` over `/users/{id}`), and when the literal
 * branch fails further on, the parameter is tried (`/users/me/posts` falls back to `/users/{id}/posts`).
 * Two of the spec's templates collide only when they have the same shape (`/users/{id}` and
 * `/users/{uid}`): the table refuses to start. The service's own routes come after the spec's and may
 * not take a path the table already answers (a setting such as METRICS_PATH is refused, not shadowing).
 */
export class RouteTable {
  readonly routes: Route[];
  /** Fixed paths (most of them): one map lookup. */
  private readonly exact = new Map<string, Route>();
  /** Templated routes, most specific first (`compareTemplates`): the first whose pattern matches wins. */
  private readonly templated: Route[] = [];
  private readonly prefixes: Route[] = [];

  constructor(doc: OpenApiDocument, own: readonly OwnRoute[] = []) {
    const { routes: spec, headers } = specRoutes(doc);
    const shapes = new Map<string, string>();
    for (const route of spec) {
      const shape = route.template.replace(/\{[^}]+\}/g, '{}');
      const same = shapes.get(shape);
      if (same !== undefined) throw new Error(`openapi.yaml: ${same} and ${route.template} are the same path`);
      shapes.set(shape, route.template);
      if (route.regex) this.templated.push(route);
      else this.exact.set(route.template, route);
    }
    // A stable sort: templates of equal rank keep the spec's order (only literal text around a
    // parameter, such as `{name}.json` beside `v{n}.json`, can leave two of them matching one path).
    this.templated.sort((a, b) => compareTemplates(a.template, b.template));
    const ownRoutes = own.map((route) => ownRoute(route, headers));
    ownRoutes.forEach((route, i) => {
      const setting = own[i].setting;
      const taken = route.template.endsWith('/') ? this.prefixes.some((r) => r.template === route.template) : this.match(route.template);
      if (taken) throw new Error(`${setting ? `${setting} ` : ''}${route.template} is already a path of the service`);
      if (route.template.endsWith('/')) this.prefixes.push(route);
      else this.exact.set(route.template, route);
    });
    this.routes = [...spec, ...ownRoutes];
  }

  /** The route for a concrete request path, if any. A trailing slash is ignored (`/books/` is `/books`). */
  match(path: string): RouteMatch | undefined {
    const exact = this.exact.get(path) ?? (path.length > 1 && path.endsWith('/') ? this.exact.get(path.slice(0, -1)) : undefined);
    if (exact) return { route: exact, params: NO_PARAMS };
    for (const route of this.templated) {
      const found = route.regex!.exec(path);
      if (found) return { route, params: found.slice(1) };
    }
    for (const route of this.prefixes) if (path.startsWith(route.template)) return { route, params: NO_PARAMS };
    return undefined;
  }
}

/** How a segment ranks where two templates could both match: literal text, then text around a parameter, then a bare parameter. */
function segmentRank(segment: string): number {
  if (!segment.includes('{')) return 0;
  return /^\{[^}]+\}$/.test(segment) ? 2 : 1;
}

/**
 * Orders two templates as find-my-way's tree tries them: by their segments' ranks, compared in order
 * (at the first segment where they differ, the better-ranked one first). Templates that differ only in
 * literal text, or in how many segments they have, never match the same path: any consistent order does.
 */
function compareTemplates(a: string, b: string): number {
  const left = a.split('/').map(segmentRank);
  const right = b.split('/').map(segmentRank);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    if (left[i] !== right[i]) return left[i] - right[i];
  }
  return left.length - right.length;
}

function ownRoute({ path, methods, errorFormat = 'json', label, handler, writesThroughService }: OwnRoute, specHeaders: SpecHeaders): Route {
  return { template: path, methods, allow: methods.join(', '), errorFormat, operations: {}, label, handler, writesThroughService, paramNames: [], specHeaders };
}

/** An absolute-form target (RFC 9112 §3.2.2): scheme, optional userinfo, authority, then the rest. */
const ABSOLUTE_FORM = /^https?:\/\/(?:[^/?#@]*@)?([^/?#]*)(.*)$/i;

/**
 * Serves an absolute-form request target (`GET http://host/books/1`, what a client talking to a proxy
 * sends) as its origin form (`/books/1`), with the target's authority as Host (RFC 9112 §3.2.2: it wins
 * over the Host header). Run as the request enters the service, so every phase and the request log see the
 * path. Other targets that are not origin form (`OPTIONS *` aside) are refused by the protect phase.
 */
export function originForm(req: Request): void {
  const url = req.url;
  if (url.charCodeAt(0) === 0x2f) return;
  const found = ABSOLUTE_FORM.exec(url);
  if (!found) return;
  const rest = found[2];
  req.url = req.originalUrl = rest.startsWith('/') ? rest : `/${rest}`;
  req.headers.host = found[1];
}

/**
 * The `route` phase: the request's match in the table and its operation, once, into the request's state;
 * every later phase, the error handler and the metrics read them there.
 *
 * An empty (or blank) value of an optional header parameter the operation declares is that header's absence:
 * it is removed here, before anything reads headers. Tools that exercise a spec send every optional header
 * they have no example for with an empty value (Dredd sends `If-Match:`), which would otherwise be a 412 (no
 * tag matches an empty list) or, for `Idempotency-Key`, a 400; Go's net/http reads an empty `If-Match` the
 * same way. The names come from the spec (`OperationInfo.optionalHeaders`); headers the operation does not
 * declare, and required ones, are left as they came.
 */
export function routePhase(table: RouteTable): Phase {
  return (state, next) => {
    const req = state.req;
    const match = table.match(req.path);
    if (match) {
      if (req.method === 'HEAD') match.head = true;
      state.match = match;
      const operation = match.route.operations[operationMethod(req.method)];
      state.operation = operation;
      if (operation) {
        for (const name of operation.optionalHeaders) {
          const value = req.headers[name];
          if (typeof value === 'string' && value.trim() === '') delete req.headers[name];
        }
      }
    }
    next();
  };
}

/**
 * The `dispatch` phase: what the route table decides for every path, in this one place, before any route's
 * own code runs:
 * - no route: 404 (JSON, the unknown-path format);
 * - OPTIONS: 204 with the route's `Allow` (CORS preflight headers come from the protect phase, before);
 * - HEAD runs as GET wherever GET is declared (Node drops the body and keeps the headers); on a spec
 *   route it becomes GET for the validator and the registrar, which know GET only;
 * - a method the route does not declare: 405 with `Allow`, in the route's error format;
 * - then a route of the service's own goes to its handler (and leaves the phases), and a spec operation on
 *   to the body, the validator and the registrar.
 */
export const dispatchPhase: Phase = (state, next) => {
  const { req, res, match } = state;
  if (!match) return next(notFound(req));
  const route = match.route;
  const method = req.method;
  if (method === 'OPTIONS') return sendEmpty(res, 204, { Allow: route.allow });
  const runsAs = route.methods.includes(method) ? method : operationMethod(method);
  if (!route.methods.includes(runsAs)) return next(new ApiError(405, NOT_ALLOWED_MESSAGE, undefined, { Allow: route.allow }));
  if (route.handler) {
    // One that may answer other than through the service's writers gets the waiting headers set first (./head.ts).
    if (!route.writesThroughService) setWaitingHeaders(state);
    // A handler of the service's own that passes the request on without an error has answered nothing: a 404.
    return route.handler(req, res, (err?: unknown) => next(err ?? notFound(req)));
  }
  // The validator and the registrar know the GET; Node still sends a HEAD answer without its body.
  req.method = runsAs;
  next();
};
