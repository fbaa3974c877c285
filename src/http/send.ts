import type { ServerResponse } from 'node:http';
import { headBlock, type AnswerHeaders } from './head';
import { closeIfBodyUnread, isClosingAfter } from './unread-body';

/** The media types of every answer the service writes itself (REST, errors, GraphQL's JSON). */
export const JSON_TYPE = 'application/json; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * Writes a whole answer whose body is already text: status, the headers every answer carries and `headers`
 * (./head.ts: one block), `Content-Type` and `Content-Length`, then the body in the same write as the head. A
 * HEAD answer keeps the headers (Content-Length included) and Node leaves out the body. 204 and 304 answers
 * carry no body and no content headers. Every answer the service serialises itself leaves through here or
 * through the list writer (./json-stream.ts): one place decides how a body is framed. An answer given while its
 * request's body is still unread closes its connection after it (./unread-body.ts): it is written the same
 * way, then the connection half-closed, and the answer is ended by closeAfterDiscarding.
 */
export function sendText(res: ServerResponse, status: number, type: string, text: string, headers?: AnswerHeaders): void {
  if (status === 204 || status === 304) return sendEmpty(res, status, headers);
  closeIfBodyUnread(res);
  const head = headBlock(res, headers);
  head.push('Content-Type', type, 'Content-Length', Buffer.byteLength(text));
  res.writeHead(status, head);
  if (isClosingAfter(res)) return writeThenHalfClose(res, text);
  res.end(text);
}

/**
 * The head (sent even for HEAD, whose body Node leaves out) and the body in one write, then the end of the
 * connection's sending side; the answer itself is ended by closeAfterDiscarding (./unread-body.ts).
 */
function writeThenHalfClose(res: ServerResponse, text: string): void {
  const socket = res.socket;
  if (!socket) return void res.end(text);
  socket.cork();
  res.flushHeaders();
  if (text !== '') res.write(text);
  socket.end();
}

/** A JSON answer: `body` serialised once, as `JSON.stringify` does. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: AnswerHeaders): void {
  sendText(res, status, JSON_TYPE, JSON.stringify(body) ?? '', headers);
}

/** An answer without a body (204 and 304 carry no content headers; any other status says `Content-Length: 0`). */
export function sendEmpty(res: ServerResponse, status: number, headers?: AnswerHeaders): void {
  closeIfBodyUnread(res);
  const head = headBlock(res, headers);
  if (status === 204 || status === 304) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
  } else {
    head.push('Content-Length', 0);
  }
  res.writeHead(status, head);
  if (isClosingAfter(res)) return writeThenHalfClose(res, '');
  res.end();
}
