import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Resolvers } from '../generated/graphql';
import type { Config } from './config';
import { docsRouter, graphiqlPage } from './docs';
import { graphqlEndpoint } from './graphql/endpoint';
import { resolvers as defaultResolvers } from './graphql/resolvers';
import { headAndOptions, jsonBody } from './http/edge';
import { requestContext } from './http/request-context';
import { security } from './http/security';
import type { Logger } from './logger';
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
}

export const SERVICE_VERSION: string = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).version;

/** Builds the whole HTTP service from its dependencies. No module-level state: call it once per app. */
export function createApp({
  store,
  config,
  logger,
  handlers = defaultHandlers,
  openapi = loadOpenApi(),
  resolvers = defaultResolvers,
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

  app.use(requestContext(logger));
  // Security headers, CORS and the rate limit come before anything else answers.
  app.use(security(config, routes));
  // GraphiQL for a browser's GET /graphql: must stay before the /graphql handler.
  app.use(graphiqlPage());
  // GraphQL over HTTP at /graphql, before the REST edge and the validator (it has its own body limit).
  app.all('/graphql', graphqlEndpoint({ store, config, logger, resolvers }));
  // Swagger UI, UI assets and the spec files: before the validator, which 404s paths the spec lacks.
  app.use(docsRouter(openapi));
  app.use(headAndOptions(routes));
  app.use(jsonBody(routes, config.bodyLimit));
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
  app.use(restRouter(routes, handlers as Handlers, { store, logger, version: SERVICE_VERSION }));
  app.use(notFoundHandler);
  app.use(errorHandler(routes, logger, config.bodyLimit));
  return app;
}
