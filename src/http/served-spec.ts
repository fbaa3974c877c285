import { createHash } from 'node:crypto';
import { parseDocument } from 'yaml';
import type { AuthSettings } from '../config';
import { KeptInOrder } from '../kept-in-order';
import type { OpenApiDocument } from '../spec';
import { enforcedScopes } from './auth';
import { HTTP_METHODS, securityScopes } from './spec-routes';

/** One change to the document: the value at `path` set to `value`, or removed when `value` is undefined. */
interface Edit {
  path: string[];
  value?: unknown;
}

type Json = Record<string, unknown>;

/** The names of the document's HTTP bearer schemes (openapi.yaml's `bearerAuth`). */
function bearerSchemes(doc: OpenApiDocument): Set<string> {
  const schemes = ((doc.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, { type?: string; scheme?: string }>;
  return new Set(Object.entries(schemes).filter(([, s]) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer').map(([name]) => name));
}

/** The `#/components/<section>/<name>` references a document holds. */
function references(doc: unknown): Set<string> {
  return new Set([...JSON.stringify(doc).matchAll(/"#\/components\/((?:responses|headers)\/[^"]+)"/g)].map((m) => m[1]));
}

function apply(doc: Json, { path, value }: Edit): void {
  let at = doc;
  for (const key of path.slice(0, -1)) at = at[key] as Json;
  if (value === undefined) delete at[path[path.length - 1]];
  else at[path[path.length - 1]] = value;
}

/**
 * How the spec changes to say what this instance checks, operation by operation (each one with a bearer
 * requirement in openapi.yaml):
 * - auth off: no security at all (no scheme, no requirement, no 401 or 403 answer), so Swagger UI shows no
 *   Authorize button and no lock;
 * - auth on, some of its scopes enforced (src/http/auth.ts `enforced`): the bearer requirement with exactly those
 *   scopes, and no anonymous alternative;
 * - auth on, none enforced (a read with AUTH_READS=public): no requirement (`security: []`), and no 403; its 401
 *   stays (a token that does not verify is refused everywhere).
 */
function securityEdits(doc: OpenApiDocument, settings: AuthSettings | undefined): Edit[] {
  const schemes = bearerSchemes(doc);
  const edits: Edit[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as Json | undefined;
      const requirements = (Array.isArray(op?.security) ? op.security : []) as Json[];
      const scheme = requirements.flatMap((requirement) => Object.keys(requirement)).find((name) => schemes.has(name));
      if (!op || !scheme) continue;
      const at = ['paths', template, method];
      const responses = (op.responses ?? {}) as Json;
      const drop = (status: string) => status in responses && edits.push({ path: [...at, 'responses', status] });
      const needed = settings ? enforcedScopes(settings, securityScopes(op)) : [];
      if (needed.length > 0) {
        edits.push({ path: [...at, 'security'], value: [{ [scheme]: needed }] });
        continue;
      }
      edits.push(settings ? { path: [...at, 'security'], value: [] } : { path: [...at, 'security'] });
      if (!settings) drop('401');
      drop('403');
    }
  }
  if (!settings && edits.length > 0) {
    for (const name of schemes) edits.push({ path: ['components', 'securitySchemes', name] });
    if ('security' in doc) edits.push({ path: ['security'] });
  }
  return edits;
}

/**
 * The spec as this instance serves it (`/openapi.json`, `/openapi.yaml`, Swagger UI): openapi.yaml's document
 * with its security saying what this instance checks (see securityEdits), and the components only those
 * answers used (the 401 and 403 answers, the WWW-Authenticate header) removed with them. The YAML is the file's
 * text with the same changes, its comments kept; served as written when nothing changes. `openapi` is not changed.
 */
export function servedSpec(openapi: OpenApiDocument, settings: AuthSettings | undefined, yamlText: string): { doc: OpenApiDocument; yaml: string } {
  // The same inputs give the same spec: worked out once per process (the YAML's rewriting is most of a service's build).
  const key = createHash('sha256').update(JSON.stringify([openapi, settings ?? null, yamlText])).digest('base64');
  let served = made.get(key);
  if (!served) {
    served = serve(openapi, settings, yamlText);
    made.keep(key, served);
  }
  return served;
}

const KEPT = 8;
/** The specs served so far, by what they were made from (at most KEPT, the one made longest ago goes first); a served spec is never changed. */
const made = new KeptInOrder<string, { doc: OpenApiDocument; yaml: string }>(KEPT);

function serve(openapi: OpenApiDocument, settings: AuthSettings | undefined, yamlText: string): { doc: OpenApiDocument; yaml: string } {
  const edits = securityEdits(openapi, settings);
  if (edits.length === 0) return { doc: openapi, yaml: yamlText };
  const doc = structuredClone(openapi) as unknown as Json;
  for (const edit of edits) apply(doc, edit);
  // Components the changes left unused, until none is left (a response may hold the last use of a header).
  const before = references(openapi);
  const components = doc.components as Record<string, Json>;
  for (;;) {
    const used = references(doc);
    const unused = [...before].filter((ref) => !used.has(ref) && ref.split('/')[1] in (components[ref.split('/')[0]] ?? {}));
    if (unused.length === 0) break;
    for (const ref of unused) {
      const edit = { path: ['components', ...ref.split('/')] };
      apply(doc, edit);
      edits.push(edit);
    }
  }
  if (components.securitySchemes && Object.keys(components.securitySchemes).length === 0) {
    const edit = { path: ['components', 'securitySchemes'] };
    apply(doc, edit);
    edits.push(edit);
  }
  const yaml = parseDocument(yamlText);
  for (const { path, value } of edits) {
    if (value === undefined) yaml.deleteIn(path);
    else yaml.setIn(path, yaml.createNode(value, { flow: true }));
  }
  return { doc: doc as unknown as OpenApiDocument, yaml: yaml.toString() };
}
