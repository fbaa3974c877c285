import type { OpenApiDocument } from '../spec';
import { IDEMPOTENCY_KEY } from './idempotency';
import type { ErrorFormat, OperationInfo, Route, SpecHeaders } from './routes';

/** The HTTP methods, lower-case as OpenAPI path items spell them: the one list of them. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface MediaObject {
  content?: Record<string, unknown>;
  headers?: Record<string, unknown>;
}

/** The headers openapi.yaml declares (see SpecHeaders). */
export function specHeaders(doc: OpenApiDocument): SpecHeaders {
  return specRoutes(doc).headers;
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
  const headers = { request: [] as string[], response: [] as string[] };
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
      for (const [status, response] of Object.entries((op.responses as Record<string, unknown>) ?? {})) {
        const declared = deref(response as MediaObject);
        const media = Object.keys(declared.content ?? {})[0] ?? '';
        if (declared.headers?.ETag && media) etagStatuses.push(Number(status));
        if (declared.headers?.Location && status.startsWith('2')) locationStatuses.push(Number(status));
        responseMedia[Number(status)] = media;
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
        bodyRequired: (deref(op.requestBody) as { required?: boolean } | undefined)?.required === true,
        integerParams: params
          .filter((p) => p.in === 'path' && (deref(p.schema) as { type?: string })?.type === 'integer')
          .map((p) => p.name),
        idempotencyKey: params.some((p) => p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY_KEY.toLowerCase()),
        etagStatuses,
        locationStatuses,
        conditional: params.some((p) => p.in === 'header' && /^if-(none-)?match$/i.test(p.name)),
        secured: Array.isArray(security) && security.length > 0,
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
