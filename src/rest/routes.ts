import { IDEMPOTENCY_KEY } from '../http/idempotency';
import type { OpenApiDocument } from '../spec';

export type ErrorFormat = 'json' | 'text';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface MediaObject {
  content?: Record<string, unknown>;
  headers?: Record<string, unknown>;
}

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
  /** The operation declares `If-Match` / `If-None-Match`: the registrar evaluates them (src/rest/conditional.ts). */
  conditional: boolean;
}

export interface Route {
  /** The spec's template, e.g. /books/{id}. */
  template: string;
  /** The same path in Express syntax, e.g. /books/:id. */
  expressPath: string;
  regex: RegExp;
  /** The template's parameter names, in the order of `regex`'s capture groups. */
  paramNames: string[];
  /** Upper-case methods in the spec's order. */
  methods: string[];
  /** The `Allow` header for this path (405 and OPTIONS): `methods`, comma-separated. */
  allow: string;
  operations: Record<string, OperationInfo>;
  /** The family's error format, from the media type of the 4xx responses the spec declares. */
  errorFormat: ErrorFormat;
}

/**
 * The route table derived from openapi.yaml: which paths exist, which methods each allows, and which
 * error format each family uses. Everything that needs to know "what does the spec say about this
 * path" asks this table, so no path list is written twice.
 */
export class RouteTable {
  readonly routes: Route[];

  constructor(doc: OpenApiDocument) {
    const components = doc.components as Record<string, Record<string, MediaObject>>;
    const deref = <T>(value: T): T => {
      const ref = (value as { $ref?: string })?.$ref;
      if (!ref) return value;
      const [, , section, name] = ref.split('/');
      return deref(components[section][name] as T);
    };
    this.routes = Object.entries(doc.paths).map(([template, item]) => {
      const operations: Record<string, OperationInfo> = {};
      const formats = new Set<ErrorFormat>();
      const sharedParams = ((item.parameters as unknown[]) ?? []).map(deref);
      for (const method of HTTP_METHODS) {
        const op = item[method] as Record<string, unknown> | undefined;
        if (!op) continue;
        const responseMedia: Record<number, string> = {};
        const etagStatuses: number[] = [];
        for (const [status, response] of Object.entries((op.responses as Record<string, unknown>) ?? {})) {
          const declared = deref(response as MediaObject);
          const media = Object.keys(declared.content ?? {})[0] ?? '';
          if (declared.headers?.ETag && media) etagStatuses.push(Number(status));
          responseMedia[Number(status)] = media;
          if (status.startsWith('4') && media) formats.add(media === 'text/plain' ? 'text' : 'json');
        }
        const params = [...sharedParams, ...((op.parameters as unknown[]) ?? []).map(deref)] as {
          name: string;
          in: string;
          schema?: unknown;
        }[];
        operations[method.toUpperCase()] = {
          operationId: String(op.operationId),
          method: method.toUpperCase(),
          responseMedia,
          hasRequestBody: Boolean(op.requestBody),
          bodyRequired: (deref(op.requestBody) as { required?: boolean } | undefined)?.required === true,
          integerParams: params
            .filter((p) => p.in === 'path' && (deref(p.schema) as { type?: string })?.type === 'integer')
            .map((p) => p.name),
          idempotencyKey: params.some((p) => p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY_KEY.toLowerCase()),
          etagStatuses,
          conditional: params.some((p) => p.in === 'header' && /^if-(none-)?match$/i.test(p.name)),
        };
      }
      if (formats.size > 1) throw new Error(`openapi.yaml: ${template} mixes JSON and text error formats`);
      const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)');
      return {
        template,
        expressPath: template.replace(/\{([^}]+)\}/g, ':$1'),
        regex: new RegExp(`^${pattern}/?$`),
        paramNames: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        methods: Object.keys(operations),
        allow: Object.keys(operations).join(', '),
        operations,
        errorFormat: formats.has('text') ? 'text' : 'json',
      };
    });
  }

  /** The route whose template matches a concrete request path, if any. */
  match(path: string): Route | undefined {
    return this.routes.find((route) => route.regex.test(path));
  }

  /** The error format for a request path: its family's, or JSON for paths the spec does not know. */
  errorFormat(path: string): ErrorFormat {
    return this.match(path)?.errorFormat ?? 'json';
  }
}
