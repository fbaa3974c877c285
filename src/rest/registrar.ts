import type { Request, RequestHandler, Response } from 'express';
import { ApiError, oneLine } from '../http/errors';
import { IDEMPOTENCY_KEY, KEY_IN_PROGRESS, KEY_REUSED, requestFingerprint } from '../http/idempotency';
import { matchOf, type OperationInfo, type Route, type RouteTable } from '../http/routes';
import type { Store } from '../store/types';
import { etagMemo, evaluate, preconditionFailed, preconditionsOf, writePrecondition, type EtagOf, type Preconditions } from './conditional';
import type { HandlerInput, Handlers, OperationId, RestContext } from './types';

type AnyHandler = (input: HandlerInput<OperationId>, ctx: RestContext) => unknown;
const DECIMAL = /^[0-9]+$/;

interface AnyResult {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

interface Bound {
  route: Route;
  op: OperationInfo;
  handler: AnyHandler;
}

/**
 * The one place that turns an Express request into typed handler input and a handler's result
 * into the HTTP response. Handlers never see `req` or `res`.
 *
 * One middleware, mounted after the validator: the route table has matched the request once (the match
 * travels on the request, with the raw path parameters), so dispatch is one map lookup by route and
 * method. Path parameters are the raw ones from the match (the validator's copies are already
 * coerced: `1e0` would pass as 1).
 *
 * Conditional requests (src/rest/conditional.ts) live here too, for every operation whose spec declares
 * them: the ETag of the body written, 304/412 for a GET, and the write precondition handed to the handler.
 */
export function restRouter(routes: RouteTable, handlers: Handlers, ctx: RestContext): RequestHandler {
  const byRoute = new Map<Route, Map<string, Bound>>();
  for (const route of routes.routes) {
    if (route.handler) continue;
    const byMethod = new Map<string, Bound>();
    for (const op of Object.values(route.operations)) {
      const handler = handlers[op.operationId as OperationId] as AnyHandler | undefined;
      if (!handler) throw new Error(`openapi.yaml operation ${op.operationId} has no handler`);
      byMethod.set(op.method, { route, op, handler });
    }
    byRoute.set(route, byMethod);
  }
  // Entity tags of the records answered, kept while the records live (src/rest/conditional.ts).
  const etagFor = etagMemo();
  return (req, res, next) => {
    // The route table has answered unknown paths and methods: a spec operation is bound here.
    const match = matchOf(req)!;
    const { op, handler } = byRoute.get(match.route)!.get(req.method)!;
    const key = op.idempotencyKey ? req.get(IDEMPOTENCY_KEY) : undefined;
    const pre = op.conditional ? preconditionsOf(req) : undefined;
    let answer: Promise<AnyResult>;
    try {
      const input = toInput(req, match.route, match.params, op, pre, etagFor);
      // The service's own context, or a copy on the keyed operation's transaction store. The handler's own
      // promise is used as it is (Promise.resolve adds no step to a native promise).
      const run = (store: Store) => Promise.resolve(handler(input, store === ctx.store ? ctx : { ...ctx, store }) as AnyResult | Promise<AnyResult>);
      answer = key === undefined ? run(ctx.store) : once(ctx, key, requestFingerprint(req.method, input.path, req.body), run);
    } catch (error) {
      return next(error);
    }
    answer.then((result) => writeResult(res, op, result, pre, etagFor)).then(undefined, next);
  };
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

function toInput(
  req: Request,
  route: Route,
  raw: readonly string[],
  op: OperationInfo,
  pre: Preconditions | undefined,
  etagFor: EtagOf,
): HandlerInput<OperationId> {
  const params = pathParams(route, raw);
  // The validator has checked these are integers in range, but it coerces with Number(), which also
  // takes `1e0`, `0x1`, `1.0` and ` 1`. Only decimal digits are an id; `01` is 1.
  for (const name of op.integerParams) {
    const raw = String(params[name]);
    if (!DECIMAL.test(raw)) {
      throw new ApiError(400, `Invalid request: params/${name} must be integer`, [{ path: `/params/${name}`, message: 'must be integer' }]);
    }
    params[name] = Number(raw);
  }
  return {
    params: params as never,
    query: (req.query ?? {}) as never,
    body: req.body as never,
    // Without a trailing slash, so links built from it are canonical (`/books/` is served as `/books`).
    path: (req.baseUrl + req.path).replace(/(.)\/+$/, '$1'),
    // Reads are checked below, on the body they answer; writes hand the check to the store (atomic).
    precondition: pre && op.method !== 'GET' ? writePrecondition(pre, etagFor) : undefined,
  };
}

function writeResult(res: Response, op: OperationInfo, result: AnyResult, pre: Preconditions | undefined, etagFor: EtagOf): void {
  const media = op.responseMedia[result.status];
  if (result.body !== undefined && op.etagStatuses.includes(result.status)) {
    const etag = etagFor(result.body);
    // GET (and HEAD, which runs as GET): RFC 9110 section 13.2.2 on the representation about to be sent.
    const verdict = pre && op.method === 'GET' ? evaluate(pre, etag, true) : 'pass';
    if (verdict === 'failed') throw preconditionFailed();
    res.setHeader('ETag', etag);
    if (verdict === 'not-modified') {
      res.status(304).end();
      return;
    }
  }
  if (result.headers) res.set(result.headers);
  if (result.body === undefined || !media) {
    res.status(result.status).end();
  } else if (media === 'text/plain') {
    // Plain-text answers are one line, whatever a handler echoed back: the same rule as sendError's.
    res.status(result.status).type('text/plain; charset=utf-8').send(oneLine(String(result.body)));
  } else {
    res.status(result.status).json(result.body);
  }
}
