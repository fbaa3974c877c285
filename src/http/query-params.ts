import type { Request } from 'express';
import type { ErrorObject } from 'ajv/dist/2020';
import { resolveRef, resolveSchema, type OpenApiDocument } from '../spec';
import { pointerSegment, schemasOf } from '../spec-schemas';
import { ApiError } from './errors';
import { validatorRefusal } from './validator-errors';

/**
 * The query parameters of openapi.yaml's operations, checked by the service itself with the spec's own JSON Schemas
 * (Ajv, each compiled once). The validate phase (./validate.ts) takes the query out of the request before
 * express-openapi-validator runs, checks it here, and puts it back typed once the validator has passed; the
 * validator is given the spec without these parameters (`withoutQueryParams`). Two reasons:
 * - express-openapi-validator 5.6 reads every bracketed key as qs's nested object (`pages: {gte: ...}`) even when the
 *   spec declares the literal name (`pages[gte]`, the list filters of docs/contract.md §7), so it refuses them
 *   (cdimascio/express-openapi-validator#1115);
 * - its parameter mutator walks every query parameter an operation declares, on every request, whether sent or
 *   not (a list operation declares six besides its filters); this reads only what the request sends
 *   (docs/maintainers/design.md, "Where the time goes against the peers").
 *
 * The rules are the validator's, with one difference: a name the operation does not declare, a value given twice
 * (where one is expected), an empty value (unless the parameter says `allowEmptyValue`), a missing required one, or
 * a value its schema refuses is a 400 naming the parameter, worded as the validator's 400s are
 * (./validator-errors.ts); a missing one with a schema `default` gets it. Values are read percent-decoded: unlike the
 * validator, reserved characters (`:`, `/`, `@`...) may be sent as they are, as in the filters it never read.
 * A scalar (`integer`, `number`, `boolean`, `string`) or an array of scalars (`style: form`: comma-separated with
 * `explode: false`, else the name repeated) is read here; a parameter of any other kind (an object, `content`)
 * stays the validator's, and so do the names an operation with one of those does not declare.
 */

interface Declared {
  /** `integer`, `number`, `boolean`, `string`, or `array` of one of them. */
  type: string;
  items?: string;
  /** An array sent as one comma-separated value (`explode: false`), rather than its name repeated. */
  commas: boolean;
  allowEmpty: boolean;
  check: (value: unknown) => readonly ErrorObject[] | undefined;
}

/** What the service reads of one operation's query. */
export interface OperationQuery {
  declared: ReadonlyMap<string, Declared>;
  /** The names a request must send. */
  required: readonly string[];
  /** The names whose schema has a `default`, with it: what a request that does not send them gets. */
  defaults: readonly [string, unknown][];
  /** The operation also has parameters the validator reads: names this does not declare are left to it. */
  validatorHasOthers: boolean;
}

type Json = Record<string, unknown>;

const SCALARS = new Set(['integer', 'number', 'boolean', 'string']);
const NOTHING: OperationQuery = { declared: new Map(), required: [], defaults: [], validatorHasOthers: false };

/** A query parameter as declared (a `$ref` followed), and the JSON pointer of its schema. */
function queryParameters(doc: OpenApiDocument, path: string, method: string, item: Json): { parameter: Json; pointer: string }[] {
  const found = new Map<string, { parameter: Json; pointer: string }>();
  // Path-level parameters first: an operation's own parameter of the same name and location replaces one (OpenAPI 3.1).
  const lists: [unknown, string][] = [
    [item.parameters, `/paths/${pointerSegment(path)}/parameters`],
    [(item[method] as Json | undefined)?.parameters, `/paths/${pointerSegment(path)}/${method}/parameters`],
  ];
  for (const [list, base] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw: Json, i) => {
      const ref = typeof raw.$ref === 'string' ? raw.$ref : undefined;
      const parameter = (ref ? resolveRef(doc, ref) : raw) as Json | undefined;
      if (parameter?.in !== 'query') return;
      found.set(String(parameter.name), { parameter, pointer: `${ref ? ref.slice(1) : `${base}/${i}`}/schema` });
    });
  }
  return [...found.values()];
}

/** A schema's `type` (its `$ref`s followed); `string` when it names none. */
function typeOf(schema: Json): string {
  return typeof schema.type === 'string' ? schema.type : 'string';
}

/** Whether the service reads `parameter` (a scalar or an array of scalars, no `content`), and how. */
function readable(doc: OpenApiDocument, parameter: Json): { type: string; items?: string } | undefined {
  if (parameter.content !== undefined || parameter.schema === undefined) return undefined;
  const schema = resolveSchema(doc, parameter.schema);
  const type = typeOf(schema);
  if (SCALARS.has(type)) return { type };
  if (type !== 'array') return undefined;
  const items = typeOf(resolveSchema(doc, schema.items));
  return SCALARS.has(items) && (parameter.style ?? 'form') === 'form' ? { type, items } : undefined;
}

/** Each operation's query as the service reads it, by operationId, from the spec once. */
export function queryParams(doc: OpenApiDocument): Map<string, OperationQuery> {
  const schemas = schemasOf(doc);
  const byOperation = new Map<string, OperationQuery>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Json)) {
      const operationId = (op as Json | undefined)?.operationId;
      if (typeof operationId !== 'string') continue;
      const declared = new Map<string, Declared>();
      const required: string[] = [];
      const defaults: [string, unknown][] = [];
      let validatorHasOthers = false;
      for (const { parameter, pointer } of queryParameters(doc, path, method, item as Json)) {
        const kind = readable(doc, parameter);
        if (!kind) {
          validatorHasOthers = true;
          continue;
        }
        const name = String(parameter.name);
        declared.set(name, { ...kind, commas: parameter.explode === false, allowEmpty: parameter.allowEmptyValue === true, check: schemas.problems(pointer) });
        if (parameter.required === true) required.push(name);
        const fallback = resolveSchema(doc, parameter.schema).default;
        if (fallback !== undefined) defaults.push([name, fallback]);
      }
      if (declared.size || validatorHasOthers) byOperation.set(operationId, { declared, required, defaults, validatorHasOthers });
    }
  }
  return byOperation;
}

/** `doc` without the query parameters the service reads (`queryParams`), for express-openapi-validator. */
export function withoutQueryParams(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  const taken = (raw: Json): boolean => {
    const parameter = (typeof raw.$ref === 'string' ? resolveRef(doc, raw.$ref) : raw) as Json | undefined;
    return parameter?.in === 'query' && readable(doc, parameter) !== undefined;
  };
  // The path item's own parameters, then each operation's.
  for (const item of Object.values(copy.paths ?? {})) {
    for (const holder of [item, ...Object.values(item)] as (Json | undefined)[]) {
      if (Array.isArray(holder?.parameters)) holder.parameters = holder.parameters.filter((raw: Json) => !taken(raw));
    }
  }
  return copy;
}

/** A query string value read as `type`; left as text when it is not one (the schema check then says why). */
function typed(text: string, type: string | undefined): unknown {
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** A 400 for one query parameter, worded as the validator's are (`Invalid request: query/limit must be >= 1`). */
function refusal(path: string, message: string, params?: Record<string, unknown>): ApiError {
  const { status, message: summary, details } = validatorRefusal({ status: 400, errors: [{ path, message, params }] });
  return new ApiError(status, summary, details);
}

/** Ajv's first error for a parameter's value, as the validator reports it (an enum names its values). */
function schemaRefusal(name: string, errors: readonly ErrorObject[]): ApiError {
  const first = errors[0];
  const allowed = first?.keyword === 'enum' ? (first.params as { allowedValues?: unknown[] }).allowedValues : undefined;
  const message = `${first?.message ?? 'is invalid'}${allowed ? `: ${allowed.join(', ')}` : ''}`;
  return refusal(`/query/${name}${first?.instancePath ?? ''}`, message, first?.params);
}

/** One parameter's value from the query string, typed (an array from its commas or its repeats). */
function valueOf(name: string, raw: unknown, param: Declared): unknown {
  const texts = Array.isArray(raw) ? (raw as string[]) : [String(raw)];
  // One value (a scalar, or an array in one comma-separated value) unless the name repeats the array's items.
  const single = param.type !== 'array' || param.commas;
  if (single && texts.length > 1) throw refusal(`/query/${name}`, 'must be given once');
  if (!param.allowEmpty && texts.includes('')) throw refusal(`/query/${name}`, `Empty value found for query parameter '${name}'`);
  if (!single) return texts.map((each) => typed(each, param.items));
  if (param.type !== 'array') return typed(texts[0], param.type);
  return texts[0] === '' ? [] : texts[0].split(',').map((each) => typed(each, param.items));
}

/**
 * Takes the query parameters the service reads out of `req.query` (the validator then sees the rest), checked and
 * typed: their values, to put back once the validator has passed; undefined when there are none. `query` is the
 * operation's (`queryParams`); undefined for one that declares no query parameter.
 */
export function takeQueryParams(req: Request, query: OperationQuery = NOTHING): Record<string, unknown> | undefined {
  // Most requests have no query string: theirs is not parsed here at all.
  const sent = req.url.includes('?') ? (req.query as Record<string, unknown>) : undefined;
  if (!sent && query.required.length === 0 && query.defaults.length === 0) return undefined;
  let taken: Record<string, unknown> | undefined;
  const rest: Record<string, unknown> = {};
  for (const name in sent) {
    const param = query.declared.get(name);
    if (!param) {
      if (!query.validatorHasOthers) throw refusal(`/query/${name}`, `Unknown query parameter '${name}'`);
      rest[name] = sent[name];
      continue;
    }
    const value = valueOf(name, sent[name], param);
    const errors = param.check(value);
    if (errors) throw schemaRefusal(name, errors);
    (taken ??= {})[name] = value;
  }
  for (const name of query.required) {
    if (taken?.[name] === undefined) throw refusal('/query', `must have required property '${name}'`);
  }
  for (const [name, value] of query.defaults) if (taken?.[name] === undefined) (taken ??= {})[name] = structuredClone(value);
  if (sent) Object.defineProperty(req, 'query', { value: rest, writable: true, configurable: true, enumerable: true });
  return taken;
}
