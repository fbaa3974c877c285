import type { Node, Operation, Param, SpecModel } from './spec-model';

/** One invalid request derived from the spec, and the status the spec makes it earn. */
export interface NegativeCase {
  name: string;
  status: number;
  /** Replaces one path parameter's value. */
  pathValue?: { name: string; value: string };
  query?: string;
  body?: unknown;
  /** A raw body string and its Content-Type (for invalid JSON and wrong media types). */
  raw?: { text: string; contentType: string };
  noBody?: boolean;
}

const UNKNOWN_PROPERTY = 'contractKitUnknownProperty';

/** A value of the wrong JSON type for a schema type. */
function wrongType(type: unknown): unknown {
  switch (type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return '12';
    case 'boolean':
      return 'true';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return undefined;
  }
}

/** Strings that break a schema's string limits (length, pattern), each with what it breaks. */
function badStrings(schema: Node): [string, string][] {
  const out: [string, string][] = [];
  const min = schema.minLength as number | undefined;
  const max = schema.maxLength as number | undefined;
  if (typeof min === 'number' && min > 0) out.push([`shorter than minLength ${min}`, 'x'.repeat(min - 1)]);
  if (typeof max === 'number') out.push([`longer than maxLength ${max}`, 'x'.repeat(max + 1)]);
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern, 'u');
    const candidate = ['   ', ' ', '\t', '-', '0', 'x', '.'].find(
      (s) => !re.test(s) && s.length >= (min ?? 0) && s.length <= (max ?? Infinity),
    );
    if (candidate !== undefined) out.push([`not matching pattern ${schema.pattern}`, candidate]);
  }
  return out;
}

/** Numbers that break a schema's numeric limits, as strings (exact, even past 2^53). */
function badNumbers(schema: Node): [string, string][] {
  const out: [string, string][] = [];
  if (typeof schema.minimum === 'number') out.push([`below minimum ${schema.minimum}`, (BigInt(schema.minimum) - 1n).toString()]);
  if (typeof schema.maximum === 'number') out.push([`above maximum ${schema.maximum}`, (BigInt(schema.maximum) + 1n).toString()]);
  if (schema.type === 'integer') out.push(['not an integer', '1.5']);
  return out;
}

/** Invalid values for a parameter, as they would appear in a URL. */
function badParamValues(param: Param): [string, string][] {
  const schema = param.schema;
  if (schema.type === 'integer' || schema.type === 'number') return [['not a number', 'abc'], ...badNumbers(schema)];
  if (schema.type === 'string') return badStrings(schema).filter(([, v]) => v !== '' || param.in !== 'path');
  if (schema.type === 'boolean') return [['not a boolean', 'maybe']];
  return [];
}

function paramCases(op: Operation): NegativeCase[] {
  const out: NegativeCase[] = [];
  for (const param of op.params) {
    for (const [why, value] of badParamValues(param)) {
      const name = `${param.in} parameter ${param.name}=${JSON.stringify(value)} (${why})`;
      if (param.in === 'path') out.push({ name, status: 400, pathValue: { name: param.name, value } });
      if (param.in === 'query') out.push({ name, status: 400, query: `${encodeURIComponent(param.name)}=${encodeURIComponent(value)}` });
    }
  }
  return out;
}

function bodyCases(spec: SpecModel, op: Operation): NegativeCase[] {
  const body = op.body;
  if (!body) return [];
  const schema = body.schema;
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  const base = (body.examples[0]?.value ?? {}) as Record<string, unknown>;
  const out: NegativeCase[] = [];
  if (body.required) out.push({ name: 'no request body', status: 400, noBody: true });
  out.push({ name: 'body is not valid JSON', status: 400, raw: { text: '{"oops": ', contentType: body.mediaType } });
  out.push({ name: 'wrong Content-Type text/plain', status: 415, raw: { text: JSON.stringify(base), contentType: 'text/plain' } });
  if (schema.type === 'object') out.push({ name: 'body is a JSON array, not an object', status: 400, body: [base] });
  for (const name of required) {
    const { [name]: _dropped, ...rest } = base;
    out.push({ name: `missing required property '${name}'`, status: 400, body: rest });
  }
  for (const [name, raw] of Object.entries(props)) {
    const prop = spec.flatSchema(raw);
    if (prop.readOnly === true) continue;
    const wrong = wrongType(prop.type);
    if (wrong !== undefined) out.push({ name: `property '${name}' of the wrong type ${JSON.stringify(wrong)}`, status: 400, body: { ...base, [name]: wrong } });
    const invalid: [string, unknown][] =
      prop.type === 'string' ? badStrings(prop) : badNumbers(prop).map(([why, v]) => [why, Number(v)] as [string, unknown]);
    for (const [why, value] of invalid) {
      if (typeof value === 'number' && !Number.isFinite(value)) continue;
      out.push({ name: `property '${name}' ${why}`, status: 400, body: { ...base, [name]: value } });
    }
  }
  if (schema.additionalProperties === false) {
    out.push({ name: `unknown property '${UNKNOWN_PROPERTY}'`, status: 400, body: { ...base, [UNKNOWN_PROPERTY]: 1 } });
    if (!('id' in props)) out.push({ name: "property 'id' (assigned by the service)", status: 400, body: { ...base, id: 1 } });
  }
  return out;
}

/** A well-formed id (or code) that names nothing: the largest allowed integer, or an unlikely string. */
function notFoundCases(op: Operation): NegativeCase[] {
  const param = op.params.filter((p) => p.in === 'path').pop();
  if (!param) return [];
  const max = param.schema.maximum;
  const value =
    param.schema.type === 'integer' ? String(typeof max === 'number' ? max : 2147483647) : param.schema.type === 'string' ? 'zz-contract-kit' : undefined;
  if (value === undefined) return [];
  return [{ name: `unknown ${param.name} ${value}`, status: 404, pathValue: { name: param.name, value } }];
}

/**
 * The negative cases of an operation, derived from its parameters and request body schema. A case
 * is only kept when the spec documents the status it expects for this operation.
 */
export function negativeCases(spec: SpecModel, op: Operation): NegativeCase[] {
  return [...paramCases(op), ...notFoundCases(op), ...bodyCases(spec, op)].filter((c) => op.responses[String(c.status)] !== undefined);
}
