import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config';
import { expressClasses } from './perf/express-classes';

/**
 * The HTTP server for `app`, with the connection limits from the settings: request heads over `maxHeaderSize`
 * get Node's 431, a head not received within `headersTimeoutMs` or a request within
 * `requestTimeoutMs` gets 408 and the connection closed, a connection that sends nothing closes after
 * `headersTimeoutMs`, idle keep-alive connections close after
 * `keepAliveTimeoutMs`, at most `maxConnections` sockets are open at once (0: no limit), and responses
 * that clients do not read are bounded by `responseWriteTimeoutMs` and `maxUnsentBytes` (guardUnsentResponses).
 */
export function createHttpServer(app: Express, config: Config): Server {
  const server = createServer(
    {
      ...expressClasses(app),
      maxHeaderSize: config.maxHeaderSize,
      // A missing Host is refused by the protect phase (src/http/security.ts), in the path's error format.
      requireHostHeader: false,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      // How often Node checks the two timeouts above: often enough for short test settings.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(config.headersTimeoutMs / 4))),
    },
    app,
  );
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  // Node's header timeout starts with a request's first byte, and a short checking interval stops
  // `server.timeout` from firing: a connection that sends nothing at all is closed here instead.
  server.on('connection', (socket) => {
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, config.headersTimeoutMs);
    silent.unref();
    socket.once('close', () => clearTimeout(silent));
  });
  if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
  guardUnsentResponses(server, { writeTimeoutMs: config.responseWriteTimeoutMs, maxUnsentBytes: config.maxUnsentBytes });
  return server;
}

export interface UnsentLimits {
  /** A connection whose client accepts none of its pending bytes for this long is destroyed. */
  writeTimeoutMs: number;
  /** Most pending response bytes over all connections; over it, the connections holding the most are destroyed. */
  maxUnsentBytes: number;
}

/** What the last sweep saw of one connection: bytes its client had accepted, and since when that number stood still. */
interface Progress {
  accepted: number;
  since: number;
}

/**
 * Bounds what clients that do not read can make the process hold. Node has no write timeout: a response
 * to a client that never reads stays buffered (`socket.writableLength`) until the socket closes, so a
 * few hundred such clients asking for a big list grow memory without bound.
 *
 * - Bytes: when a response has been handed to its socket (`prefinish`) and part of it is still pending
 *   there, the pending bytes of every connection known to hold some are added up; over `maxUnsentBytes`,
 *   connections are destroyed until the total is under it: those whose client has accepted nothing for
 *   the longest first, then the biggest. Answers the kernel takes at once (nearly all) cost one property read.
 * - Time: one periodic sweep over the open connections (every quarter of `writeTimeoutMs`, at most every
 *   250 ms; no timer per request) destroys a connection with pending bytes whose client accepted none
 *   of them for `writeTimeoutMs`.
 */
export function guardUnsentResponses(server: Server, limits: UnsentLimits): void {
  const connections = new Map<Socket, Progress>();
  /** Connections seen holding pending bytes; pruned whenever it is summed. */
  const holding = new Set<Socket>();

  const enforceTotal = () => {
    let total = 0;
    for (const socket of holding) {
      const pending = socket.destroyed ? 0 : socket.writableLength;
      if (pending === 0) holding.delete(socket);
      total += pending;
    }
    if (total <= limits.maxUnsentBytes) return;
    // Stalled the longest first (an answer just written has not been seen stalled: last), then the biggest.
    const stalledSince = (socket: Socket) => connections.get(socket)?.since || Infinity;
    const order = [...holding].sort((a, b) => stalledSince(a) - stalledSince(b) || b.writableLength - a.writableLength);
    for (const socket of order) {
      if (total <= limits.maxUnsentBytes) break;
      total -= socket.writableLength;
      holding.delete(socket);
      socket.destroy();
    }
  };
  // A plain function reading `this`, registered with `on`: no closure or wrapper allocated per request.
  function onResponseWritten(this: ServerResponse) {
    const socket = this.socket;
    if (!socket || socket.writableLength === 0) return;
    holding.add(socket);
    enforceTotal();
  }

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { accepted: 0, since: 0 });
    socket.once('close', () => {
      connections.delete(socket);
      holding.delete(socket);
    });
  });
  server.on('request', (_req, res: ServerResponse) => res.on('prefinish', onResponseWritten));

  const sweep = () => {
    const now = Date.now();
    for (const [socket, progress] of connections) {
      const pending = socket.writableLength;
      if (pending === 0) {
        progress.since = 0;
        continue;
      }
      // Bytes whose write completed (handed to the kernel): written so far minus those still pending.
      const accepted = socket.bytesWritten - pending;
      if (progress.since === 0 || accepted !== progress.accepted) {
        progress.accepted = accepted;
        progress.since = now;
      } else if (now - progress.since >= limits.writeTimeoutMs) {
        socket.destroy();
        continue;
      }
      holding.add(socket);
    }
    enforceTotal();
  };
  const timer = setInterval(sweep, Math.max(10, Math.min(250, Math.floor(limits.writeTimeoutMs / 4))));
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
