'use strict';
// What every Fastify-based peer (fastify, fastify-openapi-glue, mercurius) gets, so that they do
// what this service does on each request (src/http/request-context.ts, src/http/security.ts):
// - a request id: the client's `X-Request-Id` when sane, else a random UUID, returned in `X-Request-Id`;
// - one JSON log line per request from Fastify's own pino logger at level info, written to stdout,
//   which bench/lib/servers.js sends to /dev/null as it does the service's (Fastify's two default
//   request lines are replaced by one line with the service's fields: method, path, status,
//   durationMs, requestId);
// - the security headers of @fastify/helmet (helmet's defaults, as the service's helmet).
const { randomUUID } = require('node:crypto');
const fastify = require('fastify');

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A Fastify instance with logger, request ids and helmet registered; `options` go to fastify(). */
async function houseFastify(options = {}) {
  const app = fastify({
    logger: { level: 'info' },
    logController: new fastify.LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    requestIdLogLabel: 'requestId',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ...options,
  });
  await app.register(require('@fastify/helmet'));
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info({ method: req.method, path: req.url.split('?')[0], status: reply.statusCode, durationMs: Math.round(reply.elapsedTime * 1000) / 1000 }, 'request');
    done();
  });
  // A clean exit on SIGTERM (bench/lib/servers.js stops servers so), so `node --cpu-prof` writes its profile.
  process.once('SIGTERM', () => app.close().finally(() => process.exit(0)));
  return app;
}

module.exports = { houseFastify };
