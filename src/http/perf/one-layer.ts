import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middlewares run in order as ONE pipeline. As express layers, each would cost express's router a
 * `next()` with its layer matching and bookkeeping; the service runs about a dozen steps per request
 * (request context, security headers, CORS, protocol checks, the route's answer, the body gate, the
 * validator's middlewares, the registrar), so composing them saves that per step. The service is this
 * pipeline as one express layer (../express-app.ts). GET /books/{id} 1.07x req/s against the steps as
 * express layers (`node bench/compare.js A B --only=get-book --rounds=12 --duration=3`).
 *
 * Semantics kept from express: `next(err)` skips the remaining steps and goes to the error handler; a
 * step that throws, or returns a promise that rejects, is the same as `next(err)`. (`next('route')` and
 * `next('router')` are not used by these steps; they would reach the error handler as errors.)
 */
export function oneLayer(steps: readonly RequestHandler[]): RequestHandler {
  if (steps.length === 1) return steps[0];
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      if (index === steps.length) return next();
      const handler = steps[index++];
      try {
        const returned = handler(req, res, step) as unknown;
        if (returned instanceof Promise) returned.then(undefined, (error: unknown) => next(error ?? new Error('rejected')));
      } catch (error) {
        next(error);
      }
    };
    step();
  };
}
