import express, { type Express } from 'express';
import { expressClasses } from './http/perf/express-classes';
import { createService, SERVICE_VERSION, type ServiceDeps } from './service';

export { SERVICE_VERSION };
export type AppDeps = ServiceDeps;

/** What the app createApp returns says when something is added to it after the service (docs/extending.md). */
export const COMPOSE_YOURSELF = [
  'the app createApp returns ends with the service, which answers every path: nothing added after it would run.',
  'Compose the service yourself, with what you add where you want it:',
  '  const app = express();',
  '  app.use(mine);                 // runs before the service (authentication, a route of yours)',
  '  const service = createService({ store, config, logger });   // src/service.ts',
  '  app.use(service.handler);',
  '  app.use(myErrorHandler);       // sees the service\'s errors',
  '  app.use(service.errors);       // answers what is left in the contract\'s format',
].join('\n');

/** The two calls through which express adds middleware and routes to an app (`app.get(path, ...)`, `app.post`, `app.all`... call `app.route`). */
const ADDING = ['use', 'route'] as const;

/**
 * The service in an express app of its own, as `npm start` serves it: express's settings for the service, the
 * app's request and response classes (src/http/perf/express-classes.ts), then `app.use(service.handler)` and
 * `app.use(service.errors)` (src/service.ts). The service answers every path, so the app is complete: adding
 * middleware or a route to it afterwards throws, with the composition to write instead (COMPOSE_YOURSELF).
 * Mounted in another app (`outer.use('/api', app)`), it answers under that prefix.
 */
export function createApp(deps: AppDeps): Express {
  const service = createService(deps);
  const app = express();
  configureExpress(app);
  app.use(service.handler);
  app.use(service.errors);
  for (const name of ADDING) {
    (app as unknown as Record<string, unknown>)[name] = () => {
      throw new Error(`Adding to this app (app.use, app.get, app.post, ...): ${COMPOSE_YOURSELF}`);
    };
  }
  return app;
}

/**
 * express's settings the service expects of the app it is in: no `X-Powered-By`, no generated ETags (the service
 * tags what it answers), the simple query parser, case-sensitive paths (RFC 3986: /BOOKS is an unknown path, for
 * the route table and the validator alike); and the app's request and response classes
 * (src/http/perf/express-classes.ts), whose prototypes become app.request and app.response.
 */
export function configureExpress(app: Express): Express {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('case sensitive routing', true);
  expressClasses(app);
  return app;
}
