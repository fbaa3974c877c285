import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middlewares run in order as ONE express layer. Every `app.use` layer costs express's router a
 * `next()` with its layer matching and bookkeeping; the service runs about a dozen fixed steps before a
 * handler (request context, security headers, CORS, protocol checks, the route's answer, the body gate
 * and the validator's own four middlewares), so composing them saves that per step.
 * Measured in BENCHMARKS.md ("Issue 12: one layer for the fixed steps").
 *
 * Semantics kept from express: `next(err)` skips the remaining steps and goes to the error handler; a
 * step that throws, or returns a promise that rejects, is the same as `next(err)`. (`next('route')` and
 * `next('router')` are not used by these steps and are passed on to express as they are.)
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
