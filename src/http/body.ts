import type { IncomingMessage } from 'node:http';
import contentType from 'content-type';
import getRawBody from 'raw-body';
import { ApiError } from '../rest/errors';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads a request body as UTF-8 text, for REST and GraphQL alike. Refuses at once, without reading
 * the rest of the body: a declared or streamed size over `limit` (413, and the connection is closed
 * rather than drained), a content encoding or a charset other than UTF-8 (415). Bytes that are not
 * valid UTF-8 are a 400.
 */
export async function readTextBody(req: IncomingMessage, limit: number): Promise<string> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    throw new ApiError(415, 'Unsupported media type: request bodies must not use a content encoding');
  }
  let charset = 'utf-8';
  try {
    charset = (contentType.parse(req).parameters.charset ?? 'utf-8').toLowerCase();
  } catch {
    // No or malformed Content-Type: the caller decides what media types it takes.
  }
  if (charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(415, 'Unsupported media type: request bodies must be UTF-8');
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(req, { length: req.headers['content-length'], limit });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') {
      throw new ApiError(413, `Request body is larger than ${limit} bytes`, undefined, { Connection: 'close' });
    }
    throw new ApiError(400, 'Invalid request: the body could not be read');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(400, 'Invalid request: body is not valid UTF-8');
  }
}
