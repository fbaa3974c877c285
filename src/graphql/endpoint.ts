import { cursorArguments, cursorVariableErrors, cursorVariables } from './cursors';
import type { Request, RequestHandler } from 'express';
import { GraphQLError, getOperationAST, type ExecutionResult } from 'graphql';
import { createHandler, type Handler, type Request as GraphqlHttpRequest, type RequestParams, type Response as GraphqlHttpResponse } from 'graphql-http';
import type { Resolvers } from '../../generated/graphql';
import type { AuthSettings, Config } from '../config';
import { BUSY_MESSAGE } from '../http/errors';
import { IDEMPOTENCY_KEY, type KeyRule } from '../http/idempotency';
import { operationMethod } from '../http/routes';
import type { Logger } from '../logger';
import { NO_GRAPHQL_METRICS, type GraphqlMetrics, type RefusalReason } from '../ops/metrics';
import type { Store } from '../store/types';
import type { TextLimits } from '../text-rule';
import { createContext, type GraphQLContext } from './context';
import { documentPreparer } from './document-cache';
import { createExecutor } from './execution';
import { writeJsonValue } from '../http/json-stream';
import type { WriteTurns } from '../http/write-turns';
import { stateOf } from '../http/request-state';
import { JSON_TYPE, sendText } from '../http/send';
import { graphqlRefusalBody, refusalOf } from '../http/auth';
import type { Principal } from '../http/request-state';
import { operationScopes } from './scopes';
import { idempotentMutations } from './idempotent-mutations';
import { LargeAnswers, NO_TURN, type ResultBudget } from './large-answers';
import { aliasLimit, depthLimit } from './limits';
import { errorMasking } from './masking';
import { buildSchema, type SchemaOptions } from './schema';
import { codedError, requestParamsReader, transportError, withTransportBody } from './transport';

export interface GraphqlEndpointDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** Overridable for tests; the real resolvers otherwise. */
  resolvers?: Resolvers;
  /** schema.graphql's text, and the fields with no resolver to answer with mocked values (src/graphql/schema.ts). */
  schemaOptions?: SchemaOptions;
  /** Where compiled, refused and executed documents are counted; nothing is counted without it. */
  metrics?: GraphqlMetrics;
  /** Which Idempotency-Key values a keyed mutation takes: openapi.yaml's rule (src/http/idempotency.ts). */
  idempotencyKey: KeyRule;
  /** The app's share of the event loop between answers written in chunks (src/http/write-turns.ts). */
  turns: WriteTurns;
  /** With auth on, each operation's field scopes (`@requiresScopes`) are checked before anything runs (./scopes.ts). */
  auth?: AuthSettings;
  /** The contract's text rule and limit, from openapi.yaml (src/text-rule.ts), for the resolvers' text arguments. */
  text: TextLimits;
}

/** A POST's Idempotency-Key; a blank one is no key, as for REST's optional header parameters (routePhase in src/http/routes.ts). */
function keyOf(req: Request): string | undefined {
  const key = req.get(IDEMPOTENCY_KEY);
  return key?.trim() === '' ? undefined : key;
}

/** Per-request state the graphql-http hooks share (graphql-http's `Request.context`). */
type HookContext = {
  /** The request's logger (its lines carry the request id). */
  log: Logger;
  /** The store the resolvers use: the service's, or a keyed mutation's transaction. */
  store: Store;
  /** What the result holds, its turn if it is a large answer, and its refusal (src/graphql/large-answers.ts). */
  budget: ResultBudget;
  /**
   * A keyed POST's parameters, read before the handler was called to tell a keyed mutation: the handler takes
   * them as they came (the parameters, the answer refusing them, or graphql-http's own error, a 400).
   */
  params?: Promise<RequestParams | GraphqlHttpResponse>;
  /** The result, when the operation ran and it has data and no errors: the endpoint writes it (see `answerOf`). */
  result?: ExecutionResult;
};

type HookRequest = GraphqlHttpRequest<Request, HookContext>;

/**
 * What `onOperation` hands graphql-http for a clean result, which the endpoint writes itself: graphql-http
 * answers it as any result (200, and the media type it negotiated) without serialising the result.
 */
const WRITTEN_BY_ENDPOINT: ExecutionResult = {};

/**
 * Brackets a document may nest beyond the depth limit before it is refused unparsed: variable
 * definitions, list and object arguments and inline fragments nest without adding field depth.
 */
const NESTING_ALLOWANCE = 20;

/** graphql-http's headers of an answer (lower-case names), and its `content-type` among them, as the writers take them. */
function headOf(init: GraphqlHttpResponse[1]): [type: string, headers: Record<string, string> | undefined] {
  const headers = init.headers as Record<string, string> | undefined;
  return [headers?.['content-type'] ?? '', headers];
}

/** Which limit refused a document (from the first error's code), for the metrics; `invalid` for any other error. */
const REFUSAL_BY_CODE: Record<string, RefusalReason> = { QUERY_TOO_DEEP: 'depth', TOO_MANY_ALIASES: 'aliases', TOO_MANY_TOKENS: 'tokens' };

function refusalReason(errors: readonly GraphQLError[]): RefusalReason {
  return REFUSAL_BY_CODE[String(errors[0]?.extensions?.code)] ?? 'invalid';
}

/**
 * GraphQL over HTTP at one path: graphql-http decides methods, media types, status codes and the steps
 * (the 406, parameters, the operation, the 405, execution, the answer); this service gives it its parts and
 * writes its answers:
 * - `parseRequestParams`: the body limit, charset and encoding of the shared reader, and this
 *   service's transport error body (transport.ts);
 * - `onSubscribe`: the document from a bounded cache of valid documents (document-cache.ts: the token and
 *   nesting limits at parsing, the standard rules and the depth and alias limits at validation, limits.ts),
 *   which graphql-http then neither parses nor validates, and the resolvers' context on the request's store
 *   (a keyed mutation's transaction);
 * - `execute`: hot queries compiled (execution.ts);
 * - `onOperation`: metrics per operation, the result's bounds (a result the budget refused while it was
 *   built is answered with its refusal: RESULT_TOO_LARGE, or 503 for a large answer with no turn),
 *   logging of unexpected errors, the 4xx for an `application/graphql-response+json` response without
 *   `data` (graphql-http answers 200 there), and clean results kept for the endpoint to write;
 * - `formatError`: masking of unexpected errors (masking.ts).
 *
 * graphql-http's handler is called once per request. A POST mutation with an Idempotency-Key is told
 * apart before the call (its parameters read and its document prepared first), and its one call runs
 * inside the key's transaction (idempotent-mutations.ts), its resolvers on that transaction's store.
 *
 * The endpoint writes every answer: graphql-http's status and headers, and its body, except for a clean
 * result, which graphql-http serialises with a replacer function called for every value (to hide
 * non-GraphQL Error objects, which a result without errors does not hold): the endpoint serialises it
 * with a plain `JSON.stringify`, or, for a large answer, in chunks as the client reads it
 * (src/http/json-stream.ts). docs/maintainers/design.md ("GraphQL execution") says what that saves.
 */
export function graphqlEndpoint({ store, config, logger, resolvers, schemaOptions, metrics = NO_GRAPHQL_METRICS, idempotencyKey, turns, auth, text }: GraphqlEndpointDeps): RequestHandler {
  const schema = buildSchema(resolvers, schemaOptions);
  const { maxDepth, maxAliases, maxTokens, documentCacheSize, compiledCacheSize, compileAfter } = config.graphql;
  const limits = [depthLimit(maxDepth), aliasLimit(maxAliases), cursorArguments];
  const cursorsOf = cursorVariables(schema);
  const documents = documentPreparer(schema, limits, { maxTokens, maxNesting: maxDepth + NESTING_ALLOWANCE, cacheSize: documentCacheSize });
  metrics.cachedDocuments(() => documents.cache.size);
  // Hot queries run compiled; graphql-js answers everything else, and any result with errors.
  const executor = createExecutor(schema, {
    cacheSize: compiledCacheSize,
    compileAfter,
    onCompiled: (operationName) => {
      metrics.compiled();
      logger.debug({ operationName }, 'graphql operation compiled');
    },
  });
  const masking = errorMasking(schema);
  const busy = () => codedError(503, BUSY_MESSAGE, 'SERVER_BUSY', { 'retry-after': '1' });
  const readParams = requestParamsReader(config, metrics);
  const once = idempotentMutations(store, config.idempotencyTtlMs, idempotencyKey);
  const scopesOf = auth ? operationScopes(schema, auth) : undefined;

  /**
   * With auth on: the refusal of a request whose operation needs scopes its principal (the protect phase's,
   * src/http/auth.ts) lacks, as a GraphQL error with code UNAUTHENTICATED (401) or FORBIDDEN (403); undefined
   * when it may run, or when its parameters or document are refused anyway (graphql-http answers them, nothing runs).
   */
  const refusalFor = async (request: HookRequest, principal: Principal | undefined): Promise<GraphqlHttpResponse | undefined> => {
    if (!scopesOf) return undefined;
    const params = await (request.context.params ??= readParams(request)).catch(() => undefined);
    if (params === undefined || Array.isArray(params)) return undefined;
    const { query, operationName } = params as RequestParams;
    const document = documents.prepare(query);
    if (!('kind' in document)) return undefined;
    const refusal = refusalOf(principal, scopesOf(document, operationName) ?? []);
    if (!refusal) return undefined;
    return [graphqlRefusalBody(refusal), { status: refusal.status, statusText: '', headers: { 'content-type': JSON_TYPE, 'www-authenticate': refusal.challenge } }];
  };
  const largeAnswers = new LargeAnswers({
    maxItems: config.graphql.maxResultItems,
    slots: config.graphql.maxLargeAnswers,
    waitMs: config.graphql.largeAnswerWaitMs,
  });

  const handle: Handler<Request, HookContext> = createHandler<Request, HookContext, GraphQLContext>({
    schema,
    // The document, from the preparer's cache of valid documents (parsed within the token and nesting limits, validated
    // with the standard rules and the limits), and the resolvers' context: graphql-http then skips its own parse and validate.
    onSubscribe: (req, params) => {
      const document = documents.prepare(params.query);
      if (!('kind' in document)) {
        metrics.refused(refusalReason(document));
        return document;
      }
      const { store: requestStore, log, budget } = req.context;
      const contextValue = createContext(requestStore, log, budget, text);
      return { schema, document, operationName: params.operationName, variableValues: params.variables, rootValue: undefined, contextValue };
    },
    // A variable given as a connection's `after` that is no cursor of this service: refused as a variable that does not coerce, nothing run.
    execute: (args) => {
      const refused = cursorVariableErrors(cursorsOf(args.document), args.variableValues);
      return refused.length > 0 ? { errors: refused } : executor.execute(args);
    },
    formatError: masking.formatError,
    parseRequestParams: (req) => req.context.params ?? readParams(req),
    onOperation: (req, args, result) => {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation) metrics.executed(req.raw.res, operation.operation, operation.name?.value);
      // The result's bounds, checked as it was built (src/graphql/large-answers.ts): a refused result is
      // answered with its refusal, before any of it is written. No turn for a large answer: 503.
      const { refusal } = req.context.budget;
      if (refusal === NO_TURN) return busy();
      if (refusal) return { data: null, errors: [refusal] };
      masking.logUnexpected(result.errors, req.context.log);
      // No data (variables that do not coerce): handed back as a list of GraphQL errors, which graphql-http
      // answers as a request error, 400 for application/graphql-response+json (200 for application/json).
      if (!('data' in result) && result.errors?.length) return result.errors as unknown as ExecutionResult;
      if (result.errors !== undefined) return result;
      req.context.result = result;
      return WRITTEN_BY_ENDPOINT;
    },
  });

  /** graphql-http's answer with its body: this service's transport error body, or the clean result it ran. */
  const answerOf = (response: GraphqlHttpResponse, context: HookContext): GraphqlHttpResponse => {
    const { result } = context;
    return result ? [JSON.stringify(result), response[1]] : withTransportBody(response);
  };

  /** Whether a POST's parameters name a mutation (of a valid document): only those run once per key. */
  const isMutation = (params: RequestParams | GraphqlHttpResponse | undefined): params is RequestParams => {
    if (params === undefined || Array.isArray(params)) return false;
    const document = documents.prepare((params as RequestParams).query);
    return 'kind' in document && getOperationAST(document, (params as RequestParams).operationName)?.operation === 'mutation';
  };

  return (req, res) => {
    const log = stateOf(res)?.log ?? logger;
    const budget = largeAnswers.budget();
    // The request's turn (if its answer is large) lasts until its answer is written or its connection closes.
    res.once('close', () => budget.done());
    const head = req.method === 'HEAD';
    const request: HookRequest = {
      // HEAD works wherever GET does: it runs as the GET, and Node sends the headers without the body.
      method: operationMethod(req.method),
      url: req.originalUrl,
      headers: req.headers,
      body: null,
      raw: req,
      context: { log, store, budget },
    };
    const send = ([body, init]: GraphqlHttpResponse): void => {
      const [type, headers] = headOf(init);
      // Written with its length, so Node sends the headers and the body in one write.
      sendText(res, init.status, type, body ?? '', headers);
    };
    const write = async (response: GraphqlHttpResponse): Promise<void> => {
      const { result } = request.context;
      // A large answer holds its turn by now (src/graphql/large-answers.ts): it is written in chunks.
      if (!result || !budget.large) return send(answerOf(response, request.context));
      const [, init] = response;
      const [type, headers] = headOf(init);
      return writeJsonValue(res, init.status, type, result, { head, turns, headers });
    };
    const failed = (error: unknown) => {
      log.error({ error }, 'graphql request failed');
      if (res.headersSent) res.destroy();
      else send(transportError(500));
    };
    const key = req.method === 'POST' ? keyOf(req) : undefined;
    /** The one call of graphql-http's handler; for a keyed mutation, inside its key's transaction. */
    const answer = async (): Promise<void> => {
      // With auth off, nothing is checked (and no promise is awaited).
      if (scopesOf) {
        const refused = await refusalFor(request, stateOf(res)?.principal);
        if (refused) return send(refused);
      }
      if (key !== undefined) {
        const reading = (request.context.params ??= readParams(request));
        const params = await reading.catch(() => undefined);
        if (isMutation(params)) {
          return send(
            await once({
              key,
              principal: stateOf(res)?.principal,
              params,
              log,
              answer: async (tx) => {
                const context: HookContext = { ...request.context, store: tx };
                const response = await handle({ ...request, context });
                return { response: answerOf(response, context), kept: response[1].status === 200 && context.result !== undefined };
              },
            }),
          );
        }
      }
      // graphql-http's own 406 (unacceptable Accept) comes before any hook, with no body.
      return write(await handle(request));
    };
    answer().then(undefined, failed);
  };
}
