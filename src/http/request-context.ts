import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import { logRequest, type Logger } from '../logger';
import type { RequestMetrics } from '../ops/metrics';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The request's logger: every line it writes carries the request's `requestId`. */
      log: Logger;
    }
  }
}

/**
 * Gives every request an id (the client's `X-Request-Id` when it is sane, else a new UUID), returns
 * it in `X-Request-Id`, gives it a child logger (`res.locals.log`, which adds `requestId` to every
 * line), and logs one JSON line when the response is closed: Node emits `close` once
 * per response, after `finish` when it was sent and alone when the client went away (`aborted`).
 * The same start and end feed the metrics, when they are on.
 */
export function requestContext(logger: Logger, metrics?: RequestMetrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    metrics?.started();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    const log = logger.child({ requestId });
    res.locals.log = log;
    res.setHeader('X-Request-Id', requestId);
    const method = req.method;
    const path = req.path;
    res.once('close', () => {
      const elapsedMs = performance.now() - started;
      metrics?.finished(method, path, res.statusCode, elapsedMs / 1000, res);
      logRequest(log, { method, path, status: res.statusCode, durationMs: Math.round(elapsedMs * 1000) / 1000, aborted: !res.writableFinished });
    });
    next();
  };
}
