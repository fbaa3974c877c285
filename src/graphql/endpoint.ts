import contentType from 'content-type';
import type { Request, RequestHandler, Response } from 'express';
import { getOperationAST, type ExecutionResult, type GraphQLError } from 'graphql';
import { createHandler, type Request as GraphqlHttpRequest } from 'graphql-http';
import type { Resolvers } from '../../generated/graphql';
import type { Config } from '../config';
import { readTextBody } from '../http/body';
import { IDEMPOTENCY_KEY, KEY_IN_PROGRESS, KEY_REUSED, OUTCOME_UNKNOWN, requestFingerprint } from '../http/idempotency';
import type { Logger } from '../logger';
import { NO_GRAPHQL_METRICS, type GraphqlMetrics, type RefusalReason } from '../ops/metrics';
import { ApiError } from '../rest/errors';
import { StorageUnavailableError } from '../store/errors';
import type { Store } from '../store/types';
import { createContext, type GraphQLContext } from './context';
import { documentPreparer } from './document-cache';
import { createExecutor } from './execution';
import { aliasLimit, depthLimit } from './limits';
import { maskErrors, MASKED_MESSAGE, UNAVAILABLE_MESSAGE } from './masking';
import { buildSchema } from './schema';

export interface GraphqlEndpointDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** Overridable for tests; the real resolvers otherwise. */
  resolvers?: Resolvers;
  /** Where compiled, refused and executed documents are counted; nothing is counted without it. */
  metrics?: GraphqlMetrics;
}

/**
 * Per-request state shared between the graphql-http hooks and the HTTP adapter below. `result` holds a
 * successful execution result (data, no errors) that the adapter serialises itself (see PLACEHOLDER).
 */
type HookContext = { requestId: string; log: Logger; executedWithoutData: boolean; result?: ExecutionResult; store: Store };

/** One HTTP answer of this endpoint, as it is written (and kept under an Idempotency-Key). */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * graphql-http serialises every result with a replacer function (to hide non-GraphQL Error objects),
 * which makes JSON.stringify call back for every value: ~15% of the CPU of a nested query. A result
 * with data and no errors holds no Error objects (its leaves are serialised scalars), so graphql-http
 * gets this stand-in instead (same branch: 200 and the negotiated media type) and the adapter writes
 * the real result with a plain JSON.stringify. Results with errors still go through graphql-http.
 */
const PLACEHOLDER: ExecutionResult = { data: null };
const PLACEHOLDER_BODY = JSON.stringify(PLACEHOLDER);

/**
 * Brackets a document may nest beyond the depth limit before it is refused unparsed: variable
 * definitions, list and object arguments and inline fragments nest without adding field depth.
 */
const NESTING_ALLOWANCE = 20;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers that come before any GraphQL execution (method, media type, body size, a failure of the
 * server) carry the service's JSON error object (`error`, CONTRACT.md section 2) and a GraphQL-style
 * `errors` list, so both kinds of client read them.
 */
const TRANSPORT_ERRORS: Record<number, string> = {
  405: 'Method not allowed: /graphql takes GET (queries only) and POST',
  406: 'Not acceptable: /graphql answers application/graphql-response+json or application/json',
  413: 'Request body is too large',
  415: 'Unsupported media type: POST bodies must be application/json',
  500: MASKED_MESSAGE,
};

/** draft-ietf-httpapi-idempotency-key-header: the same rule as openapi.yaml's IdempotencyKey parameter. */
const VALID_KEY = /^[ -~]{1,255}$/;

/** A mutation's answer that is not kept under its key: thrown to roll its writes back, then written as it is. */
class NotKept extends Error {
  constructor(readonly answer: Answer) {
    super('answer not kept');
  }
}

/** Idempotency-Key misuse and storage failures around a mutation: GraphQL-shaped errors with a code. */
function keyError(status: number, message: string, code: string): Answer {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify({ errors: [{ message, extensions: { code } }] }) };
}

function transportErrorBody(message: string): string {
  return JSON.stringify({ error: message, errors: [{ message }] });
}

function sendErrors(res: Response, status: number, message: string): void {
  res.status(status).setHeader('Content-Type', JSON_TYPE);
  res.end(status in TRANSPORT_ERRORS ? transportErrorBody(message) : JSON.stringify({ errors: [{ message }] }));
}

/** Which limit refused a document (from the first error's code), for the metrics; `invalid` for any other error. */
const REFUSAL_BY_CODE: Record<string, RefusalReason> = { QUERY_TOO_DEEP: 'depth', TOO_MANY_ALIASES: 'aliases', TOO_MANY_TOKENS: 'tokens' };

function refusalReason(errors: readonly GraphQLError[]): RefusalReason {
  return REFUSAL_BY_CODE[String(errors[0]?.extensions?.code)] ?? 'invalid';
}

/** Errors of the shared body reader (413, 415, 400) as GraphQL-shaped responses. */
function sendBodyError(res: Response, err: unknown, metrics: GraphqlMetrics): void {
  if (!(err instanceof ApiError)) return sendErrors(res, 400, 'The request body could not be read.');
  if (err.status === 413) metrics.refused('body_size');
  if (err.headers) res.set(err.headers);
  sendErrors(res, err.status, err.message);
}

function isJson(req: Request): boolean {
  try {
    return contentType.parse(req).type === 'application/json';
  } catch {
    return false;
  }
}

/**
 * GraphQL over HTTP at one path (graphql-http): GET for queries, POST with JSON, status codes per the
 * spec. Around graphql-http this adds what it leaves to the service: a body limit, a bounded cache of
 * validated documents, depth/alias/token limits checked before execution, masking of unexpected
 * errors, and the 4xx for an `application/graphql-response+json` response without `data` when
 * variable coercion fails (graphql-http answers 200 there).
 */
export function graphqlEndpoint({ store, config, logger, resolvers, metrics = NO_GRAPHQL_METRICS }: GraphqlEndpointDeps): RequestHandler {
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

  const handle = createHandler<Request, HookContext, GraphQLContext>({
    schema,
    execute: executor.execute,
    onSubscribe: (req, params) => {
      const document = documents.prepare(params.query);
      if (!('kind' in document)) {
        metrics.refused(refusalReason(document));
        return document;
      }
      return {
        schema,
        document,
        operationName: params.operationName,
        variableValues: params.variables,
        contextValue: createContext(req.context.store, req.context.log, req.context.requestId),
      };
    },
    onOperation: (req, args, result) => {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation) metrics.executed(req.raw.res, operation.operation, operation.name?.value);
      if (!('data' in result)) req.context.executedWithoutData = true;
      const masked = maskErrors(result, req.context.log);
      if ('data' in masked && masked.errors === undefined) {
        req.context.result = masked;
        return PLACEHOLDER;
      }
      return masked;
    },
  });

  /** The JSON body of a POST as text (the shared reader: limit, charset, encoding); graphql-http judges the rest. */
  const readBody = async (req: Request, res: Response): Promise<string | undefined> => {
    if (req.method !== 'POST' || !isJson(req)) return undefined;
    return readTextBody(req, res, config);
  };

  /** The answer to one request, its resolvers reading and writing `onStore`. */
  async function answer(req: Request, res: Response, onStore: Store): Promise<Answer> {
    const context: HookContext = { requestId: String(res.locals.requestId ?? ''), log: res.locals.log ?? logger, executedWithoutData: false, store: onStore };
    const request: GraphqlHttpRequest<Request, HookContext> = {
      // HEAD works wherever GET does: it runs as the GET, and Node sends the headers without the body.
      method: req.method === 'HEAD' ? 'GET' : req.method,
      url: req.originalUrl,
      headers: req.headers,
      body: typeof req.body === 'string' ? req.body : null,
      raw: req,
      context,
    };
    const [handled, init] = await handle(request);
    let body = context.result !== undefined && handled === PLACEHOLDER_BODY ? JSON.stringify(context.result) : handled;
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    let status = init.status ?? 200;
    if (status in TRANSPORT_ERRORS) {
      // graphql-http answers these with no body (or, for a mutation over GET, with `errors` only).
      const given = body ? (JSON.parse(body) as { errors?: { message?: string }[] }).errors?.[0]?.message : undefined;
      body = transportErrorBody(given ?? TRANSPORT_ERRORS[status]);
      headers['content-type'] = JSON_TYPE;
    }
    if (body !== null && !headers['content-type']) headers['content-type'] = JSON_TYPE;
    if (status === 200 && context.executedWithoutData && headers['content-type']?.startsWith('application/graphql-response+json')) status = 400;
    return { status, headers, body };
  }

  async function respond(req: Request, res: Response): Promise<void> {
    const key = req.method === 'POST' ? req.get(IDEMPOTENCY_KEY) : undefined;
    const mutation = key === undefined ? undefined : mutationRequest(req.body);
    const { status, headers, body } = mutation ? await once(req, res, key!, mutation) : await answer(req, res, store);
    res.writeHead(status, headers).end(body);
  }

  /** The operation a POST body selects, when it is a mutation; undefined for anything else. */
  function mutationRequest(raw: unknown): Record<string, unknown> | undefined {
    try {
      const params = JSON.parse(String(raw)) as { query?: unknown; operationName?: unknown; variables?: unknown };
      if (typeof params.query !== 'string') return undefined;
      const document = documents.prepare(params.query);
      if (!('kind' in document)) return undefined;
      const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
      if (getOperationAST(document, operationName)?.operation !== 'mutation') return undefined;
      return { query: params.query, operationName: params.operationName ?? null, variables: params.variables ?? null };
    } catch {
      return undefined;
    }
  }

  /**
   * A mutation with an Idempotency-Key runs at most once per key, as REST creates do: its writes and its
   * answer are kept together, and only when it succeeded without errors (otherwise nothing of it is
   * kept, and the key may be retried). Same key and request: the first answer again; another request: 422.
   */
  async function once(req: Request, res: Response, key: string, mutation: Record<string, unknown>): Promise<Answer> {
    if (!VALID_KEY.test(key)) return keyError(400, `${IDEMPOTENCY_KEY} must be 1 to 255 printable ASCII characters`, 'BAD_REQUEST');
    const request = { key, fingerprint: requestFingerprint('POST', '/graphql', mutation), ttlMs: config.idempotencyTtlMs };
    try {
      const done = await store.idempotent(request, async (tx) => {
        const first = await answer(req, res, tx);
        if (first.status !== 200 || first.body === null || 'errors' in JSON.parse(first.body)) throw new NotKept(first);
        return first;
      });
      switch (done.outcome) {
        case 'done':
          return done.answer as Answer;
        case 'replay':
          return { ...(done.answer as Answer), headers: { ...done.answer.headers, 'idempotent-replayed': 'true' } };
        case 'mismatch':
          return keyError(422, KEY_REUSED, 'IDEMPOTENCY_KEY_REUSED');
        case 'in-progress':
          return keyError(409, KEY_IN_PROGRESS, 'IDEMPOTENCY_KEY_IN_PROGRESS');
      }
    } catch (err) {
      if (err instanceof NotKept) return err.answer;
      if (!(err instanceof StorageUnavailableError)) throw err;
      (res.locals.log ?? logger).warn({ outcomeUnknown: err.outcomeUnknown }, 'graphql mutation not committed');
      const answered = keyError(503, err.outcomeUnknown ? OUTCOME_UNKNOWN : UNAVAILABLE_MESSAGE, 'SERVICE_UNAVAILABLE');
      return { ...answered, headers: { ...answered.headers, 'retry-after': '1' } };
    }
  }

  return (req, res) => {
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', 'GET, POST');
      res.status(204).end();
      return;
    }
    readBody(req, res).then(
      (body) => {
        req.body = body;
        respond(req, res).catch((error: unknown) => {
          (res.locals.log ?? logger).error({ error }, 'graphql request failed');
          if (res.headersSent) res.destroy();
          else sendErrors(res, 500, MASKED_MESSAGE);
        });
      },
      (err: unknown) => sendBodyError(res, err, metrics),
    );
  };
}
