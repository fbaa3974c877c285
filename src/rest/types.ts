import type { operations } from '../../generated/openapi';
import type { Logger } from '../logger';
import type { Lifecycle } from '../ops/health';
import type { ListQuery } from '../store/query';
import type { ListResult, Store } from '../store/types';

/** Every operationId in openapi.yaml. */
export type OperationId = keyof operations;

type Op<O extends OperationId> = operations[O];

/** The body of a JSON media type (`application/json`, or a JSON merge patch for PATCH). */
type JsonContent<C> = C extends { 'application/json': infer B } ? B : C extends { 'application/merge-patch+json': infer B } ? B : undefined;

/** The JSON request body of an operation (undefined when it takes none). */
export type Body<O extends OperationId> = Op<O> extends { requestBody: { content: infer C } }
  ? JsonContent<C>
  : Op<O> extends { requestBody?: { content: infer C } }
    ? JsonContent<C> | undefined
    : undefined;

/** Path parameters, already converted to the types the spec declares (ids are numbers). */
export type PathParams<O extends OperationId> = Op<O>['parameters'] extends { path: infer P } ? P : Record<string, never>;

/** Query parameters, already coerced and validated by express-openapi-validator. */
export type QueryParams<O extends OperationId> = Op<O>['parameters'] extends { query?: infer Q }
  ? NonNullable<Q> extends never
    ? Record<string, never>
    : NonNullable<Q>
  : Record<string, never>;

type ResponsesOf<O extends OperationId> = Op<O>['responses'];

/**
 * A list answer as the store reads it: the query (filters, sort, page) and the store's result for it. The registrar
 * writes it batch by batch (src/http/json-stream.ts) and tags it from the collection's version, so a
 * list is never serialised whole, nor held whole when the store reads it in batches.
 */
export interface ListBody<T> {
  readonly query: ListQuery;
  readonly result: ListResult<T>;
}

/** A JSON body of the spec's type; an array may also be given as the ListBody of its items. */
type JsonBody<J> = J extends readonly (infer E)[] ? J | ListBody<E> : J;

/** The body the spec declares for one status of an operation (JSON or plain text), or undefined for none. */
export type ResponseBody<O extends OperationId, S extends keyof ResponsesOf<O>> = ResponsesOf<O>[S] extends {
  content: infer C;
}
  ? C extends { 'application/json': infer J }
    ? JsonBody<J>
    : C extends { 'text/plain': infer T }
      ? T
      : never
  : undefined;

/** What a handler returns: one of the statuses the spec declares for it, with that status's body type. */
export type HandlerResult<O extends OperationId> = {
  [S in keyof ResponsesOf<O> & number]: {
    status: S;
    headers?: Record<string, string>;
  } & (ResponseBody<O, S> extends undefined ? { body?: undefined } : { body: ResponseBody<O, S> });
}[keyof ResponsesOf<O> & number];

/** A predicate on the representation a GET would answer: what a write hands its store as `expect` (src/rest/registrar.ts). */
export type Precondition = (representation: unknown) => boolean;

/** What a handler receives: validated, typed request data; never the Express request. */
export interface HandlerInput<O extends OperationId> {
  params: PathParams<O>;
  query: QueryParams<O>;
  body: Body<O>;
  /** The request path, for building links (pagination, Location). */
  path: string;
  /** The request's query string (without `?`), for links that keep its parameters. */
  search: string;
  /**
   * On a write whose request carries If-Match / If-None-Match: a predicate on the representation a GET
   * would answer. Handlers pass it to the store's `update` / `delete` as `expect` (mapped through their
   * REST shape) and answer `preconditionFailed()` for STALE. Undefined otherwise.
   */
  precondition?: Precondition;
}

/** The dependencies a handler may use. */
export interface RestContext {
  store: Store;
  logger: Logger;
  version: string;
  lifecycle: Lifecycle;
  /** Longest wait for storage in the health checks (HEALTH_TIMEOUT_MS). */
  healthTimeoutMs: number;
  /** How long answers to requests with an Idempotency-Key are kept. */
  idempotencyTtlMs: number;
}

export type Handler<O extends OperationId> = (
  input: HandlerInput<O>,
  ctx: RestContext,
) => Promise<HandlerResult<O>> | HandlerResult<O>;

/** One handler per operationId: a missing or misspelled operation is a compile error. */
export type Handlers = { [O in OperationId]: Handler<O> };
