import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Resolvers } from '../generated/graphql';
import type { Config } from './config';
import { docsRouter, graphiqlPage } from './docs';
import { graphqlEndpoint } from './graphql/endpoint';
import { resolvers as defaultResolvers } from './graphql/resolvers';
import { abortWhenClientGoes } from './http/client-gone';
import { headAndOptions, jsonBody } from './http/edge';
import { NON_REST_PREFIXES } from './http/non-rest-routes';
import { memoizeValidatorPathToRegexp } from './http/path-regexp-memo';
import { originForm, protocolChecks } from './http/protocol';
import { requestContext } from './http/request-context';
import { security } from './http/security';
import type { Logger } from './logger';
import { HEALTH_PATHS, type Lifecycle } from './ops/health';
import { createMetrics, type ServiceMetrics } from './ops/metrics';
import { errorHandler, notFoundHandler } from './rest/errors';
import { handlers as defaultHandlers } from './rest/handlers';
import { restRouter } from './rest/registrar';
import { RouteTable } from './rest/routes';
import type { Handlers } from './rest/types';
import { loadGraphqlSdl, loadOpenApi, projectRoot, type OpenApiDocument } from './spec';
import { assertContractImplemented } from './startup/contract-check';
import type { Store } from './store/types';

export interface AppDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** Overridable for tests (e.g. a build with a handler removed). */
  handlers?: Partial<Handlers>;
  openapi?: OpenApiDocument;
  /** Overridable for tests (e.g. a build with a resolver removed). */
  resolvers?: Resolvers;
  /** Set by server.ts on SIGTERM/SIGINT (`draining`); /health/ready answers 503 from then on. */
  lifecycle?: Lifecycle;
}

export const SERVICE_VERSION: string = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).version;

/**
 * GraphiQL for a browser's GET /graphql (before the /graphql handler), GraphQL over HTTP at /graphql
 * (before the REST edge and the validator: it has its own body limit), then Swagger UI, its assets and
 * the spec files (before the validator, which 404s paths the spec lacks), and the metrics when they are
 * on (their path is a setting, so they live outside openapi.yaml, like /docs). One router behind one
 * prefix check: a REST request passes one layer here instead of every route of these.
 */
function nonRestRouter(openapi: OpenApiDocument, graphql: RequestHandler, metrics?: ServiceMetrics): RequestHandler {
  const router = Router({ caseSensitive: true, strict: false });
  if (metrics) router.use(metrics.endpoint);
  router.use(graphiqlPage());
  router.all('/graphql', graphql);
  router.use(docsRouter(openapi));
  const prefixes = metrics ? [...NON_REST_PREFIXES, metrics.path] : NON_REST_PREFIXES;
  return (req, res, next) => {
    const path = req.path;
    if (prefixes.some((prefix) => path.startsWith(prefix))) return router(req, res, next);
    next();
  };
}

/** Builds the whole HTTP service from its dependencies. No module-level state: call it once per app. */
export function createApp({
  store,
  config,
  logger,
  handlers = defaultHandlers,
  openapi = loadOpenApi(),
  resolvers = defaultResolvers,
  lifecycle = { draining: false },
}: AppDeps): Express {
  // A half-implemented contract never serves: throws one line naming every missing handler/resolver.
  assertContractImplemented({ openapi, handlers, sdl: loadGraphqlSdl(), resolvers });
  const routes = new RouteTable(openapi);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Paths are case-sensitive (RFC 3986): /BOOKS is an unknown path, for Express and the validator alike.
  app.set('case sensitive routing', true);

  app.use(originForm);
  // Prometheus metrics on this app's own registry; the request log and the metrics share one clock.
  const metrics = config.metricsEnabled ? createMetrics({ routes, store, path: config.metricsPath }) : undefined;
  app.use(requestContext(logger, metrics));
  // Storage with a connection queue (PostgreSQL): a request whose client left stops waiting in it.
  if (store.kind === 'postgres') app.use(abortWhenClientGoes());
  // Security headers, CORS and the rate limit come before anything else answers; probes and scrapes are never limited.
  app.use(security(config, routes, new Set([...HEALTH_PATHS, config.metricsPath])));
  // HTTP/1.1 message rules (pipelining order, Host, transfer codings, target form) before any body is read.
  app.use(protocolChecks(routes, config));
  // GraphiQL, GraphQL, the docs and the metrics sit behind one path check, so REST requests skip their layers.
  app.use(nonRestRouter(openapi, graphqlEndpoint({ store, config, logger, resolvers, metrics: metrics?.graphql }), metrics));
  app.use(headAndOptions(routes));
  app.use(jsonBody(routes, config));
  // The validator recompiles every spec path per request; memoised (bounded, see the module).
  memoizeValidatorPathToRegexp();
  app.use(
    OpenApiValidator.middleware({
      apiSpec: structuredClone(openapi) as never,
      validateApiSpec: true,
      validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
      validateResponses: config.validateResponses ? { removeAdditional: false, onError: undefined } : false,
      validateSecurity: false,
      ignoreUndocumented: false,
      fileUploader: false,
      $refParser: { mode: 'dereference' },
    }),
  );
  app.use(
    restRouter(routes, handlers as Handlers, {
      store,
      logger,
      version: SERVICE_VERSION,
      lifecycle,
      healthTimeoutMs: config.healthTimeoutMs,
      idempotencyTtlMs: config.idempotencyTtlMs,
    }),
  );
  app.use(notFoundHandler);
  app.use(errorHandler(routes, logger, config.bodyLimit));
  return app;
}
