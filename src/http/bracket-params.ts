import type { Request } from 'express';
import { resolveRef, type OpenApiDocument } from '../spec';
import { pointerSegment, schemasOf } from '../spec-schemas';
import { ApiError } from './errors';

/**
 * Query parameters whose names hold brackets (`pages[gte]`, the list filters of docs/contract.md §7), checked
 * against openapi.yaml by the service itself. express-openapi-validator 5.6 reads every bracketed key as qs's
 * nested object (`pages: {gte: ...}`) even when the spec declares the literal name, so it refuses them
 * (cdimascio/express-openapi-validator#1115). The validate phase (./validate.ts) takes them out of the query
 * before the validator runs, checks them here with the same JSON Schemas (Ajv, as the validator does) and puts
 * them back, typed, once it has passed: every other parameter stays the validator's.
 */

interface Declared {
  /** `integer`, `number`, `boolean`, `string`, or `array` (comma-separated, `explode: false`) of one of them. */
  type: string;
  items?: string;
  check: (value: unknown) => string | undefined;
}

type Json = Record<string, unknown>;

/** Each operation's bracketed query parameters, by operationId, read from the spec once. */
export function bracketParams(doc: OpenApiDocument): Map<string, Map<string, Declared>> {
  const schemas = schemasOf(doc);
  const byOperation = new Map<string, Map<string, Declared>>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Json)) {
      const operationId = (op as Json | undefined)?.operationId;
      if (typeof operationId !== 'string') continue;
      const declared = new Map<string, Declared>();
      ((op as Json).parameters as Json[] | undefined)?.forEach((raw, i) => {
        const ref = typeof raw.$ref === 'string' ? raw.$ref : undefined;
        const parameter = (ref ? resolveRef(doc, ref) : raw) as Json;
        if (parameter.in !== 'query' || !String(parameter.name).includes('[')) return;
        const pointer = ref ? `${ref.slice(1)}/schema` : `/paths/${pointerSegment(path)}/${method}/parameters/${i}/schema`;
        const schema = resolveRef(doc, `#${pointer}`) as Json;
        const deref = (s: unknown) => (s && typeof (s as Json).$ref === 'string' ? resolveRef(doc, (s as Json).$ref as string) : s) as Json | undefined;
        const type = String(deref(schema)?.type ?? 'string');
        const items = deref(schema.items);
        declared.set(String(parameter.name), { type, items: items ? String(items.type ?? 'string') : undefined, check: schemas.validator(pointer) });
      });
      if (declared.size) byOperation.set(operationId, declared);
    }
  }
  return byOperation;
}

/**
 * `doc` without the bracketed query parameters, for express-openapi-validator: it cannot read them (above), and
 * each parameter it is given costs it work on every request of the operation (its parameter mutator walks them all).
 */
export function withoutBracketParams(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  for (const item of Object.values(copy.paths ?? {})) {
    for (const op of Object.values(item as Json)) {
      const parameters = (op as Json | undefined)?.parameters;
      if (!Array.isArray(parameters)) continue;
      (op as Json).parameters = parameters.filter((raw: Json) => {
        const parameter = (typeof raw.$ref === 'string' ? resolveRef(doc, raw.$ref) : raw) as Json;
        return parameter.in !== 'query' || !String(parameter.name).includes('[');
      });
    }
  }
  return copy;
}

/** A query string value read as `type`; undefined when it is not one (the schema check then says why). */
function typed(text: string, type: string | undefined): unknown {
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** A bracket in a request target's query, as it is or percent-encoded. */
const BRACKET = /\?.*(\[|%5b)/i;

function refusal(name: string, message: string): ApiError {
  return new ApiError(400, `Invalid request: query/${name} ${message}`, [{ path: `/query/${name}`, message }]);
}

/**
 * Takes the bracketed parameters out of `req.query` (which the validator then sees without them), checked and typed:
 * their values to put back once the validator has passed. A bracketed name the operation does not declare, a value
 * given twice, or one its schema refuses is a 400 naming it.
 */
export function takeBracketParams(req: Request, declared: ReadonlyMap<string, Declared> | undefined): Record<string, unknown> | undefined {
  // Most requests have no bracket in their query string: they are not parsed here at all.
  if (!BRACKET.test(req.url)) return undefined;
  const query = req.query as Record<string, unknown>;
  let taken: Record<string, unknown> | undefined;
  const rest: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(query)) {
    if (!name.includes('[')) {
      rest[name] = raw;
      continue;
    }
    const param = declared?.get(name);
    if (!param) throw new ApiError(400, `Invalid request: Unknown query parameter '${name}'`, [{ path: `/query/${name}`, message: `Unknown query parameter '${name}'` }]);
    if (typeof raw !== 'string') throw refusal(name, 'must be given once');
    const value = param.type === 'array' ? (raw === '' ? [] : raw.split(',').map((each) => typed(each, param.items))) : typed(raw, param.type);
    const problem = param.check(value);
    if (problem) throw refusal(name, problem.replace(/^\(root\) /, '').replace(/^\/(\d+) /, (_, i) => `item ${i} `));
    (taken ??= {})[name] = value;
  }
  if (taken) Object.defineProperty(req, 'query', { value: rest, writable: true, configurable: true, enumerable: true });
  return taken;
}
