import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { printable, type Logger } from '../logger';
import type { RequestMetrics } from '../ops/metrics';
import { notFound } from './errors';
import { setWaitingHeaders, waitingHead } from './head';
import type { Next, Phase, RequestState } from './request-state';
import { originForm } from './routes';

/**
 * The path of a request through the service: these phases, in this order. Each is a small module, and each
 * reads and fills the request's state (./request-state.ts):
 *
 * - `route` (./routes.ts): the route table's match and the operation, once;
 * - `protect` (./security.ts): security headers, CORS, the rate limit, HTTP/1.1 message rules
 *   (and, with PostgreSQL, the signal that stops a request whose client left from waiting for storage, ./client-gone.ts);
 * - `dispatch` (./routes.ts): 404, OPTIONS, HEAD as GET, 405; the service's own routes (GraphQL, the docs, the
 *   metrics) are answered here by their handlers;
 * - `readBody` (./body.ts): a spec operation's JSON body, read and parsed once (415, 413, 400);
 * - `validate`: every request against openapi.yaml (express-openapi-validator, ./validate.ts);
 * - `handle` (src/rest/registrar.ts): typed input, the Idempotency-Key, the operation's handler;
 * - `write` (src/rest/registrar.ts): the handler's answer: ETag, 304/412, status, headers, body.
 */
export const PHASES = ['route', 'protect', 'dispatch', 'readBody', 'validate', 'handle', 'write'] as const;

export type PhaseName = (typeof PHASES)[number];

/** What the service does in each phase: one step, or a few run in order. */
export type Phases = Record<PhaseName, Phase | readonly Phase[]>;

/**
 * Runs `steps` in order, each through `call(step, next)`: `next()` goes on to the following step, and `next(err)`,
 * a throw or a returned promise that rejects skips the rest and goes to `done(err)`; after the last, `done()`.
 * The one runner of both the phases and the middlewares run as one (`chain`).
 */
function inOrder<S>(steps: readonly S[], call: (step: S, next: Next) => unknown, done: Next): void {
  let index = 0;
  const next: Next = (err) => {
    if (err !== undefined && err !== null) return done(err);
    if (index === steps.length) return done();
    try {
      const returned = call(steps[index++], next);
      if (returned instanceof Promise) returned.then(undefined, (error: unknown) => done(error ?? new Error('rejected')));
    } catch (error) {
      done(error);
    }
  };
  next();
}

/** Middlewares run in order as one, with express's semantics (`next(err)` skips the rest; a throw or a rejection is `next(err)`). */
export function chain(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0];
  return (req: Request, res: Response, next: NextFunction) => inOrder(handlers, (handler, step) => handler(req, res, step), next);
}

export interface RunOptions {
  logger: Logger;
  metrics?: RequestMetrics;
  /** Called with the first request of each connection (the write turns make their next turn short, src/http/write-turns.ts). */
  connected?: () => void;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The fields of the one line every request writes, at level info, message "request". */
export interface RequestLogFields {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  aborted: boolean;
  /** The principal's `sub`, when the request's token was checked (src/http/auth.ts), as `printable` (src/logger.ts) writes it. */
  sub?: string;
}

/**
 * The per-request line, written by the service's logger with `requestId` first among its fields: the same bytes
 * as the request's child logger writes (a child's bindings come first), without making a child for a request
 * that logs nothing else. `aborted` only when true.
 */
export function logRequest(logger: Logger, requestId: string, { method, path, status, durationMs, aborted, sub }: RequestLogFields): void {
  if (!logger.isLevelEnabled('info')) return;
  const line: Record<string, unknown> = { requestId, method, path, status, durationMs };
  if (sub !== undefined) line.sub = sub;
  if (aborted) line.aborted = aborted;
  logger.info(line, 'request');
}

/**
 * The service as one express middleware: each request gets its state, then goes through the phases in the
 * order of PHASES. Anything passed to `next` or thrown on the way goes to express's next error handler (the
 * service's own, `errors` beside it, after any of yours); a request no route answers is a 404 error.
 *
 * As the request enters: an absolute-form target becomes its path (./routes.ts originForm); the first request of a
 * connection is told to `connected`; the request's id
 * (the client's `X-Request-Id` when it is sane, else a new UUID) goes back in `X-Request-Id`; its logger adds
 * the id to every line; one line is logged when the response closes (Node emits `close` once per response,
 * after `finish` when it was sent and alone when the client went away: `aborted`), and the same start and end
 * feed the metrics, when they are on.
 */
export function runPhases(phases: Phases, { logger, metrics, connected }: RunOptions): RequestHandler {
  const steps = PHASES.flatMap((name) => phases[name]);
  const seen = new WeakSet<object>();
  return (req: Request, res: Response, next: NextFunction) => {
    originForm(req);
    if (connected && !seen.has(req.socket)) {
      seen.add(req.socket);
      connected();
    }
    const state = begin(req, res, logger, metrics);
    inOrder(steps, (phase, step) => phase(state, step), (err?: unknown) => {
      // Whatever answers from here (an error handler, yours or the service's) sets headers one at a time.
      setWaitingHeaders(state);
      next(err ?? notFound(req));
    });
  };
}

/**
 * A request's state, a class so that every request's state has one shape (an object literal with a getter does
 * not keep V8's fast properties). Its child logger is made when something asks for it: most requests write only
 * the request line, which the service's logger writes (logRequest).
 */
class State implements RequestState {
  match: RequestState['match'] = undefined;
  operation: RequestState['operation'] = undefined;
  principal: RequestState['principal'] = undefined;
  body: unknown = undefined;
  outcome: RequestState['outcome'] = undefined;
  head: RequestState['head'] = undefined;
  private child: Logger | undefined = undefined;

  constructor(
    readonly req: Request,
    readonly res: Response,
    readonly requestId: string,
    private readonly logger: Logger,
  ) {}

  get log(): Logger {
    return (this.child ??= this.logger.child({ requestId: this.requestId }));
  }
}

function begin(req: Request, res: Response, logger: Logger, metrics: RequestMetrics | undefined): RequestState {
  const started = performance.now();
  metrics?.started();
  const given = req.headers['x-request-id'];
  const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  const state = new State(req, res, requestId, logger);
  res.locals.state = state;
  state.head = waitingHead(res, ['X-Request-Id', requestId]);
  const method = req.method;
  const path = req.path;
  res.once('close', () => {
    const elapsedMs = performance.now() - started;
    metrics?.finished(method, path, res.statusCode, elapsedMs / 1000, res);
    const sub = state.principal ? printable(state.principal.subject) : undefined;
    logRequest(logger, requestId, { method, path, status: res.statusCode, durationMs: Math.round(elapsedMs * 1000) / 1000, aborted: !res.writableFinished, sub });
  });
  return state;
}
