import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Request bodies the service does not read: the one rule for every answer given before its request's body
 * was read (an early answer: 401, 403, 404, 405, 413, 415, 429, 501, ... or any answer to a request whose
 * operation takes no body). Such an answer says `Connection: close`; the rest of the body is read and thrown
 * away, up to `bodyDrainLimit` bytes and within `requestTimeoutMs`, then the connection is closed. Without
 * it Node reads an unread body to its end whatever its size, to keep the connection for the next request.
 */

export interface BodyLimits {
  /** Largest body read, in bytes. */
  bodyLimit: number;
  /** Most bytes of a refused body read and thrown away before the connection is cut. */
  bodyDrainLimit: number;
  /** Most time a refused body is read and thrown away before the connection is cut. */
  requestTimeoutMs: number;
}

/** Whether a request announces a body (Content-Length above 0, or Transfer-Encoding). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Connections being closed after a refusal, each with the function that discards a request's body there. */
const discarding = new WeakMap<Socket, (req: IncomingMessage) => void>();

/** Answers marked by closeAfterDiscarding: written whole, then the connection half-closed (./send.ts). */
const closingAfter = new WeakSet<ServerResponse>();

/** Whether `res` is to be written whole and then its connection half-closed, left unended (./send.ts sendText). */
export function isClosingAfter(res: ServerResponse): boolean {
  return closingAfter.has(res);
}

/**
 * For a request answered before its body was read: the answer says `Connection: close`, and the rest of
 * the body is read and thrown away, so a client that sends its whole request before reading gets the
 * answer rather than a broken pipe or a reset. Node's server destroys a `Connection: close` connection
 * as soon as its answer has ended and been written, and a socket destroyed with the client's bytes still
 * unread makes the kernel answer them with a reset, which can cost the client the answer. So the answer is
 * written whole, with its length, and the connection half-closed after it (./send.ts sendText and sendEmpty,
 * for answers marked here), but the answer is only ended, and the connection destroyed by Node, when nothing
 * is left to read: when the client closes its side (the request's log line is written then). A client that
 * goes on sending is cut after `bodyDrainLimit` more bytes or after `requestTimeoutMs` (its answer, written in
 * full, ended first).
 */
export function closeAfterDiscarding(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): void {
  const socket = req.socket;
  res.setHeader('Connection', 'close');
  let discard = discarding.get(socket);
  if (!discard) {
    closingAfter.add(res);
    const endAnswer = () => {
      if (res.headersSent && !res.writableEnded) res.end();
    };
    const cut = () => {
      endAnswer();
      socket.destroy();
    };
    socket.once('end', endAnswer);
    const timer = setTimeout(cut, limits.requestTimeoutMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    discard = (request) => request.on('data', bounded(limits, cut)).resume();
    discarding.set(socket, discard);
  }
  discard(req);
}

/** A `data` listener that calls `cut` once more than `bodyDrainLimit` bytes have come. */
function bounded(limits: BodyLimits, cut: () => void): (chunk: Buffer) => void {
  let discarded = 0;
  return (chunk) => {
    discarded += chunk.length;
    if (discarded > limits.bodyDrainLimit) cut();
  };
}

/**
 * A request that comes on a connection being closed after a refusal (pipelined behind it) is not
 * served: its body is thrown away like the refused one's. Returns whether that was the case.
 */
export function discardIfClosing(req: IncomingMessage): boolean {
  const discard = discarding.get(req.socket);
  discard?.(req);
  return discard !== undefined;
}

/** Requests that announced a body, with the limits for discarding it (registered by `expectBody`). */
const announced = new WeakMap<IncomingMessage, BodyLimits>();

/**
 * An answer sent while its request's body was still coming, that did not say so itself (a streamed list or
 * file): the rest is read here, from its `prefinish` (before Node's own reader would take it, unbounded, to
 * keep the connection), and past `bodyDrainLimit` the connection is cut.
 */
function onAnsweredEarly(this: ServerResponse): void {
  const req = this.req;
  const limits = announced.get(req);
  if (!limits || req.complete || discarding.has(req.socket)) return;
  const socket = req.socket;
  req.on('data', bounded(limits, () => socket.destroy())).resume();
}

/**
 * Called as a request enters the service (the protect phase): a request that announces a body is registered, so
 * that any answer given before its body was read follows the rule above. Answers the service writes whole
 * (./send.ts) say `Connection: close` and discard the rest (closeIfBodyUnread); any other (a list or a file
 * streamed to a GET that came with a body) has the rest read up to `bodyDrainLimit` once it is written, then its
 * connection cut (onAnsweredEarly). A request without a body costs two header lookups.
 */
export function expectBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): void {
  if (!hasBody(req)) return;
  announced.set(req, limits);
  // A plain function, registered with `on` (a response finishes once): no wrapper allocated per request.
  res.on('prefinish', onAnsweredEarly);
}

/** Before an answer the service writes whole (./send.ts): one given while its request's body is still unread closes after discarding it. */
export function closeIfBodyUnread(res: ServerResponse): void {
  const req = res.req;
  if (req === undefined || req.complete || res.headersSent || closingAfter.has(res)) return;
  const limits = announced.get(req);
  if (limits) closeAfterDiscarding(req, res, limits);
}
