import { TEXT_PATTERN, TEXT_RULE } from '../text-rule';

/**
 * express-openapi-validator's request errors as the service's 400s. Only the checks the validator is
 * the enforcement point for reach it: the route table has already answered unknown paths (404) and
 * methods (405), and the body gate (the readBody phase, ./body.ts) media types, sizes and unparsable JSON.
 */
interface ValidatorError {
  status: number;
  errors: { path?: string; message?: string; errorCode?: string; params?: Record<string, unknown> }[];
}

export function isValidatorError(err: unknown): err is ValidatorError {
  const candidate = err as Partial<ValidatorError> | null;
  return (
    typeof candidate?.status === 'number' && candidate.status >= 400 && candidate.status < 500 && Array.isArray(candidate.errors)
  );
}

/** A readable location from a validator path such as `/body/title` or `.params.id`. */
function where(path = ''): string {
  const clean = path.replace(/^\.?/, '/').replace(/\./g, '/').replace(/^\/+/, '/');
  return clean === '/' ? '' : clean;
}

/** What a merge patch's `null` for a field that may not be removed is told (the patch schema lets `null` through only for optional fields). */
export const NOT_REMOVABLE = 'cannot be removed: the record requires it (null removes a field in a merge patch)';

/**
 * What the service answers for a validator's error (./errors.ts makes it an ApiError): its status, a one-line
 * summary, the details. `patch` is the body of a JSON merge patch (RFC 7396), whose `null` members are removals.
 */
export function validatorRefusal(err: ValidatorError, patch?: unknown): { status: number; message: string; details?: { path: string; message: string }[] } {
  const details = err.errors.map((item) => {
    const path = where(item.path);
    const message = item.message ?? 'is invalid';
    // A merge patch's `null` where the schema takes no null: the field cannot be removed, which is what it asked.
    const member = /^\/body\/([^/]+)$/.exec(path)?.[1];
    if (member !== undefined && typeof patch === 'object' && patch !== null && (patch as Record<string, unknown>)[member] === null && /^must be /.test(message)) {
      return { path, message: NOT_REMOVABLE };
    }
    // Name the offending property, e.g. "unknown property 'id'", rather than the generic schema text.
    const extra = item.params?.additionalProperty;
    if (typeof extra === 'string' || /additional properties/.test(message)) {
      const name = typeof extra === 'string' ? extra : path.split('/').pop();
      const parent = typeof extra === 'string' ? path : path.split('/').slice(0, -1).join('/');
      return { path: `${parent}/${name}`, message: `unknown property '${name}' is not allowed` };
    }
    // The validator reports a missing body as a missing property named 'body'; say it plainly.
    if (path === '/body' && /required property 'body'/.test(message)) return { path, message: 'a JSON request body is required' };
    // Text fields carry the text rule's pattern: say what it means rather than echoing the regex.
    if (message === `must match pattern "${TEXT_PATTERN.source}"`) return { path, message: TEXT_RULE };
    return { path, message };
  });
  const first = details[0];
  const summary = first ? `Invalid request: ${first.path.replace(/^\//, '')} ${first.message}` : 'Invalid request';
  return { status: err.status, message: summary, details: details.length ? details : undefined };
}
