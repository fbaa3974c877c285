import type { Request, RequestHandler } from 'express';
import { getOperationAST, type ExecutionResult, type GraphQLError, type OperationDefinitionNode } from 'graphql';
import { createHandler, type Handler, type Request as GraphqlHttpRequest, type RequestParams, type Response as GraphqlHttpResponse } from 'graphql-http';
import type { Resolvers } from '../../generated/graphql';
import type { Config } from '../config';
import { IDEMPOTENCY_KEY, type KeyRule } from '../http/idempotency';
import { operationMethod } from '../http/routes';
import type { Logger } from '../logger';
import { NO_GRAPHQL_METRICS, type GraphqlMetrics, type RefusalReason } from '../ops/metrics';
import type { Store } from '../store/types';
import { createContext, type GraphQLContext } from './context';
import { documentPreparer } from './document-cache';
import { createExecutor } from './execution';
import { writeJsonValue } from '../http/json-stream';
import type { WriteTurns } from '../http/write-turns';
import { sendText } from '../http/send';
import { idempotentMutations } from './idempotent-mutations';
import { LargeAnswers, LargeAnswersBusy, type ResultBudget } from './large-answers';
import { aliasLimit, depthLimit } from './limits';
import { BUSY_MESSAGE, errorMasking } from './masking';
import { plainResult } from './plain-result';
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
}

/** A POST's Idempotency-Key; a blank one is no key, as for REST's optional header parameters (src/http/empty-headers.ts). */
function keyOf(req: Request): string | undefined {
  const key = req.get(IDEMPOTENCY_KEY);
  return key?.trim() === '' ? undefined : key;
}

/** Per-request state the graphql-http hooks share. */
type HookContext = {
  /** The request's logger (its lines carry the request id). */
  log: Logger;
  /** The store the resolvers use: the service's, or an idempotent mutation's transaction. */
  store: Store;
  /** A POST's Idempotency-Key; unset on the inner run that answers the keyed mutation. */
  idempotencyKey?: string;
  /** The parameters already parsed (the inner run of a keyed mutation reads no body). */
  params?: RequestParams;
  /** Set when the operation ran and its result had data and no errors: only such an answer is kept under a key. */
  clean: boolean;
  /** What the result holds, and its turn if it is a large answer (src/graphql/large-answers.ts). */
  budget: ResultBudget;
  /** The operation the document and operationName select, found once (onSubscribe) for onOperation. */
  operation?: OperationDefinitionNode;
  /** A clean result too large to serialise in one step: written in chunks as the client reads it. */
  large?: ExecutionResult;
};

type HookRequest = GraphqlHttpRequest<Request, HookContext>;

/**
 * Brackets a document may nest beyond the depth limit before it is refused unparsed: variable
 * definitions, list and object arguments and inline fragments nest without adding field depth.
 */
const NESTING_ALLOWANCE = 20;

/** Which limit refused a document (from the first error's code), for the metrics; `invalid` for any other error. */
const REFUSAL_BY_CODE: Record<string, RefusalReason> = { QUERY_TOO_DEEP: 'depth', TOO_MANY_ALIASES: 'aliases', TOO_MANY_TOKENS: 'tokens' };

function refusalReason(errors: readonly GraphQLError[]): RefusalReason {
  return REFUSAL_BY_CODE[String(errors[0]?.extensions?.code)] ?? 'invalid';
}

/**
 * GraphQL over HTTP at one path: graphql-http decides methods, media types and status codes; this
 * service adds, through its hooks, what it leaves to a service:
 * - `parseRequestParams`: the body limit, charset and encoding of the shared reader, and this
 *   service's transport error body (transport.ts);
 * - `onSubscribe`: a bounded cache of validated documents with depth/alias/token limits checked before
 *   execution, the transport 405 of a mutation over GET, and mutations with an Idempotency-Key, which
 *   run once per key (idempotent-mutations.ts) by running this same handler inside a transaction;
 * - `onOperation`: metrics per operation, logging of unexpected errors, the 4xx for an
 *   `application/graphql-response+json` response without `data` (graphql-http answers 200 there), and
 *   the plain serialisation of clean results (plain-result.ts);
 * - `formatError`: masking of unexpected errors (masking.ts).
 */
export function graphqlEndpoint({ store, config, logger, resolvers, schemaOptions, metrics = NO_GRAPHQL_METRICS, idempotencyKey, turns }: GraphqlEndpointDeps): RequestHandler {
  const schema = buildSchema(resolvers, schemaOptions);
  const { maxDepth, maxAliases, maxTokens, documentCacheSize, compiledCacheSize, compileAfter } = config.graphql;
  const documents = documentPreparer(schema, [depthLimit(maxDepth), aliasLimit(maxAliases)], { maxTokens, maxNesting: maxDepth + NESTING_ALLOWANCE, cacheSize: documentCacheSize });
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
  const largeAnswers = new LargeAnswers({
    maxItems: config.graphql.maxResultItems,
    slots: config.graphql.maxLargeAnswers,
    waitMs: config.graphql.largeAnswerWaitMs,
  });

  /** The keyed mutation's answer on `tx`: this handler again, with the parameters already read and no key. */
  const answerOn = async (req: HookRequest, params: RequestParams, tx: Store): Promise<{ response: GraphqlHttpResponse; kept: boolean }> => {
    const context: HookContext = { ...req.context, store: tx, params, idempotencyKey: undefined, clean: false };
    const response = await handle({ ...req, context });
    return { response, kept: response[1].status === 200 && context.clean };
  };

  const handle: Handler<Request, HookContext> = createHandler<Request, HookContext, GraphQLContext>({
    schema,
    execute: executor.execute,
    formatError: masking.formatError,
    parseRequestParams: (req) => readParams(req, req.context.params),
    onSubscribe: (req, params) => {
      const document = documents.prepare(params.query);
      if (!('kind' in document)) {
        metrics.refused(refusalReason(document));
        return document;
      }
      const operation = getOperationAST(document, params.operationName) ?? undefined;
      req.context.operation = operation;
      if (operation?.operation === 'mutation') {
        if (req.method === 'GET') return transportError(405, 'Cannot perform mutations over GET', { allow: 'POST' });
        const key = req.context.idempotencyKey;
        if (key !== undefined) return once({ key, params, log: req.context.log, answer: (tx) => answerOn(req, params, tx) });
      }
      return {
        schema,
        document,
        operationName: params.operationName,
        variableValues: params.variables,
        contextValue: createContext(req.context.store, req.context.log, req.context.budget),
      };
    },
    onOperation: async (req, _args, result) => {
      const { operation, budget } = req.context;
      if (operation) metrics.executed(req.raw.res, operation.operation, operation.name?.value);
      // A large answer that found no turn in time: refused whole, before any of it is written.
      if (result.errors?.some((error) => error.originalError instanceof LargeAnswersBusy)) return busy();
      masking.logUnexpected(result.errors, req.context.log);
      // No data (variables that do not coerce): handed back as a list of GraphQL errors, which graphql-http
      // answers as a request error, 400 for application/graphql-response+json (200 for application/json).
      if (!('data' in result) && result.errors?.length) return result.errors as unknown as ExecutionResult;
      if (result.errors !== undefined) return result;
      req.context.clean = true;
      // A large answer holds its turn by now (src/graphql/large-answers.ts): it is written in chunks.
      if (!budget.large) return plainResult(req.raw.headers.accept, result);
      req.context.large = result;
      return plainResult(req.raw.headers.accept, undefined);
    },
  });

  return (req, res) => {
    const log = res.locals.log ?? logger;
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
      context: { log, store, idempotencyKey: req.method === 'POST' ? keyOf(req) : undefined, clean: false, budget },
    };
    const send = async ([body, init]: GraphqlHttpResponse): Promise<void> => {
      const headers = init.headers as Record<string, string> | undefined;
      for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
      const type = String(res.getHeader('content-type') ?? '');
      const { large } = request.context;
      if (large) return writeJsonValue(res, init.status, type, large, { head, turns });
      // Written with its length, so Node sends the headers and the body in one write.
      sendText(res, init.status, type, body ?? '');
    };
    const failed = (error: unknown) => {
      log.error({ error }, 'graphql request failed');
      request.context.large = undefined;
      if (res.headersSent) res.destroy();
      else send(transportError(500)).then(undefined, () => res.destroy());
    };
    // graphql-http's own 406 (unacceptable Accept) comes before any hook, with no body.
    handle(request).then((response) => send(withTransportBody(response))).then(undefined, failed);
  };
}
