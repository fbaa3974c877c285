import type { Request, RequestHandler } from 'express';
import { chain } from '../phases';
import type { RouteMatch } from '../request-state';
import type { OperationInfo } from '../spec-routes';

/**
 * Speed trick (fenced in src/http/perf/): express-openapi-validator's request and response validation,
 * without its route lookup on every request. The route table has already matched the request; the
 * validator's own lookup (`lookupRoute` in its metadata middleware) would match it again by compiling
 * and trying every spec path in turn, and its path-params middleware adds one more promise hop per
 * request while doing nothing once started (it installs `app.param` hooks on the first request only).
 *
 * How: the validator's middlewares, as `middleware()` returns them, are split by the names 5.x gives
 * them: the lookup (`pathParamsMiddleware`, `metadataMiddleware`), the security step
 * (`securityMiddleware`) and the validation (`requestMiddleware`, `responseMiddleware`). The first
 * request for an operation runs them all; what the lookup put in `req.openapi` (the operation's schema,
 * routes and serial: fixed per operation) is kept for that operation. Later requests for it get
 * `req.openapi` and `req.params` from that record and the route table's path parameters, decoded as the
 * validator decodes them, and run the validation only. The validator's Ajv schemas still decide every
 * 400, and its response validation still checks every answer where it is on. A path parameter that does
 * not decode (a malformed escape) takes the full chain, so the validator answers it as before.
 *
 * The security step runs on every request for an operation the spec secures (`OperationInfo.secured`:
 * its `security`, else the document's, is a non-empty list), so credentials are checked per request
 * whenever `validateSecurity` is on. Elsewhere it is skipped: the validator's security middleware reads
 * that same list and calls `next()` when it is empty, whatever its options.
 *
 * Measured in docs/design.md ("Speed tricks"). Guarded by
 * test/hardening/perf-tricks.test.ts through the real createApp: once warm, a request makes the
 * validator compile no route, and validation still refuses bad input; and by
 * test/hardening/validator-security.test.ts: with the real validator's security on, a skipped step never
 * changes an answer. An upgrade that renames the middlewares stops the start with a one-line error
 * (rather than silently validating nothing).
 */
const LOOKUP = ['pathParamsMiddleware', 'metadataMiddleware'];
const SECURITY = 'securityMiddleware';
const VALIDATION = ['requestMiddleware', 'responseMiddleware'];

/** What the validator's metadata middleware puts on the request (only `pathParams` varies per request). */
interface OpenApiMetadata {
  expressRoute: unknown;
  openApiRoute: unknown;
  pathParams: Record<string, string>;
  schema: unknown;
  serial: unknown;
  _responseSchema?: unknown;
}
/** Its fields, all of them: metadata with any other field is not kept (that operation always runs the lookup). */
const METADATA_FIELDS = new Set(['expressRoute', 'openApiRoute', 'pathParams', 'schema', 'serial', '_responseSchema']);
type ValidatedRequest = Request & { openapi?: OpenApiMetadata };

export function validatorAfterMatch(middlewares: readonly RequestHandler[]): RequestHandler[] {
  const names = middlewares.map((mw) => mw.name);
  const lookupCount = LOOKUP.length;
  const expected =
    names.slice(0, lookupCount).join() === LOOKUP.join() &&
    names[lookupCount] === SECURITY &&
    names.slice(lookupCount + 1).every((name) => VALIDATION.includes(name));
  if (!expected) throw new Error(`express-openapi-validator: unexpected middlewares (${names.join(', ')}): update src/http/perf/validator-handoff.ts`);
  const lookup = chain(middlewares.slice(0, lookupCount + 1));
  const security = middlewares[lookupCount];
  const validation = middlewares.slice(lookupCount + 1);
  const kept = new WeakMap<OperationInfo, Omit<OpenApiMetadata, 'pathParams'>>();

  const handoff: RequestHandler = (req, res, next) => {
    // The route phase's match and operation, from the request's state (src/http/request-state.ts).
    const state = res.locals.state;
    const op = state?.operation;
    const match = state?.match;
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
        _responseSchema: metadata._responseSchema,
      };
      req.params = params;
      return op.secured ? security(req, res, next) : next();
    }
    lookup(req, res, (err?: unknown) => {
      const found = (req as ValidatedRequest).openapi;
      // Kept only when the validator found the operation the route table did.
      const plain = found !== undefined && Object.keys(found).every((field) => METADATA_FIELDS.has(field));
      if (err == null && op && plain && found.openApiRoute === match?.route.template) {
        const { pathParams: _varies, ...fixed } = found;
        kept.set(op, fixed);
      }
      next(err);
    });
  };
  return [handoff, ...validation];
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
