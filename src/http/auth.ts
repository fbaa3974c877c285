import { createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { AuthSettings } from '../config';
import { ApiError, oneLine, sendError } from './errors';
import { sendJson } from './send';
import type { Phase, Principal, RequestState } from './request-state';
import { messageFormat } from './routes';

/**
 * Bearer tokens (JWT, RFC 6750), when AUTH_JWT_SECRET or AUTH_JWT_PUBLIC_KEY_FILE is set (docs/settings.md).
 * The one place tokens are verified (`tokenVerifier`, with jose) and the protect phase's steps that enforce the
 * scopes openapi.yaml declares (`authSteps`). GraphQL's field scopes are checked by src/graphql/scopes.ts with
 * the same verifier's principal; ./served-spec.ts serves the spec as this instance enforces it. With auth off
 * none of this is built.
 */

/** The scope the metrics route needs: it is outside openapi.yaml, so this is where it is named. */
export const METRICS_SCOPE = 'metrics:read';

/** Longest clock difference accepted on `exp` and `nbf`, in seconds. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** Why a request carries no principal: no bearer token, or one that did not verify. */
export interface TokenProblem {
  readonly problem: 'missing' | 'invalid';
  readonly reason: string;
}

export type Credentials = Principal | TokenProblem;

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** jose's refusals, in a client's words (anything else jose throws is a token that does not verify). */
function invalidReason(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.reason === 'missing') return `the token has no ${err.claim} claim`;
    if (err.claim === 'nbf') return 'the token is not valid yet';
    return `the token's ${err.claim} claim is not accepted`;
  }
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the token is not signed with the accepted algorithm';
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  return 'the token is malformed';
}

/** The key tokens are verified with. */
function verificationKey(settings: AuthSettings): KeyObject {
  return settings.algorithm === 'HS256' ? createSecretKey(Buffer.from(settings.key, 'utf8')) : createPublicKey(settings.key);
}

/** Turns an `Authorization` header into a principal (`sub`, and the `scope` claim's space-separated scopes), or says why not. */
export function tokenVerifier(settings: AuthSettings): (authorization: string | undefined) => Promise<Credentials> {
  const key = verificationKey(settings);
  const options = {
    algorithms: [settings.algorithm],
    // No token lives forever (RFC 8725 §3.10 asks for an expiry): one without `exp` is refused.
    requiredClaims: ['exp'],
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    ...(settings.issuer ? { issuer: settings.issuer } : {}),
    ...(settings.audience ? { audience: settings.audience } : {}),
  };
  return async (authorization) => {
    if (authorization === undefined || !/^Bearer(\s|$)/i.test(authorization)) return { problem: 'missing', reason: 'a bearer token is required' };
    const token = BEARER.exec(authorization)?.[1];
    if (!token) return { problem: 'invalid', reason: 'the Authorization header is not "Bearer <token>"' };
    try {
      const { payload } = await jwtVerify(token, key, options);
      if (typeof payload.sub !== 'string' || payload.sub === '') return { problem: 'invalid', reason: 'the token has no sub claim' };
      const scope = typeof payload.scope === 'string' ? payload.scope : '';
      return { subject: payload.sub, scopes: new Set(scope.split(' ').filter(Boolean)) };
    } catch (err) {
      return { problem: 'invalid', reason: invalidReason(err) };
    }
  };
}

export function isPrincipal(credentials: Credentials): credentials is Principal {
  return 'subject' in credentials;
}

/** A refusal as RFC 6750 words it: 401 (with `error="invalid_token"` when a token was sent) or 403 insufficient_scope. */
export interface Refusal {
  status: 401 | 403;
  message: string;
  /** UNAUTHENTICATED or FORBIDDEN: the GraphQL error's `extensions.code`. */
  code: 'UNAUTHENTICATED' | 'FORBIDDEN';
  challenge: string;
}

/** What `credentials` are refused for an operation that needs `scopes` (all of them), or undefined when they are enough. */
export function refusalOf(credentials: Credentials | undefined, scopes: readonly string[]): Refusal | undefined {
  if (scopes.length === 0) return undefined;
  if (credentials === undefined || !isPrincipal(credentials)) {
    if (credentials?.problem === 'invalid') return invalidToken(credentials);
    return { status: 401, message: 'Unauthorized: a bearer token is required', code: 'UNAUTHENTICATED', challenge: 'Bearer' };
  }
  const missing = scopes.filter((scope) => !credentials.scopes.has(scope));
  if (missing.length === 0) return undefined;
  return {
    status: 403,
    message: `Forbidden: the token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}`,
    code: 'FORBIDDEN',
    challenge: `Bearer error="insufficient_scope", scope="${missing.join(' ')}"`,
  };
}

export function invalidToken(problem: TokenProblem): Refusal {
  return { status: 401, message: `Unauthorized: ${problem.reason}`, code: 'UNAUTHENTICATED', challenge: 'Bearer error="invalid_token"' };
}

/** A refusal as a GraphQL result: a GraphQL error with its code. */
function graphqlRefusal(refusal: Refusal): { errors: { message: string; extensions: { code: Refusal['code'] } }[] } {
  return { errors: [{ message: oneLine(refusal.message), extensions: { code: refusal.code } }] };
}

/** A refusal's GraphQL body. */
export function graphqlRefusalBody(refusal: Refusal): string {
  return JSON.stringify(graphqlRefusal(refusal));
}

/** Writes a refusal in the route's error format, with its `WWW-Authenticate` challenge. */
function sendRefusal(state: RequestState, refusal: Refusal): void {
  const headers = { 'WWW-Authenticate': refusal.challenge };
  if (state.match?.route.errorFormat === 'graphql') {
    state.res.set(headers);
    sendJson(state.res, refusal.status, graphqlRefusal(refusal));
    return;
  }
  sendError(state.res, messageFormat(state), new ApiError(refusal.status, refusal.message, undefined, headers));
}

/** Whether this instance asks for a token for `scope`: writes always, reads when AUTH_READS=token. */
export function enforced(settings: AuthSettings, scope: string): boolean {
  return settings.reads === 'token' || !scope.endsWith(':read');
}

/** The scopes of `declared` this instance enforces (see `enforced`). */
export function enforcedScopes(settings: AuthSettings, declared: readonly string[]): string[] {
  return declared.filter((scope) => enforced(settings, scope));
}

/** The two steps of auth in the protect phase (./security.ts puts the rate limit between them). */
export interface AuthSteps {
  /** Verifies the request's token where one counts, fills `state.principal`, and decides the refusal, if any. */
  identify: Phase;
  /** Answers the refusal `identify` decided; passes the others on. */
  refuse: Phase;
}

/**
 * The protect phase's auth steps. A token counts on a spec operation that declares a bearer requirement
 * (openapi.yaml's `security`), on /graphql and on the metrics; health probes, the greeting, the docs and every
 * OPTIONS (preflights included) pass without their header being read.
 * - An operation needs the scopes it declares that this instance enforces (`enforced`), all of them; the
 *   metrics need METRICS_SCOPE; /graphql's operation scopes are checked by the endpoint (src/graphql/scopes.ts).
 * - A bearer token sent where it counts is verified even when nothing is needed: one that does not verify is a
 *   401 invalid_token, REST and GraphQL alike. Another scheme (`Basic ...`) is no token (RFC 6750 §3.1): the
 *   request is anonymous, refused only where a scope is needed.
 * `identify` runs after the HTTP/1.1 message rules and before the rate limit, so a refusal keeps the framing
 * rules and counts against the limit; `refuse` answers after the limit. A refusal is answered before the body
 * is read: nothing is read from or written to storage.
 */
export function authSteps(settings: AuthSettings): AuthSteps {
  const verify = tokenVerifier(settings);
  const metrics: readonly string[] = [METRICS_SCOPE];
  const none: readonly string[] = [];
  const byOperation = new WeakMap<object, readonly string[]>();
  const scopesOf = (state: RequestState): readonly string[] | undefined => {
    const op = state.operation;
    if (op) {
      if (op.scopes.length === 0) return undefined;
      let needed = byOperation.get(op);
      if (!needed) byOperation.set(op, (needed = enforcedScopes(settings, op.scopes)));
      return needed;
    }
    const label = state.match?.route.label;
    if (label === 'metrics') return metrics;
    if (label === 'graphql') return none;
    return undefined;
  };
  const refusals = new WeakMap<RequestState, Refusal>();
  const identify: Phase = (state, next) => {
    if (state.req.method === 'OPTIONS') return next();
    const scopes = scopesOf(state);
    const authorization = state.req.headers.authorization;
    if (scopes === undefined || (scopes.length === 0 && authorization === undefined)) return next();
    return verify(authorization).then((credentials) => {
      if (isPrincipal(credentials)) state.principal = credentials;
      const refusal = scopes.length > 0 ? refusalOf(credentials, scopes) : !isPrincipal(credentials) && credentials.problem === 'invalid' ? invalidToken(credentials) : undefined;
      if (refusal) refusals.set(state, refusal);
      next();
    });
  };
  const refuse: Phase = (state, next) => {
    const refusal = refusals.get(state);
    if (refusal) sendRefusal(state, refusal);
    else next();
  };
  return { identify, refuse };
}
