import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import type { Resolvers } from '../generated/graphql';
import type { Config } from './config';
import { docsRoutes, graphiqlPage } from './docs';
import { graphqlEndpoint } from './graphql/endpoint';
import { resolvers as defaultResolvers } from './graphql/resolvers';
import { abortWhenClientGoes } from './http/client-gone';
import { answerRoute, jsonBody } from './http/edge';
import { emptyHeadersAbsent } from './http/empty-headers';
import { errorHandler } from './http/errors';
import { installService } from './http/express-app';
import { WriteTurns } from './http/write-turns';
import { expressClasses } from './http/perf/express-classes';
import { oneLayer } from './http/perf/one-layer';
import { idempotencyKeyRule } from './http/idempotency';
import { originForm, protocolChecks } from './http/protocol';
import { requestContext } from './http/request-context';
import { matchRoute, RouteTable, type OwnRoute } from './http/routes';
import { security } from './http/security';
import { requestValidation } from './http/validate';
import type { Logger } from './logger';
import { HEALTH_PATHS, type Lifecycle } from './ops/health';
import { createMetrics } from './ops/metrics';
import { planMocks } from './mock';
import { handlers as defaultHandlers } from './rest/handlers';
import { restRouter } from './rest/registrar';
import { responseChecks } from './rest/response-check';
import type { Handlers } from './rest/types';
import { loadGraphqlSdl, loadOpenApi, projectRoot, type OpenApiDocument } from './spec';
import { assertContractImplemented, assertStoredShapes } from './startup/contract-check';
import type { Store } from './store/types';

export interface AppDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** Overridable for tests (e.g. a build with a handler removed). */
  handlers?: Partial<Handlers>;
  openapi?: OpenApiDocument;
  /** schema.graphql's text; overridable for tests (e.g. a schema with a field nobody implemented). */
  sdl?: string;
  /** Overridable for tests (e.g. a build with a resolver removed). */
  resolvers?: Resolvers;
  /** Set by server.ts on SIGTERM/SIGINT (`draining`); /health/ready answers 503 from then on. */
  lifecycle?: Lifecycle;
}

export const SERVICE_VERSION: string = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).version;

/**
 * Builds the whole HTTP service from its dependencies. Each call builds its own app (route table,
 * metrics registry, caches, the speed tricks of src/http/perf/): nothing an app counts or caches is
 * shared with another, and nothing is patched process-wide.
 */
export function createApp({
  store,
  config,
  logger,
  handlers = defaultHandlers,
  openapi = loadOpenApi(),
  sdl = loadGraphqlSdl(),
  resolvers = defaultResolvers,
  lifecycle = { draining: false },
}: AppDeps): Express {
  // A half-implemented contract never serves: throws one line naming every missing handler/resolver.
  // With MOCK_UNIMPLEMENTED, what is missing answers mocked values from the contract instead (src/mock/).
  const mocks = config.mockUnimplemented ? planMocks({ openapi, handlers, sdl, resolvers }, logger) : undefined;
  if (!mocks) assertContractImplemented({ openapi, handlers, sdl, resolvers });
  else assertStoredShapes({ openapi, handlers, sdl, resolvers });
  // Prometheus metrics on this app's own registry; the request log and the metrics share one clock.
  const metrics = config.metricsEnabled ? createMetrics({ store, path: config.metricsPath }) : undefined;
  // Every path the service answers: the spec's operations, and these routes of its own (their path
  // is outside openapi.yaml: the GraphQL endpoint, the docs and spec files, the metrics when they are on).
  // Big answers (REST lists, large GraphQL results) are written in chunks, a few per turn of the event loop.
  const turns = new WriteTurns();
  const graphql = graphqlEndpoint({ store, config, logger, resolvers, schemaOptions: { typeDefs: sdl, mock: mocks?.graphqlFields }, metrics: metrics?.graphql, idempotencyKey: idempotencyKeyRule(openapi), turns });
  const graphiql = graphiqlPage();
  const own: OwnRoute[] = [
    {
      path: '/graphql',
      methods: ['GET', 'POST'],
      errorFormat: 'graphql',
      label: 'graphql',
      // A browser's GET opens GraphiQL; everything else is GraphQL over HTTP (with its own body limit).
      handler: (req, res, next) => graphiql(req, res, () => graphql(req, res, next)),
    },
    ...docsRoutes(openapi),
    ...(metrics ? [metrics.route] : []),
  ];
  const routes = new RouteTable(openapi, own);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Paths are case-sensitive (RFC 3986): /BOOKS is an unknown path, for the route table and the validator alike.
  app.set('case sensitive routing', true);
  // The app's requests and responses are instances of its own classes (src/http/perf/express-classes.ts),
  // whose prototypes become app.request and app.response before anything below reads them.
  expressClasses(app);

  // Every step up to and including the REST registrar, in order, runs as one pipeline (src/http/perf/one-layer.ts).
  // A new connection makes the next turn of big answers short (src/http/write-turns.ts).
  const steps: RequestHandler[] = [originForm, turns.arrived];
  // The request's route, found once; every later step reads it from the request.
  // An empty value of an optional header parameter is its absence (src/http/empty-headers.ts), before anything reads headers.
  steps.push(matchRoute(routes), emptyHeadersAbsent, requestContext(logger, metrics));
  // Storage with a connection queue (PostgreSQL): a request whose client left stops waiting in it.
  if (store.kind === 'postgres') steps.push(abortWhenClientGoes());
  // Security headers, CORS and the rate limit come before anything else answers; probes and scrapes are never limited.
  steps.push(...security(config, new Set([...HEALTH_PATHS, config.metricsPath])));
  // HTTP/1.1 message rules (pipelining order, Host, transfer codings, target form) before any body is read.
  steps.push(protocolChecks(config));
  // 404, OPTIONS, HEAD, 405 from the route table; the service's own routes are served from here.
  steps.push(answerRoute, jsonBody(config));
  // The validator checks every request (src/http/validate.ts). Responses are checked where they are written (src/rest/response-check.ts).
  steps.push(requestValidation(openapi));
  steps.push(
    restRouter(routes, handlers as Handlers, {
      store,
      logger,
      version: SERVICE_VERSION,
      lifecycle,
      healthTimeoutMs: config.healthTimeoutMs,
      idempotencyTtlMs: config.idempotencyTtlMs,
    }, {
      check: config.validateResponses ? responseChecks(openapi) : undefined,
      representation: hash('sha1', `${SERVICE_VERSION}\n${JSON.stringify(openapi)}`, 'base64url'),
      turns,
      mock: mocks?.rest,
    }),
  );
  // The service is the app's last two express layers: its pipeline and its error handler. What a user adds
  // with app.use or app.get runs before it, error handlers after it (src/http/express-app.ts).
  installService(app, oneLayer(steps), errorHandler(logger));
  return app;
}
