#!/usr/bin/env node
// Load test (`npm run test:load`): the built service (dist/, `npm run build`) in a child process on a free
// loopback port, on each store of LOAD_STORE, under:
//   - a mixed load: LOAD_CLIENTS (200) clients create, update, delete and read for LOAD_DURATION_MS (30 s),
//     beside LOAD_RETRY_CLIENTS (20) that retry creates with an Idempotency-Key; then the data must match
//     the clients' ledger (load/mixed.js);
//   - the bounded-work scenarios, on a service seeded with 6,000 books of ~860 bytes of JSON each, GET /books
//     ~5 MiB (load/bounded.js):
//     1. LOAD_NON_READING (100) clients send GET /books and read nothing: RSS and /health stay bounded, the server
//        closes each connection itself (RESPONSE_WRITE_TIMEOUT_MS), RSS settles back (load/non-readers.js);
//     2. the same with GraphQL { books { id title pages } }: each answer whole or a 503 with Retry-After (load/non-readers.js);
//     3. LOAD_READERS (300) clients read GET /books at once: /health stays prompt, every answer whole (load/readers.js);
//     4. lists cut midway: a whole chunked answer ends with its last chunk, one the server cuts does not, and
//        LOAD_CUT_CLIENTS (100) clients that close their connection midway leave the service healthy (load/cut.js).
// While a scenario runs, /health is probed every 100 ms on a fresh connection (each must answer 200; its time is printed)
// and the service's RSS sampled every 50 ms from /proc (load/monitor.js). Each scenario prints its figures; each
// check prints `ok` or `FAIL` and the last line is "N passed, N failed".
//
// LOAD_STORE: memory, sqlite or postgres, or several comma-separated; by default postgres when LOAD_DATABASE_URL
// or TEST_DATABASE_URL is set (`scripts/with-postgres.sh -- npm run test:load`), else memory. A store the build
// does not have (/health's `storage` names another) is skipped with a note. On PostgreSQL each service gets a
// database of its own on that server, dropped afterwards.
'use strict';
const { boundedWork } = require('./load/bounded');
const { mixedLoad } = require('./load/mixed');
const { storesToRun, UsageError } = require('./load/service');

async function main() {
  const checks = [];
  const stores = storesToRun();
  for (const kind of stores) {
    console.log(`== load test on the ${kind} store`);
    const started = Date.now();
    const mixed = await mixedLoad(kind);
    if (mixed.skipped) {
      console.log(`note: this build has no ${kind} store (${mixed.skipped}): skipped`);
      continue;
    }
    const bounded = await boundedWork(kind);
    const results = [...mixed, ...(bounded.skipped ? [{ name: 'bounded-work scenarios', ok: false, detail: bounded.skipped }] : bounded)];
    for (const c of results) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${kind}: ${c.name}${c.ok ? '' : ` (${c.detail})`}`);
    console.log(`(${kind}: ${((Date.now() - started) / 1000).toFixed(0)} s)`);
    checks.push(...results);
  }
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`load test could not run: ${err instanceof UsageError ? err.message : err.stack}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
