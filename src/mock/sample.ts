/**
 * A value for a JSON Schema (as openapi.yaml writes them, OpenAPI 3.1), for answers the spec gives no
 * example for. It aims at a value the schema accepts, not at variety: `const`, then the schema's own
 * `examples` / `example`, `default`, the first `enum` value, else a value of its type within its bounds
 * (`minimum`, `multipleOf`, `minLength`, `maxLength`, `pattern`, `minItems`, `required`...). `$ref`s to
 * the document (`#/...`) are followed, `allOf` parts are merged, and `oneOf` / `anyOf` take their first choice.
 */

type Node = Record<string, unknown>;

/** Optional properties are left out below this depth (required ones never are), so recursive schemas end. */
const OPTIONAL_DEPTH = 4;
const MAX_DEPTH = 32;

/** Strings of the formats an API spec uses; anything else is a plain word. */
const FORMATS: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  duration: 'PT1M',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  iri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': '/',
  'iri-reference': '/',
  'uri-template': '/{id}',
  uuid: '00000000-0000-4000-8000-000000000000',
  byte: 'c3RyaW5n',
  'json-pointer': '/',
  regex: '.*',
};

export class SchemaSampler {
  constructor(private readonly doc: object) {}

  /** A value `schema` accepts; `variant` (0, 1, ...) makes items of one array differ where they must be unique. */
  sample(schema: unknown, variant = 0, depth = 0): unknown {
    if (depth > MAX_DEPTH) throw new Error('schema too deep to sample (a required property refers back to itself?)');
    const node = this.merged(schema);
    if ('const' in node) return node.const;
    if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
    if (node.example !== undefined) return node.example;
    if (node.default !== undefined) return node.default;
    if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[Math.min(variant, node.enum.length - 1)];
    const choices = (node.oneOf ?? node.anyOf) as unknown[] | undefined;
    if (Array.isArray(choices) && choices.length > 0) return this.sample({ ...without(node, 'oneOf', 'anyOf'), allOf: [choices[0]] }, variant, depth + 1);
    switch (typeOf(node)) {
      case 'object':
        return this.object(node, depth);
      case 'array':
        return this.array(node, depth);
      case 'string':
        return sampleString(node, variant);
      case 'integer':
        return sampleNumber(node, true, variant);
      case 'number':
        return sampleNumber(node, false, variant);
      case 'boolean':
        return variant % 2 === 0;
      case 'null':
        return null;
      default:
        return {};
    }
  }

  private object(node: Node, depth: number): Record<string, unknown> {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const required = new Set((node.required ?? []) as string[]);
    const value: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(properties)) {
      if (!required.has(name) && depth >= OPTIONAL_DEPTH) continue;
      value[name] = this.sample(schema, 0, depth + 1);
    }
    // Required names without a property schema, and minProperties, take the additionalProperties schema.
    const extra = node.additionalProperties;
    const extraSchema = extra === undefined || extra === true ? {} : extra;
    for (const name of required) if (!(name in value)) value[name] = this.sample(extraSchema === false ? {} : extraSchema, 0, depth + 1);
    const minProperties = extraSchema === false ? 0 : Number(node.minProperties ?? 0);
    for (let i = 1; Object.keys(value).length < minProperties; i += 1) {
      if (!(`key${i}` in value)) value[`key${i}`] = this.sample(extraSchema, i, depth + 1);
    }
    return value;
  }

  private array(node: Node, depth: number): unknown[] {
    const prefix = (node.prefixItems ?? []) as unknown[];
    const min = Number(node.minItems ?? 0);
    const max = node.maxItems === undefined ? Infinity : Number(node.maxItems);
    const count = Math.min(max, Math.max(min, prefix.length, 1));
    const items = node.items === false ? undefined : (node.items ?? {});
    const value: unknown[] = [];
    for (let i = 0; i < count; i += 1) {
      const schema = i < prefix.length ? prefix[i] : items;
      if (schema === undefined) break;
      value.push(this.sample(schema, node.uniqueItems ? i : 0, depth + 1));
    }
    return value;
  }

  /** The schema with its `$ref` followed and its `allOf` parts merged into one node. */
  private merged(schema: unknown, seen = 0): Node {
    if (seen > MAX_DEPTH) throw new Error('$ref cycle while sampling a schema');
    if (schema === true || schema === undefined || schema === null) return {};
    let node = schema as Node;
    if (typeof node.$ref === 'string') node = { ...this.merged(this.resolve(node.$ref), seen + 1), ...without(node, '$ref') };
    if (!Array.isArray(node.allOf)) return node;
    let out: Node = without(node, 'allOf');
    for (const part of node.allOf) out = mergeNodes(out, this.merged(part, seen + 1));
    return out;
  }

  private resolve(ref: string): unknown {
    if (!ref.startsWith('#')) throw new Error(`cannot sample a schema at ${ref}: only references inside the document are followed`);
    let node: unknown = this.doc;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      node = (node as Node | undefined)?.[decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (node === undefined) throw new Error(`${ref} does not exist in the document`);
    return node;
  }
}

function without(node: Node, ...keys: string[]): Node {
  const copy = { ...node };
  for (const key of keys) delete copy[key];
  return copy;
}

/** Two schemas that must both hold, as one: properties and required lists joined, the tighter bound kept. */
function mergeNodes(a: Node, b: Node): Node {
  const out: Node = { ...a, ...b };
  if (a.properties || b.properties) out.properties = { ...(a.properties as Node), ...(b.properties as Node) };
  if (a.required || b.required) out.required = [...new Set([...((a.required ?? []) as string[]), ...((b.required ?? []) as string[])])];
  for (const key of ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']) {
    if (typeof a[key] === 'number' && typeof b[key] === 'number') out[key] = Math.max(a[key], b[key]);
  }
  for (const key of ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']) {
    if (typeof a[key] === 'number' && typeof b[key] === 'number') out[key] = Math.min(a[key], b[key]);
  }
  return out;
}

function typeOf(node: Node): string | undefined {
  const type = node.type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') ?? type[0];
  if (typeof type === 'string') return type;
  if (node.properties || node.required || node.additionalProperties !== undefined) return 'object';
  if (node.items || node.prefixItems) return 'array';
  if (node.pattern !== undefined || node.minLength !== undefined || node.format !== undefined) return 'string';
  if (node.minimum !== undefined || node.maximum !== undefined) return 'number';
  return undefined;
}

function sampleNumber(node: Node, integer: boolean, variant: number): number {
  const step = typeof node.multipleOf === 'number' && node.multipleOf > 0 ? node.multipleOf : integer ? 1 : undefined;
  let low = typeof node.minimum === 'number' ? node.minimum : -Infinity;
  if (typeof node.exclusiveMinimum === 'number') low = Math.max(low, node.exclusiveMinimum + (step ?? 1e-9) * (integer ? 1 : 0.5));
  let high = typeof node.maximum === 'number' ? node.maximum : Infinity;
  if (typeof node.exclusiveMaximum === 'number') high = Math.min(high, node.exclusiveMaximum - (step ?? 1e-9) * (integer ? 1 : 0.5));
  let value = (Number.isFinite(low) ? low : Math.min(0, high)) + variant * (step ?? 1);
  if (step) value = Math.ceil(value / step) * step;
  if (integer) value = Math.ceil(value);
  return value > high ? (step ? Math.floor(high / step) * step : high) : value;
}

function sampleString(node: Node, variant: number): string {
  const min = Number(node.minLength ?? 0);
  const max = node.maxLength === undefined ? Infinity : Number(node.maxLength);
  const pattern = typeof node.pattern === 'string' ? new RegExp(node.pattern, 'u') : undefined;
  const suffix = variant > 0 ? String(variant) : '';
  const base = (typeof node.format === 'string' ? FORMATS[node.format] : undefined) ?? 'string';
  const fits = (s: string) => [...s].length >= min && [...s].length <= max && (!pattern || pattern.test(s));
  const candidates = [base + suffix, padTo(base + suffix, min, max), 'a' + suffix, padTo('a' + suffix, min, max), suffix || '0'];
  for (const candidate of candidates) if (fits(candidate)) return candidate;
  if (typeof node.pattern === 'string') {
    for (let extra = 0; extra < 4; extra += 1) {
      const generated = fromPattern(node.pattern, Math.max(min, 1) + extra);
      if (generated !== undefined && fits(generated)) return generated;
    }
  }
  return padTo(base, min, max);
}

function padTo(text: string, min: number, max: number): string {
  let out = text;
  while ([...out].length < min) out += 'x';
  return [...out].slice(0, Math.min(max, Math.max(min, [...out].length))).join('');
}

/**
 * A string matching a regular expression of the usual shapes (literals, escapes, classes, groups with
 * alternatives, quantifiers, anchors), each repeat at its least (`+` once, `*` or `{0,}` `want` times
 * when the string is still short). Undefined for anything it does not understand (lookarounds, backreferences).
 */
export function fromPattern(pattern: string, want: number): string | undefined {
  let i = 0;
  const src = pattern;
  const fail = (): never => {
    throw new Error('unsupported');
  };
  // A set of allowed characters, as a test; the first printable ASCII one it allows is the one used.
  type CharSet = (c: string) => boolean;
  const escapeSet = (c: string): CharSet => {
    switch (c) {
      case 'd': return (x) => /\d/.test(x);
      case 'D': return (x) => !/\d/.test(x);
      case 'w': return (x) => /\w/.test(x);
      case 'W': return (x) => !/\w/.test(x);
      case 's': return (x) => /\s/u.test(x);
      case 'S': return (x) => !/\s/u.test(x);
      default: return (x) => x === c;
    }
  };
  const escapedChar = (): string => {
    const c = src[i++];
    if (c === 'x') { const hex = src.slice(i, i + 2); i += 2; return String.fromCharCode(parseInt(hex, 16)); }
    if (c === 'u') {
      if (src[i] === '{') { const end = src.indexOf('}', i); const hex = src.slice(i + 1, end); i = end + 1; return String.fromCodePoint(parseInt(hex, 16)); }
      const hex = src.slice(i, i + 4); i += 4; return String.fromCharCode(parseInt(hex, 16));
    }
    const named: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' };
    return named[c] ?? c;
  };
  const pick = (set: CharSet): string => {
    for (const c of 'a0A-_ .~!#'.split('')) if (set(c)) return c;
    for (let code = 0x20; code < 0x7f; code += 1) if (set(String.fromCharCode(code))) return String.fromCharCode(code);
    return fail();
  };
  const classSet = (): CharSet => {
    const negated = src[i] === '^';
    if (negated) i += 1;
    const parts: CharSet[] = [];
    while (src[i] !== ']') {
      if (i >= src.length) fail();
      let lowChar: string;
      if (src[i] === '\\') {
        i += 1;
        if ('dDwWsS'.includes(src[i])) { parts.push(escapeSet(src[i++])); continue; }
        lowChar = escapedChar();
      } else lowChar = src[i++];
      if (src[i] === '-' && src[i + 1] !== ']') {
        i += 1;
        let highChar: string;
        if (src[i] === '\\') { i += 1; highChar = escapedChar(); } else highChar = src[i++];
        const lo = lowChar.codePointAt(0)!;
        const hi = highChar.codePointAt(0)!;
        parts.push((x) => x.codePointAt(0)! >= lo && x.codePointAt(0)! <= hi);
      } else {
        const only = lowChar;
        parts.push((x) => x === only);
      }
    }
    i += 1;
    return (x) => parts.some((p) => p(x)) !== negated;
  };
  // Parses an alternation up to `)` or the end; returns the string of its first alternative.
  const alternatives = (): string => {
    const first = sequence();
    while (src[i] === '|') { i += 1; sequence(); }
    return first;
  };
  const sequence = (): string => {
    let out = '';
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      const c = src[i++];
      let atom: () => string;
      if (c === '^' || c === '$') continue;
      if (c === '(') {
        if (src[i] === '?') {
          if (src[i + 1] === ':') i += 2;
          else if (src[i + 1] === '<' && src[i + 2] !== '=' && src[i + 2] !== '!') i = src.indexOf('>', i) + 1;
          else fail();
        }
        const inner = alternatives();
        if (src[i++] !== ')') fail();
        atom = () => inner;
      } else if (c === '[') {
        const set = classSet();
        atom = () => pick(set);
      } else if (c === '\\') {
        if (/[1-9bBk]/.test(src[i])) fail();
        if ('dDwWsS'.includes(src[i])) { const set = escapeSet(src[i++]); atom = () => pick(set); }
        else { const ch = escapedChar(); atom = () => ch; }
      } else if (c === '.') {
        atom = () => 'a';
      } else {
        atom = () => c;
      }
      let lo = 1;
      let hi = 1;
      if (src[i] === '*') { lo = 0; hi = Infinity; i += 1; }
      else if (src[i] === '+') { lo = 1; hi = Infinity; i += 1; }
      else if (src[i] === '?') { lo = 0; hi = 1; i += 1; }
      else if (src[i] === '{') {
        const match = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
        if (match) {
          lo = Number(match[1]);
          hi = match[2] === undefined ? lo : match[3] === '' ? Infinity : Number(match[3]);
          i += match[0].length;
        }
      }
      if (src[i] === '?') i += 1;
      const piece = atom();
      const length = [...out].length;
      const times = Math.max(lo, Math.min(hi, length < want ? Math.max(1, want - length) : lo));
      out += piece.repeat(hi === Infinity || hi > 1 ? times : Math.min(times, hi));
    }
    return out;
  };
  try {
    const out = alternatives();
    return i === src.length ? out : undefined;
  } catch {
    return undefined;
  }
}
