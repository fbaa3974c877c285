import type { Request, RequestHandler } from 'express';
import { getOperationAST, type ExecutionResult, type GraphQLError } from 'graphql';
import { createHandler, type Handler, type Request as GraphqlHttpRequest, type RequestParams, type Response as GraphqlHttpResponse } from 'graphql-http';
import type { Resolvers } from '../../generated/graphql';
import type { Config } from '../config';
import { IDEMPOTENCY_KEY, type KeyRule } from '../http/idempotency';
import type { Logger } from '../logger';
import { NO_GRAPHQL_METRICS, type GraphqlMetrics, type RefusalReason } from '../ops/metrics';
import type { Store } from '../store/types';
import { createContext, type GraphQLContext } from './context';
import { documentPreparer } from './document-cache';
import { createExecutor } from './execution';
import { idempotentMutations } from './idempotent-mutations';
import { aliasLimit, depthLimit } from './limits';
import { errorMasking } from './masking';
import { plainResult } from './plain-result';
import { buildSchema } from './schema';
import { requestParamsReader, transportError, withTransportBody } from './transport';

export interface GraphqlEndpointDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** Overridable for tests; the real resolvers otherwise. */
  resolvers?: Resolvers;
  /** Where compiled, refused and executed documents are counted; nothing is counted without it. */
  metrics?: GraphqlMetrics;
  /** Which Idempotency-Key values a keyed mutation takes: openapi.yaml's rule (src/http/idempotency.ts). */
  idempotencyKey: KeyRule;
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
export function graphqlEndpoint({ store, config, logger, resolvers, metrics = NO_GRAPHQL_METRICS, idempotencyKey }: GraphqlEndpointDeps): RequestHandler {
  const schema = buildSchema(resolvers);
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
  const readParams = requestParamsReader(config, metrics);
  const once = idempotentMutations(store, config.idempotencyTtlMs, idempotencyKey);

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
      if (getOperationAST(document, params.operationName)?.operation === 'mutation') {
        if (req.method === 'GET') return transportError(405, 'Cannot perform mutations over GET', { allow: 'POST' });
        const key = req.context.idempotencyKey;
        if (key !== undefined) return once({ key, params, log: req.context.log, answer: (tx) => answerOn(req, params, tx) });
      }
      return {
        schema,
        document,
        operationName: params.operationName,
        variableValues: params.variables,
        contextValue: createContext(req.context.store, req.context.log),
      };
    },
    onOperation: (req, args, result) => {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation) metrics.executed(req.raw.res, operation.operation, operation.name?.value);
      masking.logUnexpected(result.errors, req.context.log);
      // No data (variables that do not coerce): handed back as a list of GraphQL errors, which graphql-http
      // answers as a request error, 400 for application/graphql-response+json (200 for application/json).
      if (!('data' in result) && result.errors?.length) return result.errors as unknown as ExecutionResult;
      if (result.errors !== undefined) return result;
      req.context.clean = true;
      return plainResult(req.raw.headers.accept, result);
    },
  });

  return (req, res) => {
    const log = res.locals.log ?? logger;
    const request: HookRequest = {
      // HEAD works wherever GET does: it runs as the GET, and Node sends the headers without the body.
      method: req.method === 'HEAD' ? 'GET' : req.method,
      url: req.originalUrl,
      headers: req.headers,
      body: null,
      raw: req,
      context: { log, store, idempotencyKey: req.method === 'POST' ? req.get(IDEMPOTENCY_KEY) : undefined, clean: false },
    };
    // With its length known up front, Node writes the headers and the body as one string in one write;
    // without it, writeHead commits to chunked encoding and the body goes out as a writev of chunk frames.
    const send = ([body, init]: GraphqlHttpResponse) => {
      if (body !== null) res.setHeader('content-length', Buffer.byteLength(body));
      res.writeHead(init.status, init.headers).end(body);
    };
    handle(request).then(
      // graphql-http's own 406 (unacceptable Accept) comes before any hook, with no body.
      (response) => send(withTransportBody(response)),
      (error: unknown) => {
        log.error({ error }, 'graphql request failed');
        if (res.headersSent) res.destroy();
        else send(transportError(500));
      },
    );
  };
}
