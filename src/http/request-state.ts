import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { Logger } from '../logger';
import type { HeaderList } from './head';
import type { OperationInfo, Route } from './spec-routes';

/** A request's route and its path parameters (raw, as in the path), found once per request by the route phase. */
export interface RouteMatch {
  route: Route;
  /** Capture groups of a templated route, in `route.paramNames` order. */
  params: readonly string[];
  /** The request is a HEAD, which runs as the GET (`req.method` says GET from the dispatch phase on). */
  head?: boolean;
}

/** Who sent the request: a verified bearer token's `sub` and the scopes of its `scope` claim (src/http/auth.ts). */
export interface Principal {
  readonly subject: string;
  readonly scopes: ReadonlySet<string>;
}

/** What a handler answered, handed from the `handle` phase to the `write` phase. */
export interface Outcome {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * Everything the service knows about one request, made once when it enters the service (./phases.ts) and handed
 * to every phase. Each field is filled by the phase named beside it; a phase reads only what earlier phases filled.
 */
export interface RequestState {
  readonly req: Request;
  readonly res: Response;
  /** The request's id (`X-Request-Id`: the client's when it is sane, else a new UUID). */
  readonly requestId: string;
  /** The request's logger: every line it writes carries `requestId` (a child of the service's logger, made on first use). */
  readonly log: Logger;
  /** route: the route table's match; undefined when no route answers the path (the dispatch phase's 404). */
  match: RouteMatch | undefined;
  /** route: the spec operation the request is for (HEAD runs as GET); undefined for the service's own routes. */
  operation: OperationInfo | undefined;
  /** protect: who sent the request, when auth is on and the request's token was checked (src/http/auth.ts); else undefined. */
  principal: Principal | undefined;
  /** readBody: the parsed JSON body (also `req.body`, where the validator reads it); undefined when none was sent. */
  body: unknown;
  /** handle: the handler's answer, written by the write phase. */
  outcome: Outcome | undefined;
  /**
   * The headers every answer to this request carries (the request id; the protect phase's), waiting to be written
   * with the answer's head in one block; undefined once they are set on the response, or when they never waited
   * (./head.ts).
   */
  head: HeaderList[] | undefined;
}

/** Passes control to the next phase, or (with an error) to the service's error handler. */
export type Next = (err?: unknown) => void;

/** One phase of the path of a request (./phases.ts): reads and fills the request's state, then calls `next`, or answers. */
export type Phase = (state: RequestState, next: Next) => unknown;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The service's state of this request (./request-state.ts), from the moment it entered the service. */
      state?: RequestState;
      /** The request's logger (`state.log`), for code that has the response only. */
      log?: Logger;
    }
  }
}

/**
 * The state of a request the service has seen (undefined before it entered the service, e.g. in a route of yours),
 * from its response: express's, or any Node response (one express never saw has none).
 */
export function stateOf(res: ServerResponse): RequestState | undefined {
  return (res as Partial<Response>).locals?.state;
}
