import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from '../config';

/**
 * The HTTP server with the connection limits from the settings: request heads over `maxHeaderSize`
 * get Node's 431, a head not received within `headersTimeoutMs` or a request within
 * `requestTimeoutMs` gets 408 and the connection closed, a connection that sends nothing closes after
 * `headersTimeoutMs`, idle keep-alive connections close after
 * `keepAliveTimeoutMs`, and at most `maxConnections` sockets are open at once (0: no limit).
 */
export function createHttpServer(app: RequestListener, config: Config): Server {
  const server = createServer(
    {
      maxHeaderSize: config.maxHeaderSize,
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
  return server;
}
