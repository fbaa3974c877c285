import type { Request, RequestHandler } from 'express';
import { closeAfterDiscarding, discardIfClosing, type BodyLimits } from './body';
import { ApiError, sendError } from './errors';
import { messageFormat } from './routes';

/** An absolute-form target (RFC 9112 §3.2.2): scheme, optional userinfo, authority, then the rest. */
const ABSOLUTE_FORM = /^https?:\/\/(?:[^/?#@]*@)?([^/?#]*)(.*)$/i;

/** A Host value: a host name, IPv4 or bracketed IPv6 literal, and an optional port (RFC 9110 §7.2). */
const HOST_VALUE = /^(?:\[[0-9a-f:.]+\]|[a-z0-9._~!$&'()*+,;=%-]*)(?::\d{0,5})?$/i;

/**
 * Serves an absolute-form request target (`GET http://host/books/1`, what a client talking to a proxy
 * sends) as its origin form (`/books/1`), with the target's authority as Host (RFC 9112 §3.2.2: it wins
 * over the Host header). First in the app, so every later layer and the request log see the path.
 * Other targets that are not origin form (`OPTIONS *` aside) are refused by `protocolChecks`.
 */
export const originForm: RequestHandler = (req, _res, next) => {
  const url = req.url;
  if (url.charCodeAt(0) !== 0x2f) {
    const match = ABSOLUTE_FORM.exec(url);
    if (match) {
      const rest = match[2];
      req.url = req.originalUrl = rest.startsWith('/') ? rest : `/${rest}`;
      req.headers.host = match[1];
    }
  }
  next();
};

function countHosts(raw: string[]): number {
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  return hosts;
}

/** What makes a request unservable at the HTTP/1.1 message level, if anything (Node's parser lets these through). */
function messageProblem(req: Request): ApiError | undefined {
  const codings = req.headers['transfer-encoding'];
  if (codings !== undefined) {
    // RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 is faulty framing (400); a coding other than chunked is a 501.
    if (req.httpVersion === '1.0') return new ApiError(400, 'Bad request: Transfer-Encoding is not allowed in an HTTP/1.0 request');
    if (codings.toLowerCase() !== 'chunked') {
      return new ApiError(501, `Not implemented: transfer coding "${codings.slice(0, 100)}"; request bodies may only be sent as is or chunked`);
    }
  }
  if (req.url.charCodeAt(0) !== 0x2f && !(req.url === '*' && req.method === 'OPTIONS')) {
    return new ApiError(400, 'Bad request: the request target must be a path or an http(s) URL');
  }
  // RFC 9112 §3.2: an HTTP/1.1 request with no Host, more than one, or an invalid one is a 400.
  const hosts = countHosts(req.rawHeaders);
  if (hosts > 1) return new ApiError(400, 'Bad request: more than one Host header');
  if (hosts === 0 && req.httpVersion !== '1.0') return new ApiError(400, 'Bad request: an HTTP/1.1 request needs a Host header');
  if (hosts === 1 && !HOST_VALUE.test(req.headers.host ?? '')) return new ApiError(400, 'Bad request: invalid Host header');
  return undefined;
}

/**
 * Refuses requests that HTTP/1.1 says a server must not serve, before anything reads their body or
 * answers but the security layer (headers, CORS, rate limit): a
 * transfer coding other than chunked (501), Transfer-Encoding in HTTP/1.0, a target that is neither a
 * path nor an http(s) URL, a missing, duplicated or invalid Host (400). The answer is in the path's
 * error format; the rest of the body is discarded and the connection closed after it (closeAfterDiscarding),
 * since the message's framing or target cannot be trusted.
 */
export function protocolChecks(limits: BodyLimits): RequestHandler {
  return (req, res, next) => {
    // A pipelined request, parsed while an earlier answer on its connection is unfinished, waits for its
    // turn (Node hands it the socket then): an earlier refusal may close the connection. Requests on a
    // connection that is closing after a refusal are not served, and nothing they ask is stored.
    if (discardIfClosing(req)) return;
    if (!res.socket) {
      res.once('socket', () => discardIfClosing(req) || next());
      return;
    }
    const problem = messageProblem(req);
    if (!problem) return next();
    closeAfterDiscarding(req, res, limits);
    sendError(res, messageFormat(req), problem);
  };
}
