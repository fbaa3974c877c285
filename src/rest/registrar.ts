import { hash } from 'node:crypto';
import type { Request, Response } from 'express';
import { ApiError, oneLine } from '../http/errors';
import { IDEMPOTENCY_KEY, KEY_IN_PROGRESS, KEY_REUSED, ownedKey, requestFingerprint } from '../http/idempotency';
import type { Outcome, Phase, RequestState } from '../http/request-state';
import type { OperationInfo, Route, RouteTable } from '../http/routes';
import type { ListQuery } from '../store/query';
import type { Store } from '../store/types';
import { listQuery } from './list-query';
import { readAtOnce } from './pagination';
import { writeJsonList } from '../http/json-stream';
import type { MockAnswer } from '../mock/rest';
import type { WriteTurns } from '../http/write-turns';
import { JSON_TYPE, sendEmpty, sendText, TEXT_TYPE } from '../http/send';
import type { AnswerHeaders } from '../http/head';
import type { OperationCheck } from './response-check';
import type { HandlerInput, Handlers, ListBody, OperationId, Precondition, RestContext } from './types';

type AnyHandler = (input: HandlerInput<OperationId>, ctx: RestContext) => unknown;
const DECIMAL = /^[0-9]+$/;

type AnyResult = Outcome;

interface Bound {
  route: Route;
  op: OperationInfo;
  /** The operation's handler; when it has none, its mocked answer (`mock`). */
  handler?: AnyHandler;
  mock?: MockAnswer;
  /** Response validation of this operation's answers, when it is on. */
  check?: OperationCheck;
}

/** What the registrar needs beyond the handlers' own context. */
export interface WriteOptions {
  /** Response validation (src/rest/response-check.ts): in tests and with VALIDATE_RESPONSES. */
  check?: (operationId: string) => OperationCheck;
  /** Names what the service makes of a record (its version and spec): part of every list's ETag. */
  representation: string;
  /** The app's share of the event loop between answers written in chunks (src/http/write-turns.ts). */
  turns: WriteTurns;
  /** With MOCK_UNIMPLEMENTED: the answer of an operation that has no handler (src/mock/rest.ts). Without it, a missing handler stops the start. */
  mock?: (route: Route, op: OperationInfo) => MockAnswer;
}

/**
 * The `handle` and `write` phases (src/http/phases.ts): the one place that turns a request into typed handler
 * input, and a handler's result into the HTTP response. Handlers never see `req` or `res`.
 *
 * The route phase has matched the request once (the match is in the request's state, with the raw path
 * parameters), so binding is one map lookup by route and method. Path parameters are the raw ones from the
 * match (the validator's copies are already coerced: `1e0` would pass as 1).
 *
 * Answers are written in the write phase, each body serialised once: a record's JSON text is also what its ETag
 * hashes, and what a short list that holds it is joined from (taggedMemo); a list (a ListBody, as the store reads
 * it) is written batch by batch (src/http/json-stream.ts), tagged from its collection's version without
 * serialising it first. Conditional requests (below, after the
 * phases) live here too, for every operation whose spec declares them: 304/412 for a GET, and the write
 * precondition handed to the handler.
 */
export function restPhases(routes: RouteTable, handlers: Handlers, ctx: RestContext, options: WriteOptions): { handle: Phase; write: Phase } {
  const byRoute = new Map<Route, Map<string, Bound>>();
  for (const route of routes.routes) {
    if (route.handler) continue;
    const byMethod = new Map<string, Bound>();
    for (const op of Object.values(route.operations)) {
      const handler = handlers[op.operationId as OperationId] as AnyHandler | undefined;
      const mock = handler ? undefined : options.mock?.(route, op);
      if (!handler && !mock) throw new Error(`openapi.yaml operation ${op.operationId} has no handler`);
      byMethod.set(op.method, { route, op, handler, mock, check: options.check?.(op.operationId) });
    }
    byRoute.set(route, byMethod);
  }
  // JSON text and entity tags of the records answered, kept while the records live (taggedMemo, below).
  const records = taggedMemo();
  /** The request's operation, bound (the dispatch phase has answered unknown paths and methods). */
  const boundOf = (state: RequestState): Bound => byRoute.get(state.match!.route)!.get(state.operation!.method)!;

  const handle: Phase = (state, next) => {
    const { req } = state;
    const match = state.match!;
    const { op, handler, mock } = boundOf(state);
    const key = op.idempotencyKey ? req.get(IDEMPOTENCY_KEY) : undefined;
    // A write's preconditions go to the handler (the store applies them); a read's are applied by the write phase.
    const pre = op.conditional && op.method !== 'GET' ? preconditionsOf(req) : undefined;
    const input = toInput(req, match.route, match.params, op, pre, records.tag);
    // The service's own context, or a copy on the keyed operation's transaction store. The handler's own
    // promise is used as it is (Promise.resolve adds no step to a native promise).
    const run = (store: Store) => Promise.resolve(handler!(input, store === ctx.store ? ctx : { ...ctx, store }) as AnyResult | Promise<AnyResult>);
    const go = () => {
      // An operation with no handler (MOCK_UNIMPLEMENTED) answers from openapi.yaml (src/mock/rest.ts): it stores nothing, so it keeps no key.
      const answer = mock ? Promise.resolve(mock(req)) : key === undefined ? run(ctx.store) : once(ctx, ownedKey(key, state.principal), requestFingerprint(req.method, input.path, req.body), run);
      answer.then((outcome) => {
        state.outcome = outcome;
        next();
      }, next);
    };
    // A list longer than a batch is read once the connections coming in at this moment are in
    // (src/http/write-turns.ts); returned, so that a throw once started is answered as next(err).
    const held = op.answersList && !readAtOnce(listQuery(input.query as Record<string, unknown>)) ? options.turns.start() : undefined;
    if (held) return held.then(go);
    go();
  };

  // Not an async function: a list's writing goes on after this returns, and a suspended async function would
  // keep the outcome (the list's first batch with it) until the last byte is sent.
  const write: Phase = (state, next) => {
    const bound = boundOf(state);
    const pre = bound.op.conditional && bound.op.method === 'GET' ? preconditionsOf(state.req) : undefined;
    const answer: Answer = { res: state.res, bound, pre, head: state.match!.head === true, records, options };
    const outcome = state.outcome!;
    state.outcome = undefined;
    const written = writeResult(answer, outcome);
    if (written) written.then(undefined, next);
  };
  return { handle, write };
}

/**
 * Runs an operation at most once per Idempotency-Key (the store keeps the key's answer with the
 * operation's writes): the first answer again for the same request, 422 for another, 409 while running.
 */
async function once(ctx: RestContext, key: string, fingerprint: string, run: (store: Store) => Promise<AnyResult>): Promise<AnyResult> {
  const done = await ctx.store.idempotent({ key, fingerprint, ttlMs: ctx.idempotencyTtlMs }, run);
  switch (done.outcome) {
    case 'done':
      return done.answer;
    case 'replay':
      return { ...done.answer, headers: { ...done.answer.headers, 'Idempotent-Replayed': 'true' } };
    case 'mismatch':
      throw new ApiError(422, KEY_REUSED);
    case 'in-progress':
      throw new ApiError(409, KEY_IN_PROGRESS);
  }
}

/** The path parameters of the match, decoded (the validator has already refused malformed escapes). */
function pathParams(route: Route, raw: readonly string[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  route.paramNames.forEach((name, i) => {
    params[name] = decodeURIComponent(raw[i]);
  });
  return params;
}

/** The 400 for a parameter the validator let through as an integer that is not one, in the validator's words. */
function notInteger(location: 'params' | 'query', name: string): ApiError {
  return new ApiError(400, `Invalid request: ${location}/${name} must be integer`, [{ path: `/${location}/${name}`, message: 'must be integer' }]);
}

function toInput(req: Request, route: Route, raw: readonly string[], op: OperationInfo, pre: Preconditions | undefined, tag: Tagger): HandlerInput<OperationId> {
  const params = pathParams(route, raw);
  // The validator has checked these are integers in range, but it coerces with Number(), which also
  // takes `1e0`, `0x1`, `1.0` and ` 1`. Only decimal digits are an id; `01` is 1.
  for (const name of op.integerParams) {
    const raw = String(params[name]);
    if (!DECIMAL.test(raw)) {
      throw notInteger('params', name);
    }
    params[name] = Number(raw);
  }
  const query = (req.query ?? {}) as Record<string, unknown>;
  // The validator coerces `1e309` to Infinity and lets it through as an integer below any maximum (ajv);
  // no number in this contract is infinite.
  for (const name in query) {
    const value = query[name];
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw notInteger('query', name);
    }
  }
  return {
    params: params as never,
    query: query as never,
    body: req.body as never,
    // Mount path included, without a trailing slash, so links built from it are canonical (`/books/` is `/books`).
    path: (req.baseUrl + req.path).replace(/(.)\/+$/, '$1'),
    search: req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '',
    // Reads are checked below, on the body they answer; writes hand the check to the store (atomic).
    precondition: pre && op.method !== 'GET' ? writePrecondition(pre, tag) : undefined,
  };
}

/** One request's answer being written: where, for which operation, and what decides its tag. */
interface Answer {
  res: Response;
  bound: Bound;
  pre: Preconditions | undefined;
  head: boolean;
  records: RecordJson;
  options: WriteOptions;
}

/** Writes the answer (a list's writing goes on after this returns: the promise says when it has ended). */
function writeResult({ res, bound, pre, head, records, options }: Answer, result: AnyResult): Promise<void> | void {
  const { op, check } = bound;
  const { status, body } = result;
  const media = op.responseMedia[status];
  // The registrar's headers (Location, ETag) and the handler's go with the answer's head, in one block.
  const headers: Record<string, string> = {};
  if (op.locationStatuses.includes(status)) locate(res, body, headers);
  const tagged = body !== undefined && op.etagStatuses.includes(status);
  if (isListBody(body)) {
    const etag = tagged ? listEtag(options.representation, op.operationId, body.result.version, body.query) : undefined;
    if (etag && answeredByPrecondition(res, op, pre, etag, headers)) return;
    return writeJsonList(res, status, body.result, { head, turns: options.turns, checkItem: check?.item(status), headers: withHandlerHeaders(headers, result.headers), whole: records.list });
  }
  check?.body(status, body);
  if (body === undefined || !media) return sendEmpty(res, status, withHandlerHeaders(headers, result.headers));
  // Plain-text answers are one line, whatever a handler echoed back: the same rule as sendError's.
  if (media === 'text/plain') return sendText(res, status, TEXT_TYPE, oneLine(String(body)), withHandlerHeaders(headers, result.headers));
  const json = tagged ? records.tag(body) : { text: JSON.stringify(body), etag: undefined };
  if (json.etag && answeredByPrecondition(res, op, pre, json.etag, headers)) return;
  sendText(res, status, JSON_TYPE, json.text, withHandlerHeaders(headers, result.headers));
}

/**
 * The registrar's headers, then a handler's (a page's X-Total-Count and Link, a replay's): the later of the same
 * name wins (src/http/head.ts). Added to the registrar's object, made for this answer alone, rather than spread
 * into a new one, which is slower.
 */
function withHandlerHeaders(headers: Record<string, string>, handler: Readonly<Record<string, string>> | undefined): AnswerHeaders {
  return handler ? Object.assign(headers, handler) : headers;
}

/**
 * Adds the ETag of the representation about to be sent to its `headers` and applies a GET's preconditions to it
 * (HEAD runs as GET; RFC 9110 section 13.2.2): true when that answered the request (304), a 412 is thrown, false to go on.
 */
function answeredByPrecondition(res: Response, op: OperationInfo, pre: Preconditions | undefined, etag: string, headers: Record<string, string>): boolean {
  const verdict = pre && op.method === 'GET' ? evaluate(pre, etag, true) : 'pass';
  if (verdict === 'failed') throw preconditionFailed();
  headers.ETag = etag;
  if (verdict !== 'not-modified') return false;
  sendEmpty(res, 304, headers);
  return true;
}

/** Whether a handler's body is a ListBody (rather than the JSON value itself). */
function isListBody(body: unknown): body is ListBody<unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'result' in body && 'query' in body;
}

/** The `Location` of a created record, where its operation's spec declares one (added to `headers`): the request path and the record's id. */
function locate(res: Response, body: unknown, headers: Record<string, string>): void {
  const id = (body as { id?: unknown } | undefined)?.id;
  if (id === undefined || res.hasHeader('Location')) return;
  const req = res.req;
  headers.Location = `${(req.baseUrl + req.path).replace(/(.)\/+$/, '$1')}/${encodeURIComponent(String(id))}`;
}

/**
 * Conditional requests (RFC 9110 section 13) for the operations whose spec declares them: a strong
 * `ETag` (a record's: a hash of exactly the JSON body sent; a list's: a hash of its collection's version
 * and its page), `If-None-Match` (weak comparison, 304 on GET and HEAD) and `If-Match` (strong
 * comparison, 412). The write phase above applies them to a read; a write's handler only passes
 * `HandlerInput.precondition` to the store, which checks it atomically with the write.
 */

/** The request's precondition headers (absent ones undefined). */
export interface Preconditions {
  ifMatch?: string;
  ifNoneMatch?: string;
}

/** A JSON body serialised once, with its strong entity tag: the hash of exactly that text. */
export interface TaggedJson {
  text: string;
  etag: string;
}

/**
 * A strong entity tag for a JSON text: the hash of the bytes sent. Node's one-shot `hash` (no Hash object
 * per call): 276 ns against 820 ns for createHash().update().digest() on a book's JSON (a loop of 300,000
 * calls), and the tag is on every record answer.
 */
function etagOfText(text: string): string {
  return `"${hash('sha1', text, 'base64url')}"`;
}

export function etagOf(body: unknown): string {
  return etagOfText(JSON.stringify(body));
}

/** A function from a JSON body to its text and tag (`tagged`, or a memo of it). */
export type Tagger = (body: unknown) => TaggedJson;

export function tagged(body: unknown): TaggedJson {
  const text = JSON.stringify(body);
  return { text, etag: etagOfText(text) };
}

/** What `taggedMemo` remembers of a record: its JSON text, and its tag once the record is answered alone. */
interface Remembered {
  text: string;
  etag?: string;
}

/** The registrar's JSON of records: a body's text and tag, and a short list's text, each record serialised once (taggedMemo). */
export interface RecordJson {
  tag: Tagger;
  /** The JSON text of a list: the same text as `JSON.stringify(items)`. */
  list(items: readonly unknown[]): string;
}

/**
 * `tagged`, remembered for frozen flat records: the stores hand out their records frozen, with scalar
 * fields only, so such an object's JSON (and tag) can never change, and a record read again (the memory
 * store hands out the same object until it is written) is not serialised and hashed again. Anything
 * else (derived shapes, records with an object inside) is serialised anew each time. One memo per app
 * (the registrar's); its entries go with their records.
 *
 * A list written whole (src/http/json-stream.ts) is joined from its records' remembered texts, so a page read
 * again (the stores' committed cache hands out the same records until a write) is not serialised again either;
 * its records' tags are made only if one of them is answered alone. A list whose first item is no frozen flat
 * record (a store that keeps nothing) is one `JSON.stringify`, as before.
 */
export function taggedMemo(): RecordJson {
  const known = new WeakMap<object, Remembered>();
  /** A frozen flat record's entry (made on its first use), or undefined for any other value. */
  const remembered = (value: unknown): Remembered | undefined => {
    // A record found was frozen and flat when it was kept, and a frozen record cannot change since.
    let found = typeof value === 'object' && value !== null ? known.get(value) : undefined;
    if (found === undefined && isFrozenFlatRecord(value)) known.set(value, (found = { text: JSON.stringify(value) }));
    return found;
  };
  return {
    tag: (body) => {
      const found = remembered(body);
      if (found === undefined) return tagged(body);
      found.etag ??= etagOfText(found.text);
      return found as TaggedJson;
    },
    list: (items) => {
      const first = items.length === 0 ? undefined : remembered(items[0]);
      if (first === undefined) return JSON.stringify(items);
      let text = '[' + first.text;
      for (let i = 1; i < items.length; i++) {
        // What JSON.stringify makes of an array's item: a value with no JSON (undefined, a function) is null.
        text += ',' + (remembered(items[i])?.text ?? JSON.stringify(items[i]) ?? 'null');
      }
      return `${text}]`;
    },
  };
}

function isFrozenFlatRecord(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.isFrozen(value)) return false;
  for (const field of Object.values(value)) if (typeof field === 'object' && field !== null) return false;
  return true;
}

/**
 * The strong entity tag of a list answer, without its body: the collection's version (which every write
 * changes, src/store/types.ts ListResult), everything that selects the list (filters, sort, page, cursor), the operation, and `representation` (what
 * the service version and its spec make of a record: a deployment that changes them changes every tag).
 * The same for GET and HEAD; a write to the collection changes it. A list read in batches may show, in its
 * later batches, a write that landed while it was written: it keeps the tag of the version it began with, and
 * any request after that write gets a new one.
 */
export function listEtag(representation: string, operationId: string, version: string, query: ListQuery): string {
  return etagOfText(`${representation}\n${operationId}\n${version}\n${JSON.stringify(query)}`);
}

export function preconditionsOf(req: Request): Preconditions | undefined {
  const ifMatch = req.headers['if-match'];
  const ifNoneMatch = req.headers['if-none-match'];
  return ifMatch === undefined && ifNoneMatch === undefined ? undefined : { ifMatch, ifNoneMatch };
}

/** The entity tags of a header (`*` as itself); anything that is not an entity tag matches nothing. */
function tags(header: string): { opaque: string; weak: boolean }[] | '*' {
  if (header.trim() === '*') return '*';
  return [...header.matchAll(/(W\/)?("[^"]*")/g)].map((m) => ({ opaque: m[2], weak: m[1] !== undefined }));
}

/** RFC 9110 section 13.1.1 and 13.1.2: does `header` list `etag`? Strong comparison ignores weak tags. */
function listed(header: string, etag: string, strong: boolean): boolean {
  const list = tags(header);
  return list === '*' || list.some((tag) => tag.opaque === etag && !(strong && tag.weak));
}

export type Verdict = 'pass' | 'not-modified' | 'failed';

/**
 * RFC 9110 section 13.2.2, steps 1 and 3, against the current representation's tag: If-Match first
 * (412 when it fails), then If-None-Match (304 for GET and HEAD, 412 for a write).
 */
export function evaluate(pre: Preconditions, etag: string, safe: boolean): Verdict {
  if (pre.ifMatch !== undefined && !listed(pre.ifMatch, etag, true)) return 'failed';
  if (pre.ifNoneMatch !== undefined && listed(pre.ifNoneMatch, etag, false)) return safe ? 'not-modified' : 'failed';
  return 'pass';
}

export function writePrecondition(pre: Preconditions, tag: Tagger = tagged): Precondition {
  return (representation) => evaluate(pre, tag(representation).etag, false) === 'pass';
}

/** The 412 answer; the error handler writes it in the family's format. */
export function preconditionFailed(): ApiError {
  return new ApiError(412, 'Precondition failed: the current record does not match If-Match / If-None-Match');
}
