import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Config } from './config';
import { headAndOptions, jsonBody } from './http/edge';
import { requestContext } from './http/request-context';
import type { Logger } from './logger';
import { errorHandler, notFoundHandler } from './rest/errors';
import { handlers as defaultHandlers } from './rest/handlers';
import { restRouter } from './rest/registrar';
import { RouteTable } from './rest/routes';
import type { Handlers } from './rest/types';
import { loadOpenApi, projectRoot, type OpenApiDocument } from './spec';
import type { Store } from './store/types';

export interface AppDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** Overridable for tests (e.g. a build with a handler removed). */
  handlers?: Partial<Handlers>;
  openapi?: OpenApiDocument;
}

export const SERVICE_VERSION: string = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).version;

/** Builds the whole HTTP service from its dependencies. No module-level state: call it once per app. */
export function createApp({ store, config, logger, handlers = defaultHandlers, openapi = loadOpenApi() }: AppDeps): Express {
  const routes = new RouteTable(openapi);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestContext(logger));
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
