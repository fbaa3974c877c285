'use strict';
// What every Fastify-based peer (fastify, fastify-openapi-glue, mercurius) gets, so that they do
// what this service does on each request (src/http/phases.ts, src/http/security.ts):
// - a request id: the client's `X-Request-Id` when sane, else a random UUID, returned in `X-Request-Id`;
// - one JSON log line per request from Fastify's own pino logger at level info, written to stdout,
//   which bench/lib/servers.js sends to /dev/null as it does the service's (Fastify's two default
//   request lines are replaced by one line with the service's fields: method, path, status,
//   durationMs, requestId);
// - helmet's default security headers. As documented, @fastify/helmet runs per request. With
//   FIXED_HEADERS=1 (tuned, as a performance-minded user would): the same headers, which do not depend on
//   the request, are computed once at start from helmet and set by one hook, as the service sets its own.
const { randomUUID } = require('node:crypto');
const fastify = require('fastify');
const helmet = require('helmet');

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** helmet's default headers (those @fastify/helmet sets with its defaults), recorded once against a plain GET. */
function helmetHeaders() {
  const headers = {};
  const recorder = { setHeader: (name, value) => (headers[name.toLowerCase()] = String(value)), removeHeader: () => undefined, getHeader: () => undefined };
  let continued = false;
  helmet()({ method: 'GET', headers: {} }, recorder, () => (continued = true));
  if (!continued) throw new Error('helmet did not continue synchronously: its headers cannot be recorded once');
  return headers;
}

/** A Fastify instance with logger, request ids and helmet's headers; `options` go to fastify(). */
async function houseFastify(options = {}) {
  const app = fastify({
    logger: { level: 'info' },
    // With a logController, Fastify reads the log label of the request id from it (a top-level requestIdLogLabel is ignored).
    logController: new fastify.LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ...options,
  });
  if (process.env.FIXED_HEADERS === '1') {
    const fixed = helmetHeaders();
    app.addHook('onRequest', (req, reply, done) => {
      reply.headers(fixed);
      done();
    });
  } else {
    await app.register(require('@fastify/helmet'));
  }
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
