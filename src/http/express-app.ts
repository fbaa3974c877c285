import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import { notFound } from './errors';

/** The parts of express's router (the `router` package) this module relies on: its stack and the two calls that grow it. */
interface RouterStack {
  stack: { handle: (...args: never[]) => unknown }[];
  use: (...args: unknown[]) => unknown;
  route: (...args: unknown[]) => unknown;
}

/**
 * Installs the service in `app` as two ordinary express layers: `service` (every route of the service, as
 * one pipeline) and `onError` (the error handler that writes every error in the contract's format). They
 * stay the last layers of the app's router whatever is added later, so the app keeps express's extension
 * contract with the service's routes in it:
 *
 * - `app.use(middleware)` and `app.get/post/...(path, ...)` added after `createApp` run before the service's
 *   routes (a header on every answer, authentication, a route of your own), in the order they were added;
 * - error handlers added with `app.use((err, req, res, next) => ...)` run after the service's routes, so they
 *   see the service's errors too, before the service's own handler writes what is left;
 * - mounted in another app (`outer.use('/api', app)`), the service answers under that prefix, and every link
 *   it writes carries it (`req.baseUrl`);
 * - the service answers every path under its mount: a path none of its routes (or yours) answers is its 404.
 *
 * Only the order changes: each layer is express's own, added by express's own `use` and `route`, so
 * instrumentation that wraps express's router (OpenTelemetry's, for one) sees every layer.
 */
export function installService(app: Express, service: RequestHandler, onError: ErrorRequestHandler): void {
  // A pipeline that ends without answering has reached a path the service does not serve.
  const serviceLayer: RequestHandler = (req, res, next) => service(req, res, (err?: unknown) => next(err ?? notFound(req)));
  app.use(serviceLayer);
  app.use(onError);
  const router = app.router as unknown as RouterStack;
  const [serviceEntry, errorEntry] = router.stack.slice(-2);
  /** The stack in the order described above; stable for everything else. */
  const order = () => {
    const before: RouterStack['stack'] = [];
    const errors: RouterStack['stack'] = [];
    for (const layer of router.stack) {
      if (layer === serviceEntry || layer === errorEntry) continue;
      // An error handler is a function of four arguments, as express tells them apart.
      (layer.handle.length === 4 ? errors : before).push(layer);
    }
    router.stack.splice(0, router.stack.length, ...before, serviceEntry, ...errors, errorEntry);
  };
  for (const name of ['use', 'route'] as const) {
    const grow = router[name];
    router[name] = function (this: RouterStack, ...args: unknown[]) {
      const result = grow.apply(this, args);
      order();
      return result;
    };
  }
}
