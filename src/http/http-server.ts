import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config';
import { guardUnsentResponses } from './unsent';

type RequestClass = typeof IncomingMessage;
type ResponseClass = typeof ServerResponse;

/**
 * Request and response classes whose instances are born with the app's own prototypes
 * (`app.request`, `app.response`). Express gives every request and response those prototypes with
 * `Object.setPrototypeOf` as it enters the app; on an object that already has them, that call changes
 * nothing. Changing the prototype of a live object makes V8 drop its optimised shape and slows
 * every later property access on it: measured on a plain express 5 route, 3.1x more req/s with
 * these classes (BENCHMARKS.md, "What each change bought"). Nothing else changes: the prototype
 * chain is exactly the one express builds.
 */
export function expressClasses(app: Express): { IncomingMessage: RequestClass; ServerResponse: ResponseClass } {
  // Plain constructor functions calling Node's (which are functions, not ES classes): `Reflect.construct`
  // with a new target would do the same, but measured 0.7x the req/s of express's own setPrototypeOf.
  const initRequest = IncomingMessage as unknown as (this: IncomingMessage, socket: Socket) => void;
  const initResponse = ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: unknown) => void;
  function AppRequest(this: IncomingMessage, socket: Socket): void {
    initRequest.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options?: unknown): void {
    initResponse.call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return { IncomingMessage: AppRequest as unknown as RequestClass, ServerResponse: AppResponse as unknown as ResponseClass };
}

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
      // A missing Host is refused by the app (src/http/protocol.ts), in the path's error format.
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
