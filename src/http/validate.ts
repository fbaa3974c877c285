import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from '../spec';
import { chain } from './phases';

/**
 * The `validate` phase (./phases.ts): every request for a spec operation is checked against openapi.yaml by
 * express-openapi-validator (its Ajv schemas decide every 400; ./validator-errors.ts words them), through its
 * public `middleware()` only: its middlewares run in the order it returns them, as one handler. The validator
 * finds the request's operation itself (its route lookup), and checks credentials where the spec asks for
 * them once `validateSecurity` is on. Responses are checked where they are written (src/rest/response-check.ts),
 * so response validation is off here.
 *
 * The validator checks the document against the OpenAPI schema once (`validateApiSpec`), while it loads it;
 * a document that fails the check fails every request with the validator's error.
 */
export function requestValidation(openapi: OpenApiDocument): RequestHandler {
  return chain(OpenApiValidator.middleware(options(openapi)) as RequestHandler[]);
}

/** The validator's options: requests checked, unknown query parameters refused. */
function options(apiSpec: OpenApiDocument): Parameters<typeof OpenApiValidator.middleware>[0] {
  return {
    // The validator copies the document it is given (and never changes the caller's).
    apiSpec: apiSpec as never,
    validateApiSpec: true,
    validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
    validateResponses: false,
    validateSecurity: false,
    ignoreUndocumented: false,
    // Match the path below the service's mount point (req.url), so the service answers under a prefix too.
    useRequestUrl: true,
    fileUploader: false,
    $refParser: { mode: 'dereference' },
  };
}
