import type { IncomingMessage, ServerResponse } from 'node:http';
import contentType from 'content-type';
import { ApiError } from './errors';
import type { Phase } from './request-state';
import { closeAfterDiscarding, hasBody, type BodyLimits } from './unread-body';

export type { BodyLimits };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The request's Content-Type when it declares a JSON body (`application/json`, any parameters), parsed
 * once for everything that reads it; undefined for a missing, malformed or other media type.
 */
export function jsonMediaType(req: Pick<IncomingMessage, 'headers'>): contentType.ParsedMediaType | undefined {
  return mediaTypeOf(req, ['application/json']);
}

/** The request's Content-Type, parsed, when its type is one of `accepted` (lower case); undefined otherwise. */
function mediaTypeOf(req: Pick<IncomingMessage, 'headers'>, accepted: readonly string[]): contentType.ParsedMediaType | undefined {
  try {
    const parsed = contentType.parse(req);
    return accepted.includes(parsed.type) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The media type of a PATCH body (RFC 7396), the one patch format: named by a 415's `Accept-Patch` (RFC 5789). */
export const MERGE_PATCH = 'application/merge-patch+json';

/**
 * The 415 of a body in a media type the operation does not declare. A PATCH says which patch format it takes, in
 * its message and in `Accept-Patch` (RFC 5789, 2.2).
 */
function unsupportedMediaType(method: string, declared: readonly string[]): ApiError {
  if (method === 'PATCH' && declared.includes(MERGE_PATCH)) {
    return new ApiError(415, `Unsupported media type: a patch must be ${MERGE_PATCH}`, undefined, { 'Accept-Patch': MERGE_PATCH });
  }
  return new ApiError(415, `Unsupported media type: request bodies must be ${declared.join(' or ')}`);
}

/**
 * Reads a JSON request body (its Content-Type parsed by jsonMediaType) as UTF-8 text, for REST and GraphQL
 * alike. Refuses at once, without reading the rest of the body: a declared or streamed size over `bodyLimit`
 * (413; the rest is discarded and the connection closed, see closeAfterDiscarding), a content encoding or a
 * charset other than UTF-8 (415). Bytes that are not valid UTF-8 are a 400.
 */
export async function readTextBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits, media: contentType.ParsedMediaType): Promise<string> {
  const limit = limits.bodyLimit;
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    throw new ApiError(415, 'Unsupported media type: request bodies must not use a content encoding');
  }
  const charset = (media.parameters.charset ?? 'utf-8').toLowerCase();
  if (charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(415, 'Unsupported media type: request bodies must be UTF-8');
  }
  let bytes: Buffer;
  try {
    bytes = await readBytes(req, limit);
  } catch (err) {
    if (err === TOO_LARGE) {
      closeAfterDiscarding(req, res, limits);
      throw new ApiError(413, `Request body is larger than ${limit} bytes`);
    }
    throw new ApiError(400, 'Invalid request: the body could not be read');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(400, 'Invalid request: body is not valid UTF-8');
  }
}

/** Why readBytes refused a body: more than the limit, declared or sent. */
const TOO_LARGE = new Error('the request body is larger than the limit');

/**
 * A request's body, its bytes as they came (one chunk, as most are, is not copied). Refused with TOO_LARGE when its
 * Content-Length, or the bytes sent so far, pass `limit` (nothing more is read: the caller discards the rest);
 * with another error when the request ends in any other way than its body's end (the client left, the socket
 * failed) or was read before. Node's parser holds a body to its Content-Length.
 */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(TOO_LARGE);
  if (!req.readable) return Promise.reject(new Error('the request body was read before'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (err: Error | undefined) => {
      req.off('data', onData).off('end', onEnd).off('error', finish).off('close', onClose);
      if (err) {
        req.pause();
        return reject(err);
      }
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) finish(TOO_LARGE);
      else chunks.push(chunk);
    };
    const onEnd = () => finish(undefined);
    const onClose = () => finish(new Error('the request ended before its body did'));
    req.on('data', onData).on('end', onEnd).on('error', finish).on('close', onClose);
  });
}

/**
 * The `readBody` phase, for spec operations: a media type the operation declares (`application/json`, or
 * `application/merge-patch+json` for a PATCH; 415 otherwise, a PATCH's with `Accept-Patch`), at most `bodyLimit`
 * bytes (413, refused from Content-Length before reading, or as soon as a chunked body passes the limit), valid
 * JSON (400). The parsed body goes to the request's state and to `req.body` (where the validator reads it). The
 * Content-Type header is then normalised to the declared media type (and dropped for operations without a body),
 * so the validator's caches, keyed by the full Content-Type value, cannot be grown by varying it.
 */
export function readBodyPhase(limits: BodyLimits): Phase {
  return (state, next) => {
    const { req, res, operation: op } = state;
    if (!op) return next();
    if (!op.hasRequestBody) {
      // The validator caches per Content-Type value: an operation without a body has no use for one.
      delete req.headers['content-type'];
      return next();
    }
    // No body at all. The validator only notices when the schema has required properties
    // (TaskUpdate has none), so a required body is enforced here, from the spec's `required`.
    const noBody = () => {
      if (op.bodyRequired) {
        const message = 'a JSON request body is required';
        return next(new ApiError(400, `Invalid request: ${message}`, [{ path: '/body', message }]));
      }
      req.headers['content-type'] = declared[0];
      next();
    };
    const declared = op.requestMedia;
    if (!hasBody(req)) return noBody();
    const media = mediaTypeOf(req, declared);
    if (!media) return next(unsupportedMediaType(op.method, declared));
    readTextBody(req, res, limits, media).then((text) => {
      if (text === '') return noBody();
      try {
        state.body = req.body = JSON.parse(text);
      } catch {
        return next(new ApiError(400, 'Invalid request: body is not valid JSON'));
      }
      req.headers['content-type'] = media.type;
      next();
    }, next);
  };
}
