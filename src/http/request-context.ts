import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the client's `X-Request-Id` when it is sane, else a new UUID), returns
 * it in `X-Request-Id`, and logs one JSON line when the response is done or the client goes away.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const method = req.method;
    const path = req.path;
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info('request', {
        method,
        path,
        status: res.statusCode,
        durationMs: Math.round(durationMs * 1000) / 1000,
        requestId,
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    };
    res.once('finish', log);
    res.once('close', log);
    next();
  };
}
