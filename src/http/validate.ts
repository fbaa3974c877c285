import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from '../spec';
import { chain } from './phases';
import { validatorAfterMatch } from './perf/validator-handoff';

/**
 * The `validate` phase (./phases.ts): every request against openapi.yaml, with express-openapi-validator, as one
 * express middleware. Its errors become the service's 400s (./validator-errors.ts). Responses are checked where
 * they are written (src/rest/response-check.ts), so response validation is off here.
 */
export function requestValidation(openapi: OpenApiDocument): RequestHandler {
  const middlewares = OpenApiValidator.middleware({
    apiSpec: structuredClone(openapi) as never,
    validateApiSpec: true,
    validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
    validateResponses: false,
    validateSecurity: false,
    ignoreUndocumented: false,
    // Match the path below the service's mount point (req.url), so the service answers under a prefix too.
    useRequestUrl: true,
    fileUploader: false,
    $refParser: { mode: 'dereference' },
  }) as RequestHandler[];
  // The route phase's match spares the validator its own route lookup (./perf/validator-handoff.ts).
  return chain(validatorAfterMatch(middlewares));
}
