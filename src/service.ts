import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Resolvers } from '../generated/graphql';
import type { Config } from './config';
import { docsRoutes, graphiqlPage } from './docs';
import { graphqlEndpoint } from './graphql/endpoint';
import { resolvers as defaultResolvers } from './graphql/resolvers';
import { readBodyPhase } from './http/body';
import { abortWhenClientGoes } from './http/client-gone';
import { errorHandler } from './http/errors';
import { idempotencyKeyRule } from './http/idempotency';
import { runPhases } from './http/phases';
import { dispatchPhase, routePhase, RouteTable, type OwnRoute } from './http/routes';
import { protect } from './http/security';
import { servedSpec } from './http/served-spec';
import { requestValidation } from './http/validate';
import { WriteTurns } from './http/write-turns';
import type { Logger } from './logger';
import { planMocks } from './mock';
import { HEALTH_PATHS, type Lifecycle } from './ops/health';
import { createMetrics } from './ops/metrics';
import { handlers as defaultHandlers } from './rest/handlers';
import { restPhases } from './rest/registrar';
import { responseChecks } from './rest/response-check';
import type { Handlers } from './rest/types';
import { loadGraphqlSdl, loadOpenApi, openapiPath, projectRoot, type OpenApiDocument } from './spec';
import { assertContractImplemented, assertServedAlike, assertStoredShapes } from './startup/contract-check';
import { buildModel, specModel } from './store/model';
import type { Store } from './store/types';
import { textLimits } from './text-rule';

export interface ServiceDeps {
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

/** The service as two express middlewares, to add to an express app of yours in this order (docs/extending.md). */
export interface Service {
  /** Answers every path under where it is mounted: the spec's operations, /graphql, the docs and spec files, the metrics. A path it does not serve is its 404. */
  handler: RequestHandler;
  /** Writes every error in the contract's format (docs/contract.md §6): the service's, and those of anything before it that calls `next(err)`. */
  errors: ErrorRequestHandler;
}

export const SERVICE_VERSION: string = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).version;

/**
 * Builds the whole service from its dependencies, as middleware: `app.use(service.handler)` then
 * `app.use(service.errors)`, with anything of yours around them (docs/extending.md). Each call builds its own
 * service (route table, metrics registry, caches): nothing one counts or caches is shared with another, and
 * nothing is patched process-wide. The path of a request is the phases of src/http/phases.ts.
 */
export function createService({
  store,
  config,
  logger,
  handlers = defaultHandlers,
  openapi: givenOpenapi,
  sdl: givenSdl,
  resolvers = defaultResolvers,
  lifecycle = { draining: false },
}: ServiceDeps): Service {
  const openapi = givenOpenapi ?? loadOpenApi();
  const sdl = givenSdl ?? loadGraphqlSdl();
  // The stored resources of these specs: the service's own (read once per process), or those of specs given instead.
  const model = givenOpenapi || givenSdl ? buildModel(openapi, sdl) : specModel();
  // A field REST and GraphQL could not answer alike (an integer wider than GraphQL's Int...) never serves.
  assertServedAlike({ openapi, sdl, model });
  // A half-implemented contract never serves: throws one line naming every missing handler/resolver.
  // With MOCK_UNIMPLEMENTED, what is missing answers mocked values from the contract instead (src/mock/).
  const mocks = config.mockUnimplemented ? planMocks({ openapi, handlers, sdl, resolvers, model }, logger) : undefined;
  if (!mocks) assertContractImplemented({ openapi, handlers, sdl, resolvers, model });
  else assertStoredShapes({ openapi, handlers, sdl, resolvers, model });
  // Prometheus metrics on this service's own registry; the request log and the metrics share one clock.
  const metrics = config.metricsEnabled ? createMetrics({ store, path: config.metricsPath }) : undefined;
  // Big answers (REST lists, large GraphQL results) are written in chunks, a few per turn of the event loop.
  const turns = new WriteTurns();
  const graphql = graphqlEndpoint({ store, config, logger, resolvers, schemaOptions: { typeDefs: sdl, mock: mocks?.graphqlFields }, metrics: metrics?.graphql, idempotencyKey: idempotencyKeyRule(openapi), turns, auth: config.auth, text: textLimits(openapi) });
  const graphiql = graphiqlPage();
  // Every path the service answers: the spec's operations, and these routes of its own (their path
  // is outside openapi.yaml: the GraphQL endpoint, the docs and spec files, the metrics when they are on).
  const own: OwnRoute[] = [
    {
      path: '/graphql',
      methods: ['GET', 'POST'],
      errorFormat: 'graphql',
      label: 'graphql',
      // A browser's GET opens GraphiQL; everything else is GraphQL over HTTP (with its own body limit).
      handler: (req, res, next) => graphiql(req, res, () => graphql(req, res, next)),
      writesThroughService: true,
    },
    // The spec files say what this instance checks: security only where it asks for a token.
    ...docsRoutes(openapi, servedSpec(openapi, config.auth, readFileSync(openapiPath, 'utf8'))),
    ...(metrics ? [metrics.route] : []),
  ];
  const routes = new RouteTable(openapi, own);
  const rest = restPhases(routes, handlers as Handlers, {
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
  });
  const handler = runPhases({
    route: routePhase(routes),
    protect: [
      // Storage with a connection queue (PostgreSQL): a request whose client left stops waiting in it.
      ...(store.kind === 'postgres' ? [abortWhenClientGoes()] : []),
      // Probes and scrapes are never rate limited.
      ...protect(config, new Set([...HEALTH_PATHS, config.metricsPath])),
    ],
    dispatch: dispatchPhase,
    readBody: readBodyPhase(config),
    validate: requestValidation(openapi),
    handle: rest.handle,
    write: rest.write,
  }, { logger, metrics, connected: turns.connected });
  return { handler, errors: errorHandler(logger) };
}
