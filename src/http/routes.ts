import type { Request, RequestHandler } from 'express';
import type { OpenApiDocument } from '../spec';
import { specRoutes } from './spec-routes';

/**
 * How a route's errors are written (./errors.ts sendError): the JSON `{"error"}` object, one line of
 * text/plain, or (GraphQL over HTTP's transport answers) the JSON object with a GraphQL `errors` list.
 */
export type ErrorFormat = 'json' | 'text' | 'graphql';

export { HTTP_METHODS } from './spec-routes';

export interface OperationInfo {
  operationId: string;
  method: string;
  /** Media type of the body the spec declares for each status ('' for none). */
  responseMedia: Record<number, string>;
  hasRequestBody: boolean;
  /** The spec marks the request body `required: true`. */
  bodyRequired: boolean;
  /** Path parameters the spec types as integers: converted to numbers for handlers. */
  integerParams: string[];
  /** The spec declares the Idempotency-Key header: the registrar runs the operation at most once per key. */
  idempotencyKey: boolean;
  /** Statuses whose response declares an `ETag` header: the registrar sends one with their JSON body. */
  etagStatuses: number[];
  /** Success statuses whose response declares a `Location` header: the registrar sends the created record's URL (the request path and its `id`). */
  locationStatuses: number[];
  /** The operation declares `If-Match` / `If-None-Match`: the registrar evaluates them (src/rest/conditional.ts). */
  conditional: boolean;
  /**
   * The spec asks for credentials here (the operation's `security`, else the document's, is a non-empty
   * list): the validator's security step runs on each of its requests (src/http/perf/validator-handoff.ts).
   */
  secured: boolean;
  /** The header parameters it declares optional, lower-case as Node keys `req.headers`: an empty one is absent (./empty-headers.ts). */
  optionalHeaders: string[];
}

export interface Route {
  /** The spec's template (`/books/{id}`), a fixed path (`/graphql`), or a prefix ending in `/` (`/docs/assets/`). */
  template: string;
  /** Upper-case methods the route answers, in its owner's order (the spec's for REST). */
  methods: string[];
  /**
   * The `Allow` header for this path (405 and OPTIONS): `methods`, comma-separated. One convention everywhere:
   * Allow lists exactly the methods the route declares. HEAD is answered wherever GET is, and listed only
   * where the route declares it (the docs and metrics do; the spec's paths and /graphql do not); OPTIONS never.
   */
  allow: string;
  /** The format of every error answered on this path (404 aside: unknown paths have no route, so JSON). */
  errorFormat: ErrorFormat;
  /** A spec route's operations by upper-case method; empty for the service's own routes. */
  operations: Record<string, OperationInfo>;
  /** What the metrics call requests to a route of the service's own (`graphql`, `docs`, `metrics`); '' for the spec's. */
  label: string;
  /** The handler of a route of the service's own (spec operations go through the validator and the registrar). */
  handler?: RequestHandler;
  /** The template's parameter names, in the order of `regex`'s capture groups. */
  paramNames: string[];
  regex?: RegExp;
  /** The headers the spec declares anywhere: one object, shared by every route of the table. */
  specHeaders: SpecHeaders;
}

/**
 * Header names openapi.yaml declares, in its spelling, each once: its header parameters (`request`) and
 * its responses' headers (`response`). What a cross-origin script may send and read (./security.ts).
 */
export interface SpecHeaders {
  request: readonly string[];
  response: readonly string[];
}

/** A route of the service's own, outside openapi.yaml, given to the table by its owner (app.ts). */
export interface OwnRoute {
  /** A fixed path, or a prefix ending in `/` that covers every path below it. */
  path: string;
  methods: string[];
  errorFormat?: ErrorFormat;
  label: string;
  handler: RequestHandler;
  /** The setting the path comes from (e.g. METRICS_PATH), named when it collides with another route. */
  setting?: string;
}

/** A request's route and its path parameters (raw, as in the path), found once per request. */
export interface RouteMatch {
  route: Route;
  /** Capture groups of a templated route, in `route.paramNames` order. */
  params: readonly string[];
  /** The request is a HEAD, which runs as the GET (`req.method` says GET from the edge on). */
  head?: boolean;
}

/** The method whose operation answers `method`: HEAD runs as GET wherever GET is declared. The one place that says so. */
export function operationMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

const NO_PARAMS: readonly string[] = Object.freeze([]);
const MATCH = Symbol('route-match');
type Matched = Request & { [MATCH]?: RouteMatch | null };

/** The match `matchRoute` carried on the request (undefined: no route answers its path). */
export function matchOf(req: Request): RouteMatch | undefined {
  return (req as Matched)[MATCH] ?? undefined;
}

export function routeOf(req: Request): Route | undefined {
  return (req as Matched)[MATCH]?.route;
}

/**
 * The format of refusals about the message rather than the route (HTTP/1.1 framing, the rate limit):
 * the route's, except that GraphQL's transport format is reserved for its own answers, so those are plain JSON.
 */
export function messageFormat(req: Request): ErrorFormat {
  return routeOf(req)?.errorFormat === 'text' ? 'text' : 'json';
}

/** The operation a request is for (HEAD runs as GET), when it is one of the spec's. */
export function operationOf(req: Request): OperationInfo | undefined {
  const route = routeOf(req);
  return route?.operations[operationMethod(req.method)];
}

/**
 * The one route table: every path the service answers, the spec's operations (from openapi.yaml)
 * and the service's own routes (GraphQL, the docs, the spec files, the metrics), built once at start.
 * A request is matched once (`matchRoute`, first in the app); every later layer reads the match from
 * the request, and this module answers OPTIONS, 405 and unknown paths for all of them (`answerRoute`).
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

function ownRoute({ path, methods, errorFormat = 'json', label, handler }: OwnRoute, specHeaders: SpecHeaders): Route {
  return { template: path, methods, allow: methods.join(', '), errorFormat, operations: {}, label, handler, paramNames: [], specHeaders };
}

/**
 * Matches the request against the table once and carries the match on it. First in the app, so the
 * security layer, the protocol checks, the body gate, the registrar, the error handler and the
 * metrics all read the same match.
 */
export function matchRoute(table: RouteTable): RequestHandler {
  return (req, _res, next) => {
    const match = table.match(req.path);
    if (match && req.method === 'HEAD') match.head = true;
    (req as Matched)[MATCH] = match ?? null;
    next();
  };
}
