'use strict';
// The bounded-work scenarios of scripts/load-test.js, one after another on one service.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { call } = require('./http');
const { cutLists } = require('./cut');
const { graphqlNonReaders, restNonReaders } = require('./non-readers');
const { manyReaders } = require('./readers');
const { startService } = require('./service');

/**
 * The books of every scenario, about BOOK_BYTES of JSON each: GET /books is ~5 MiB. More than the kernel's
 * buffers of a loopback connection take from a client that reads nothing (Linux's default tcp_wmem lets the
 * send buffer grow to 4 MiB), so the server itself holds the rest of each answer and has to cut the connection.
 */
const BOOKS = 6000;
const BOOK_BYTES = 860;

/** The service's settings for these scenarios: short timeouts, so a run takes seconds. */
const SETTINGS = { writeTimeoutMs: 4000, maxUnsentMiB: 64, largeAnswerWaitMs: 1000, maxLargeAnswers: 4 };
/**
 * The GraphQL non-readers' service never cuts a client for not reading within the run (their clients hold until
 * the service has answered what it does not write, however long that takes): the same settings but this.
 */
const NEVER_CUT_MS = 3_600_000;

/** A seed file (seed/default.json's shape) of BOOKS books. */
function writeSeed(dir) {
  const file = path.join(dir, 'books.json');
  fs.writeFileSync(file, JSON.stringify({ books: Array.from({ length: BOOKS }, (_, i) => ({ id: i + 1, title: `${i + 1} ${'x'.repeat(BOOK_BYTES - 40)}`, pages: i })) }));
  return file;
}

/**
 * One request of each kind the scenarios send, answered before they start: the first request of a route
 * compiles its request validator, which holds the event loop for a few hundred ms.
 */
async function warmUp(port) {
  for (const [method, path, body] of [
    ['GET', '/books?limit=1'],
    ['GET', '/books'],
    ['POST', '/graphql', { query: '{ books { id title pages } }' }],
  ]) {
    const answer = await call(undefined, port, method, path, body);
    if (answer.status !== 200) throw new Error(`warming the service up: ${method} ${path} answered ${answer.status}`);
  }
}

/**
 * Runs the scenarios on a service of its own on `kind`, seeded with BOOKS books. Resolves with the checks, or
 * `{ skipped }` when the build has no such store.
 */
async function boundedWork(kind) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-seed-'));
  const services = [];
  // glibc's malloc keeps freed multi-MiB blocks in its heap once its mmap threshold has grown, so RSS can stay
  // at a peak long after the memory was freed (seen: 1.1-1.3 GiB for 30 s on one run, 290 MiB on the next, when
  // answers were built whole). A fixed mmap threshold gives such blocks back when they are freed, so RSS shows
  // what the process holds.
  const start = async (writeTimeoutMs) => {
    const service = await startService(kind, {
      SEED: path.join(dir, 'books.json'),
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '131072',
      RESPONSE_WRITE_TIMEOUT_MS: String(writeTimeoutMs),
      MAX_UNSENT_BYTES: `${SETTINGS.maxUnsentMiB}mb`,
      GRAPHQL_LARGE_ANSWER_WAIT_MS: String(SETTINGS.largeAnswerWaitMs),
      GRAPHQL_MAX_LARGE_ANSWERS: String(SETTINGS.maxLargeAnswers),
    });
    if (service.skipped) return service;
    services.push(service);
    await warmUp(service.port);
    return service;
  };
  const contextOf = (service) => ({ service, port: service.port, pid: service.pid, logs: service.logs, settings: SETTINGS, books: BOOKS });
  try {
    writeSeed(dir);
    const service = await start(SETTINGS.writeTimeoutMs);
    if (service.skipped) return service;
    const checks = [];
    checks.push(...(await restNonReaders(contextOf(service))));
    const patient = await start(NEVER_CUT_MS);
    checks.push(...(await graphqlNonReaders(contextOf(patient))));
    for (const scenario of [manyReaders, cutLists]) checks.push(...(await scenario(contextOf(service))));
    checks.push({ name: 'the services ran through every scenario without exiting', ok: services.every((s) => s.alive()), detail: 'one exited' });
    return checks;
  } finally {
    for (const service of services) await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { boundedWork };
