import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from '../spec';

/**
 * The validate phase: every request for a spec operation is checked against openapi.yaml by
 * express-openapi-validator (its Ajv schemas decide every 400), through its public `middleware()` only:
 * its middlewares run in the order it returns them, as one handler. The validator finds the request's
 * operation itself (its route lookup), and checks credentials where the spec asks for them once
 * `validateSecurity` is on.
 *
 * The validator checks the document against the OpenAPI schema once (`validateApiSpec`), while it loads it;
 * a document that fails the check fails every request with the validator's error.
 */
export function requestValidation(openapi: OpenApiDocument): RequestHandler {
  return inOrder(OpenApiValidator.middleware(options(openapi)) as RequestHandler[]);
}

/** The validator's options: requests checked, unknown query parameters refused, responses checked where they are written (src/rest/response-check.ts). */
function options(apiSpec: OpenApiDocument): Parameters<typeof OpenApiValidator.middleware>[0] {
  return {
    // The validator copies the document it is given (and never changes the caller's).
    apiSpec: apiSpec as never,
    validateApiSpec: true,
    validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
    validateResponses: false,
    validateSecurity: false,
    ignoreUndocumented: false,
    // Match the path below the app's mount point (req.url), so the service answers under a prefix too.
    useRequestUrl: true,
    fileUploader: false,
    $refParser: { mode: 'dereference' },
  };
}

/** The validator's middlewares, in the order `middleware()` returns them, as one handler: an error skips the rest. */
function inOrder(middlewares: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return done(err);
      if (index === middlewares.length) return done();
      const middleware = middlewares[index++];
      try {
        const returned = middleware(req, res, step) as unknown;
        if (returned instanceof Promise) returned.then(undefined, (error: unknown) => done(error ?? new Error('rejected')));
      } catch (error) {
        done(error);
      }
    };
    step();
  };
}
