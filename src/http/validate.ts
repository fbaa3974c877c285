import type { NextFunction, Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from '../spec';
import { queryParams, takeQueryParams, withoutQueryParams } from './query-params';
import { chain } from './phases';
import type { Phase, RouteMatch } from './request-state';
import type { OperationInfo } from './spec-routes';

/**
 * The `validate` phase (./phases.ts): every request for a spec operation is checked against openapi.yaml by
 * express-openapi-validator (its Ajv schemas decide every 400; ./validator-errors.ts words them), except its query
 * parameters, which the service checks with the same schemas around the validator (./query-params.ts). Responses
 * are checked where they are written (src/rest/response-check.ts), so response validation is off here.
 *
 * The validator checks the document against the OpenAPI schema once (`validateApiSpec`), while it loads it;
 * a document that fails the check fails every request with the validator's error.
 */
export function requestValidation(openapi: OpenApiDocument): Phase {
  const validator = validatorAfterMatch(OpenApiValidator.middleware(options(withoutQueryParams(openapi))) as RequestHandler[]);
  const queries = queryParams(openapi);
  return (state, done) => {
    const taken = takeQueryParams(state.req, state.operation && queries.get(state.operation.operationId));
    if (!taken) return validator(state, done);
    validator(state, (err?: unknown) => {
      if (err == null) Object.assign(state.req.query, taken);
      done(err);
    });
  };
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

// ---- Speed trick (fenced: one of the service's two, listed in ./perf/README.md) ----------------------------
//
// The validator, without its own route lookup on every request. The route phase has already matched the
// request; the validator's lookup (`lookupRoute` in its metadata middleware) would match it again, compiling
// a path-to-regexp for each spec path it tries, and its path-params and metadata middlewares add a promise hop
// each. No public option skips the lookup and keeps the validation (`ignorePaths` skips both). The cost of the
// lookup, measured against this hand-off, is in docs/maintainers/design.md ("Speed tricks").
//
// How: the validator's middlewares, as `middleware()` returns them, are told apart by the names 5.x gives
// them: the lookup (`pathParamsMiddleware`, `metadataMiddleware`), the security step (`securityMiddleware`) and
// the validation (`requestMiddleware`, `responseMiddleware`). The first request for an operation runs them
// all; what the lookup put in `req.openapi` (the operation's schema, routes and serial: fixed per operation)
// is kept for that operation, when it holds exactly those documented fields. Later requests for it get
// `req.openapi` and `req.params` from that record and the route table's path parameters, decoded as the
// validator decodes them, and run the validation only. The validator's Ajv schemas still decide every 400. A
// path parameter that does not decode (a malformed escape) takes the full chain, so the validator answers it.
// The security step runs on every request for an operation the spec secures (`OperationInfo.secured`);
// elsewhere the validator's own step would call `next()` at once.
//
// An upgrade that renames or reorders the middlewares stops the start with a one-line error naming this
// file; one that changes what the lookup records (or where it matches) logs one warning per operation naming
// this file, and the operation keeps running the whole chain (test/hardening/perf-tricks.test.ts);
// test/rest/request-validation.test.ts checks that a first and a later request for an operation are refused alike.

const LOOKUP = ['pathParamsMiddleware', 'metadataMiddleware'];
const SECURITY = 'securityMiddleware';
const VALIDATION = ['requestMiddleware', 'responseMiddleware'];

/** What the validator's metadata middleware puts on the request (`req.openapi`; only `pathParams` varies per request). */
interface OpenApiMetadata {
  expressRoute: unknown;
  openApiRoute: unknown;
  pathParams: Record<string, string>;
  schema: unknown;
  serial: unknown;
}
/** Its fields, all of them: metadata with any other field is not kept (that operation always runs the lookup). */
const METADATA_FIELDS = new Set(['expressRoute', 'openApiRoute', 'pathParams', 'schema', 'serial']);
type ValidatedRequest = Request & { openapi?: OpenApiMetadata };

/** The validator's middlewares with the lookup run once per operation; throws (one line) if they are not the expected ones. */
export function validatorAfterMatch(middlewares: readonly RequestHandler[]): Phase {
  const names = middlewares.map((mw) => mw.name);
  const lookupCount = LOOKUP.length;
  const expected =
    names.slice(0, lookupCount).join() === LOOKUP.join() &&
    names[lookupCount] === SECURITY &&
    names.slice(lookupCount + 1).every((name) => VALIDATION.includes(name));
  if (!expected) throw new Error(`express-openapi-validator: unexpected middlewares (${names.join(', ')}): update the hand-off in src/http/validate.ts`);
  const lookup = chain(middlewares.slice(0, lookupCount + 1));
  const security = middlewares[lookupCount];
  const validation = chain(middlewares.slice(lookupCount + 1));
  const kept = new WeakMap<OperationInfo, Omit<OpenApiMetadata, 'pathParams'>>();
  const warned = new WeakSet<OperationInfo>();

  // The state's `log` is read only to warn: reading it makes the request's child logger (phases.ts).
  return (state, done) => {
    const { req, res, operation: op, match } = state;
    const next: NextFunction = (err?: unknown) => (err == null ? validation(req, res, done) : done(err));
    const metadata = op && kept.get(op);
    const params = metadata && match ? decodedParams(match) : undefined;
    if (metadata && params) {
      // A literal of the known fields (rather than a spread of the kept object): one shape for every request.
      (req as ValidatedRequest).openapi = {
        expressRoute: metadata.expressRoute,
        openApiRoute: metadata.openApiRoute,
        pathParams: params,
        schema: metadata.schema,
        serial: metadata.serial,
      };
      req.params = params;
      return op.secured ? security(req, res, next) : next();
    }
    lookup(req, res, (err?: unknown) => {
      const found = (req as ValidatedRequest).openapi;
      if (err == null && op && found !== undefined) {
        // Kept only when it holds the known fields and the validator found the operation the route table did.
        const unknown = Object.keys(found).filter((field) => !METADATA_FIELDS.has(field));
        if (unknown.length === 0 && found.openApiRoute === match?.route.template) {
          const { pathParams: _varies, ...fixed } = found;
          kept.set(op, fixed);
        } else if (!warned.has(op)) {
          warned.add(op);
          const why = unknown.length > 0 ? `its request metadata has fields the hand-off does not know (${unknown.join(', ')})` : `it matched ${String(found.openApiRoute)}, the route table ${match?.route.template}`;
          state.log.warn(`express-openapi-validator: ${why}: requests for ${op.operationId} run the validator's route lookup every time; update the hand-off in src/http/validate.ts`);
        }
      }
      next(err);
    });
  };
}

/** The match's path parameters by name, decoded as the validator decodes them; undefined when one does not decode. */
function decodedParams({ route, params }: RouteMatch): Record<string, string> | undefined {
  const decoded: Record<string, string> = {};
  try {
    for (let i = 0; i < route.paramNames.length; i += 1) decoded[route.paramNames[i]] = decodeURIComponent(params[i]);
  } catch {
    return undefined;
  }
  return decoded;
}
