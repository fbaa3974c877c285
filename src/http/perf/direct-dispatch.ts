import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { notFound } from '../errors';

/**
 * Speed trick (fenced in src/http/perf/, see ./README.md): the app's requests go straight to its one
 * pipeline (./one-layer.ts) and its error handler, without express's router in between. The route table
 * already decides every path and method, so the router had one layer to match per request, at the cost of
 * its per-request set-up (a final handler, URL re-parsing, layer matching and parameter processing).
 *
 * `app.handle`, which express's app function calls for each request, is replaced on this app only. It
 * does what express's own does before routing: the app's request and response prototypes (a no-op for
 * requests born with them, see ./express-classes.ts), `req.res`/`res.req`, `res.locals`, and what the
 * router would set for an app mounted at the root (`req.baseUrl` '', `req.originalUrl`, `req.params` {}).
 * An error from any step goes to the error handler, as express would send it; a pipeline that ends without
 * answering (no route answers that way today) is a 404 through the same handler.
 *
 * Measured in BENCHMARKS.md ("Issue 12, second session"). Guarded by test/hardening/perf-tricks.test.ts:
 * through the real createApp, a request never enters express's router, and a step's error still reaches
 * the error handler.
 */
export function directDispatch(app: Express, pipeline: RequestHandler, onError: ErrorRequestHandler): void {
  const requestProto = app.request;
  const responseProto = app.response;
  const handle = (req: Request, res: Response, callback?: NextFunction): void => {
    if (Object.getPrototypeOf(req) !== requestProto) Object.setPrototypeOf(req, requestProto);
    if (Object.getPrototypeOf(res) !== responseProto) Object.setPrototypeOf(res, responseProto);
    req.res = res;
    res.req = req;
    if (!res.locals) res.locals = Object.create(null);
    req.baseUrl = '';
    req.originalUrl = req.originalUrl || req.url;
    req.params = {};
    // After the error handler: only a mounting app's callback, or an answer cut short.
    const after = (err?: unknown) => (callback ? callback(err) : res.headersSent || res.destroy());
    const fail = (err: unknown) => {
      try {
        onError(err, req, res, after);
      } catch (error) {
        after(error);
      }
    };
    pipeline(req, res, (err?: unknown) => fail(err ?? notFound(req)));
  };
  (app as unknown as { handle: typeof handle }).handle = handle;
}
