import type { OpenApiDocument } from '../spec';
import { IDEMPOTENCY_KEY } from './idempotency';
import type { RequestHandler } from 'express';

/**
 * How a route's errors are written (./errors.ts sendError): the JSON `{"error"}` object, one line of
 * text/plain, or (GraphQL over HTTP's transport answers) the JSON object with a GraphQL `errors` list.
 */
export type ErrorFormat = 'json' | 'text' | 'graphql';

export interface OperationInfo {
  operationId: string;
  method: string;
  /** Media type of the body the spec declares for each status ('' for none). */
  responseMedia: Record<number, string>;
  hasRequestBody: boolean;
  /** The media types the spec declares for the request body (`application/json`; `application/merge-patch+json` for a PATCH). */
  requestMedia: string[];
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
  /** The operation declares `If-Match` / `If-None-Match`: the registrar evaluates them (src/rest/registrar.ts). */
  conditional: boolean;
  /**
   * The spec asks for credentials here with no anonymous alternative (the operation's `security`, else the
   * document's, is a non-empty list without `{}`): the validate phase runs the validator's security step on
   * each of its requests (src/http/validate.ts).
   */
  secured: boolean;
  /**
   * The scopes its bearer requirement names, all needed (`['books:write', 'books:read']`); empty when it names
   * none. Those this instance enforces are checked by src/http/auth.ts when auth is on.
   */
  scopes: readonly string[];
  /** A success answer is a JSON array (a list): its read starts on a turn of the event loop while connections come in (src/http/write-turns.ts). */
  answersList: boolean;
  /** The header parameters it declares optional, lower-case as Node keys `req.headers`: an empty one is absent (routePhase in ./routes.ts). */
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
  /** The handler answers only through the service's writers (OwnRoute). */
  writesThroughService?: boolean;
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
  /** The spec declares an HTTP bearer scheme: scripts may send `Authorization` and read `WWW-Authenticate`. */
  bearer: boolean;
}

/** A route of the service's own, outside openapi.yaml, given to the table by its owner (app.ts). */
export interface OwnRoute {
  /** A fixed path, or a prefix ending in `/` that covers every path below it. */
  path: string;
  methods: string[];
  errorFormat?: ErrorFormat;
  label: string;
  handler: RequestHandler;
  /**
   * The handler answers only through the service's writers (src/http/send.ts, ./json-stream.ts), which write the
   * headers every answer carries with its head (./head.ts); other handlers get them set before they run.
   */
  writesThroughService?: boolean;
  /** The setting the path comes from (e.g. METRICS_PATH), named when it collides with another route. */
  setting?: string;
}

/** The HTTP methods, lower-case as OpenAPI path items spell them: the one list of them. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface MediaObject {
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, unknown>;
}

/** The headers openapi.yaml declares (see SpecHeaders). */
export function specHeaders(doc: OpenApiDocument): SpecHeaders {
  return specRoutes(doc).headers;
}

/**
 * The scopes an operation's own `security` asks for: those of its first requirement that names any (OpenAPI: a
 * requirement's scopes are all needed; the others are alternatives, such as anonymous access `{}`). Empty when
 * it names none.
 */
export function securityScopes(op: Record<string, unknown>): string[] {
  const requirements = Array.isArray(op.security) ? (op.security as Record<string, unknown>[]) : [];
  for (const requirement of requirements) {
    for (const scopes of Object.values(requirement)) {
      if (Array.isArray(scopes) && scopes.length > 0) return scopes.filter((scope): scope is string => typeof scope === 'string');
    }
  }
  return [];
}

/** Names, each once whatever its case, in the order first seen. */
function uniqueNames(names: Iterable<string>): string[] {
  const byCase = new Map<string, string>();
  for (const name of names) if (!byCase.has(name.toLowerCase())) byCase.set(name.toLowerCase(), name);
  return [...byCase.values()];
}

/**
 * The spec's paths as routes for the route table (./routes.ts): methods, Allow, error format per family,
 * what each operation declares; and the headers the spec declares anywhere.
 */
export function specRoutes(doc: OpenApiDocument): { routes: Route[]; headers: SpecHeaders } {
  const components = doc.components as Record<string, Record<string, MediaObject>>;
  const deref = <T>(value: T): T => {
    const ref = (value as { $ref?: string })?.$ref;
    if (!ref) return value;
    const [, , section, name] = ref.split('/');
    return deref(components[section][name] as T);
  };
  // Filled as the operations are read (each name once at the end); one object for every route.
  const schemes = Object.values((components.securitySchemes ?? {}) as Record<string, { type?: string; scheme?: string }>);
  const headers = { request: [] as string[], response: [] as string[], bearer: schemes.some((s) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer') };
  const routes = Object.entries(doc.paths).map(([template, item]) => {
    const operations: Record<string, OperationInfo> = {};
    const formats = new Set<ErrorFormat>();
    const sharedParams = ((item.parameters as unknown[]) ?? []).map(deref);
    for (const method of HTTP_METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const responseMedia: Record<number, string> = {};
      const etagStatuses: number[] = [];
      const locationStatuses: number[] = [];
      let answersList = false;
      for (const [status, response] of Object.entries((op.responses as Record<string, unknown>) ?? {})) {
        const declared = deref(response as MediaObject);
        const media = Object.keys(declared.content ?? {})[0] ?? '';
        if (declared.headers?.ETag && media) etagStatuses.push(Number(status));
        if (declared.headers?.Location && status.startsWith('2')) locationStatuses.push(Number(status));
        responseMedia[Number(status)] = media;
        if (status.startsWith('2') && (deref(declared.content?.[media]?.schema) as { type?: string } | undefined)?.type === 'array') answersList = true;
        headers.response.push(...Object.keys(declared.headers ?? {}));
        if (status.startsWith('4') && media) formats.add(media === 'text/plain' ? 'text' : 'json');
      }
      const params = [...sharedParams, ...((op.parameters as unknown[]) ?? []).map(deref)] as {
        name: string;
        in: string;
        required?: boolean;
        schema?: unknown;
      }[];
      headers.request.push(...params.filter((p) => p.in === 'header').map((p) => p.name));
      const security = op.security ?? doc.security;
      operations[method.toUpperCase()] = {
        operationId: String(op.operationId),
        method: method.toUpperCase(),
        responseMedia,
        hasRequestBody: Boolean(op.requestBody),
        requestMedia: Object.keys((deref(op.requestBody as MediaObject) as MediaObject | undefined)?.content ?? {}),
        bodyRequired: (deref(op.requestBody) as { required?: boolean } | undefined)?.required === true,
        integerParams: params
          .filter((p) => p.in === 'path' && (deref(p.schema) as { type?: string })?.type === 'integer')
          .map((p) => p.name),
        idempotencyKey: params.some((p) => p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY_KEY.toLowerCase()),
        etagStatuses,
        locationStatuses,
        conditional: params.some((p) => p.in === 'header' && /^if-(none-)?match$/i.test(p.name)),
        secured: Array.isArray(security) && security.length > 0 && !security.some((requirement) => Object.keys(requirement as object).length === 0),
        scopes: securityScopes(op),
        answersList,
        optionalHeaders: params.filter((p) => p.in === 'header' && p.required !== true).map((p) => p.name.toLowerCase()),
      };
    }
    if (formats.size > 1) throw new Error(`openapi.yaml: ${template} mixes JSON and text error formats`);
    const paramNames = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)');
    return {
      template,
      methods: Object.keys(operations),
      allow: Object.keys(operations).join(', '),
      errorFormat: formats.has('text') ? 'text' : 'json',
      operations,
      label: '',
      paramNames,
      regex: paramNames.length ? new RegExp(`^${pattern}/?$`) : undefined,
      specHeaders: headers,
    } satisfies Route;
  });
  headers.request = uniqueNames(headers.request);
  headers.response = uniqueNames(headers.response);
  return { routes, headers };
}
