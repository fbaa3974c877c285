// The OpenAPI side of the breaking-change gate: a small classifier over two OpenAPI 3.1 documents.
// (No maintained npm diff library handles 3.1 and classifies by direction; see docs/maintainers/contract-gate.md, "Why a small classifier for OpenAPI".)
//
// Direction matters. A request schema that accepts less breaks clients (they send what used to be
// valid); a response schema that may now carry more breaks clients (they receive what they did not
// expect). So the same edit, say a lower maxLength, is breaking on a request and safe on a response.
import type { Change, Level } from './change';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Direction = 'request' | 'response';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Keywords that bound a value from above or below; `pattern`/`format` narrow whenever they change. */
const UPPER = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
const LOWER = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
const MAX_DEPTH = 32; // recursive schemas: stop descending here

/** Follows local `$ref`s (keeping sibling keywords, as 3.1 allows) and merges `allOf` into one schema. */
function resolver(doc: Json) {
  const deref = (node: unknown, seen: string[] = []): Json => {
    if (!node || typeof node !== 'object') return {};
    const { $ref, ...siblings } = node as Json;
    if (typeof $ref !== 'string' || !$ref.startsWith('#/') || seen.includes($ref)) return node as Json;
    const target = $ref
      .slice(2)
      .split('/')
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((o, k) => (o as Json | undefined)?.[k], doc);
    return { ...deref(target, [...seen, $ref]), ...siblings };
  };
  const schema = (node: unknown): Json => {
    const { allOf, ...rest } = deref(node);
    if (!Array.isArray(allOf)) return rest;
    const merged: Json = {};
    for (const part of [...allOf.map(schema), rest]) {
      const properties = { ...merged.properties, ...part.properties };
      const required = [...new Set([...(merged.required ?? []), ...(part.required ?? [])])];
      Object.assign(merged, part, { properties, required });
    }
    if (!Object.keys(merged.properties).length) delete merged.properties;
    if (!merged.required.length) delete merged.required;
    return merged;
  };
  return { deref, schema };
}

type Resolver = ReturnType<typeof resolver>;

function operations(doc: Json, r: Resolver) {
  const ops = new Map<string, { label: string; template: string; item: Json; op: Json }>();
  for (const [template, rawItem] of Object.entries<unknown>(doc.paths ?? {})) {
    const item = r.deref(rawItem);
    for (const method of METHODS) {
      if (!item[method]) continue;
      // `/books/{id}` and `/books/{bookId}` are the same URL to a client.
      ops.set(`${method} ${template.replace(/\{[^}]+\}/g, '{}')}`, { label: `${method.toUpperCase()} ${template}`, template, item, op: item[method] });
    }
  }
  return ops;
}

function parameters(r: Resolver, template: string, item: Json, op: Json) {
  const params = new Map<string, Json>();
  const slots: string[] = template.match(/\{[^}]+\}/g) ?? [];
  for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = r.deref(raw);
    const key = p.in === 'path' ? `path:${slots.indexOf(`{${p.name}}`)}` : `${p.in}:${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`;
    params.set(key, p);
  }
  return params;
}

const types = (s: Json): string[] | undefined => (s.type === undefined ? undefined : ([] as string[]).concat(s.type));
const accepts = (list: string[] | undefined, type: string) => !list || list.includes(type) || (type === 'integer' && list.includes('number'));
const enumOf = (s: Json): unknown[] | undefined => s.enum ?? (s.const !== undefined ? [s.const] : undefined);
const show = (v: unknown) => (v === undefined ? 'none' : typeof v === 'string' ? `'${v}'` : JSON.stringify(v));
const isSuccess = (status: string) => /^[23]/.test(status);

/** Whether an operation may be called with no credential: its `security` (else the document's) is absent, empty, or lists `{}`. */
function anonymous(op: Json, doc: Json): boolean {
  const requirements = op.security ?? doc.security;
  return !Array.isArray(requirements) || requirements.length === 0 || requirements.some((r: Json) => Object.keys(r ?? {}).length === 0);
}

/** Compares two OpenAPI documents; returns every change with its level (before any announcement). */
export function diffOpenApi(baseDoc: Json, headDoc: Json): Change[] {
  const changes: Change[] = [];
  const add = (level: Level, where: string, message: string, removal?: { deprecated: boolean }) =>
    changes.push({ contract: 'openapi', level, where, message, ...(removal && { removal: true, deprecated: removal.deprecated }) });
  const rb = resolver(baseDoc);
  const rh = resolver(headDoc);

  /** One schema pair, compared in one direction (request: what clients send; response: what they read). */
  function compareSchema(rawBase: unknown, rawHead: unknown, dir: Direction, where: string, depth = 0): void {
    if (depth > MAX_DEPTH) return;
    const base = rb.schema(rawBase);
    const head = rh.schema(rawHead);
    const req = dir === 'request';
    // A narrowed request and a widened response break clients; the opposite ways are safe (or dangerous).
    const narrowed = (what: string) => add(req ? 'breaking' : 'safe', where, what);
    const widened = (what: string) => add(req ? 'safe' : 'dangerous', where, what);

    const [bt, ht] = [types(base), types(head)];
    const lost = bt ? bt.filter((t) => !accepts(ht, t)) : ht ? ['any'] : [];
    const gained = ht ? ht.filter((t) => !accepts(bt, t)) : bt ? ['any'] : [];
    if (lost.length || gained.length) {
      const what = `type ${(bt ?? ['any']).join('|')} -> ${(ht ?? ['any']).join('|')}`;
      if (req) add(lost.length ? 'breaking' : 'safe', where, what);
      else add(gained.length ? 'breaking' : 'safe', where, what);
    }

    const [be, he] = [enumOf(base), enumOf(head)];
    const removedValues = be && he ? be.filter((v) => !he.some((w) => JSON.stringify(w) === JSON.stringify(v))) : [];
    const addedValues = be && he ? he.filter((v) => !be.some((w) => JSON.stringify(w) === JSON.stringify(v))) : [];
    if (!be && he) narrowed(`values restricted to ${show(he)}`);
    if (be && !he) widened(`any value allowed (was ${show(be)})`);
    // A value clients may receive that disappears is a removal, breaking on both sides.
    if (removedValues.length) add('breaking', where, `enum value ${removedValues.map((v) => show(v)).join(', ')} removed`);
    if (addedValues.length) add(req ? 'safe' : 'dangerous', where, `enum value ${addedValues.map((v) => show(v)).join(', ')} added`);

    for (const [keywords, tighter] of [
      [UPPER, (b: number, h: number) => h < b],
      [LOWER, (b: number, h: number) => h > b],
    ] as const) {
      for (const k of keywords) {
        const [b, h] = [base[k], head[k]];
        if (b === h) continue;
        if (h !== undefined && (b === undefined || tighter(b, h))) narrowed(`${k} ${show(b)} -> ${show(h)}`);
        else widened(`${k} ${show(b)} -> ${show(h)}`);
      }
    }
    for (const k of ['pattern', 'format']) {
      if (base[k] === head[k]) continue;
      if (head[k] === undefined) widened(`${k} ${show(base[k])} removed`);
      else narrowed(`${k} ${show(base[k])} -> ${show(head[k])}`);
    }
    if (base.additionalProperties !== false && head.additionalProperties === false) narrowed('unknown properties no longer allowed');
    if (base.additionalProperties === false && head.additionalProperties !== undefined && head.additionalProperties !== false)
      widened('unknown properties now allowed');
    for (const k of ['oneOf', 'anyOf', 'not']) {
      if (JSON.stringify(base[k]) !== JSON.stringify(head[k])) add('dangerous', where, `${k} changed (not classified further: review it)`);
    }

    const [bp, hp] = [base.properties ?? {}, head.properties ?? {}];
    const [breq, hreq] = [new Set(base.required ?? []), new Set(head.required ?? [])];
    // readOnly properties are never sent, writeOnly ones never received.
    const hidden = (s: Json) => (req ? s.readOnly : s.writeOnly) === true;
    for (const name of new Set([...Object.keys(bp), ...Object.keys(hp)])) {
      const at = `${where}.${name}`;
      const [bs, hs] = [name in bp ? rb.schema(bp[name]) : undefined, name in hp ? rh.schema(hp[name]) : undefined];
      if (bs && !hs) {
        if (hidden(bs)) continue;
        // Removing a request property only breaks clients when sending it is now refused.
        if (!req || head.additionalProperties === false) add('breaking', at, 'property removed', { deprecated: bs.deprecated === true });
        else add('safe', at, 'property removed (sending it is still accepted)');
      } else if (!bs && hs) {
        if (hidden(hs)) continue;
        add(req && hreq.has(name) ? 'breaking' : 'safe', at, req && hreq.has(name) ? 'new required property' : 'property added');
      } else if (bs && hs) {
        if (req && !hidden(hs) && !breq.has(name) && hreq.has(name)) add('breaking', at, 'property now required');
        if (req && breq.has(name) && !hreq.has(name)) add('safe', at, 'property now optional');
        if (!req && !hidden(bs) && breq.has(name) && !hreq.has(name)) add('breaking', at, 'property no longer always present');
        if (!req && !breq.has(name) && hreq.has(name)) add('safe', at, 'property now always present');
        if (!bs.deprecated && hs.deprecated) add('safe', at, 'deprecated');
        compareSchema(bp[name], hp[name], dir, at, depth + 1);
      }
    }
    if (base.items !== undefined && head.items !== undefined) compareSchema(base.items, head.items, dir, `${where}[]`, depth + 1);
  }

  function compareContent(base: Json | undefined, head: Json | undefined, dir: Direction, where: string) {
    for (const type of new Set([...Object.keys(base ?? {}), ...Object.keys(head ?? {})])) {
      if (!head?.[type]) add('breaking', where, `media type ${type} removed`);
      else if (!base?.[type]) add('safe', where, `media type ${type} added`);
      else compareSchema(base[type].schema, head[type].schema, dir, `${where} (${type})`);
    }
  }

  function compareOperation(label: string, b: { template: string; item: Json; op: Json }, h: { template: string; item: Json; op: Json }) {
    if (!b.op.deprecated && h.op.deprecated) add('safe', label, 'operation deprecated');

    const [bParams, hParams] = [parameters(rb, b.template, b.item, b.op), parameters(rh, h.template, h.item, h.op)];
    for (const key of new Set([...bParams.keys(), ...hParams.keys()])) {
      const [bp, hp] = [bParams.get(key), hParams.get(key)];
      const where = `${label} ${(bp ?? hp)?.in} parameter ${(bp ?? hp)?.name}`;
      if (bp && !hp) add('breaking', where, 'parameter removed', { deprecated: bp.deprecated === true });
      else if (!bp && hp) add(hp.required ? 'breaking' : 'safe', where, hp.required ? 'new required parameter' : 'optional parameter added');
      else if (bp && hp) {
        if (!bp.required && hp.required) add('breaking', where, 'parameter now required');
        if (bp.required && !hp.required) add('safe', where, 'parameter now optional');
        if (!bp.deprecated && hp.deprecated) add('safe', where, 'deprecated');
        compareSchema(bp.schema, hp.schema, 'request', where);
      }
    }

    // Security: an operation anyone could call that now needs a credential (no anonymous `{}` alternative left).
    const [bOpen, hOpen] = [anonymous(b.op, baseDoc), anonymous(h.op, headDoc)];
    if (bOpen && !hOpen) add('breaking', `${label} security`, 'anonymous access removed (a credential is now required)');
    else if (!bOpen && hOpen) add('safe', `${label} security`, 'anonymous access allowed');

    const [bBody, hBody] = [rb.deref(b.op.requestBody), rh.deref(h.op.requestBody)];
    const where = `${label} request body`;
    if (!b.op.requestBody && h.op.requestBody) add(hBody.required ? 'breaking' : 'safe', where, hBody.required ? 'new required request body' : 'optional request body added');
    else if (b.op.requestBody && !h.op.requestBody) add('dangerous', where, 'request body removed (what clients send is now ignored)');
    else if (b.op.requestBody) {
      if (!bBody.required && hBody.required) add('breaking', where, 'request body now required');
      compareContent(bBody.content, hBody.content, 'request', where);
    }

    const [bResponses, hResponses] = [b.op.responses ?? {}, h.op.responses ?? {}];
    for (const status of new Set([...Object.keys(bResponses), ...Object.keys(hResponses)])) {
      const at = `${label} ${status}`;
      if (!(status in hResponses)) add(isSuccess(status) ? 'breaking' : 'dangerous', at, 'response status removed');
      else if (!(status in bResponses)) add('dangerous', at, 'new response status (clients must handle it)');
      else {
        const [br, hr] = [rb.deref(bResponses[status]), rh.deref(hResponses[status])];
        const [bh, hh] = [br.headers ?? {}, hr.headers ?? {}];
        const lower = (o: Json) => new Map(Object.entries<unknown>(o).map(([k, v]) => [k.toLowerCase(), [k, v] as const]));
        const [bHeaders, hHeaders] = [lower(bh), lower(hh)];
        for (const key of new Set([...bHeaders.keys(), ...hHeaders.keys()])) {
          const [bEntry, hEntry] = [bHeaders.get(key), hHeaders.get(key)];
          const name = (bEntry ?? hEntry)![0];
          if (!hEntry) add('breaking', `${at} header ${name}`, 'response header removed', { deprecated: rb.deref(bEntry![1]).deprecated === true });
          else if (!bEntry) add('safe', `${at} header ${name}`, 'response header added');
          else compareSchema(rb.deref(bEntry[1]).schema, rh.deref(hEntry[1]).schema, 'response', `${at} header ${name}`);
        }
        compareContent(br.content, hr.content, 'response', `${at} response body`);
      }
    }
  }

  const [bOps, hOps] = [operations(baseDoc, rb), operations(headDoc, rh)];
  for (const [key, b] of bOps) {
    const h = hOps.get(key);
    if (!h) add('breaking', b.label, 'operation removed', { deprecated: b.op.deprecated === true });
    else compareOperation(h.label, b, h);
  }
  for (const [key, h] of hOps) if (!bOps.has(key)) add('safe', h.label, 'operation added');
  return changes;
}
