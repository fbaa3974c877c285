import type { IncomingMessage, ServerResponse } from 'node:http';
import contentType from 'content-type';
import getRawBody from 'raw-body';
import { ApiError } from '../rest/errors';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export interface BodyLimits {
  /** Largest body read, in bytes. */
  bodyLimit: number;
  /** Most bytes of a refused body read and thrown away before the connection is cut. */
  bodyDrainLimit: number;
}

/**
 * For a request refused before its body was read: the rest of the body is read and thrown away (up to
 * `maxBytes`), so a client that sends its whole request before reading gets the answer rather than a
 * broken pipe or a reset, and the connection is half-closed once the answer is sent (the client sees
 * its end). Past `maxBytes` the connection is destroyed. Time is bounded by the server: a body not
 * ended within REQUEST_TIMEOUT_MS, or a connection idle for KEEP_ALIVE_TIMEOUT_MS, is closed.
 */
export function closeAfterDiscarding(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  const socket = req.socket;
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxBytes) socket.destroy();
  });
  req.resume();
  // Not `Connection: close`: Node would destroy the socket as soon as the answer is written, with the
  // client's bytes still unread, and the kernel would answer them with a reset.
  if (res.writableFinished) socket.end();
  else res.once('finish', () => socket.end());
}

/**
 * Reads a request body as UTF-8 text, for REST and GraphQL alike. Refuses at once, without reading
 * the rest of the body: a declared or streamed size over `bodyLimit` (413; the rest is discarded and the
 * connection closed, see closeAfterDiscarding), a content encoding or a charset other than UTF-8 (415).
 * Bytes that are not valid UTF-8 are a 400.
 */
export async function readTextBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<string> {
  const limit = limits.bodyLimit;
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
      closeAfterDiscarding(req, res, limits.bodyDrainLimit);
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
