import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { Config } from '../config';
import { expressClasses } from './perf/express-classes';
import { guardUnsentResponses } from './unsent';

/**
 * The HTTP server for `app`, with the connection limits from the settings: request heads over `maxHeaderSize`
 * get Node's 431, a head not received within `headersTimeoutMs` or a request within
 * `requestTimeoutMs` gets 408 and the connection closed, a connection that sends nothing closes after
 * `headersTimeoutMs`, idle keep-alive connections close after
 * `keepAliveTimeoutMs`, at most `maxConnections` sockets are open at once (0: no limit), and responses
 * that clients do not read are bounded by `responseWriteTimeoutMs` and `maxUnsentBytes` (./unsent.ts).
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
