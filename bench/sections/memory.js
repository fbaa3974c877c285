'use strict';
// The memory check: the service's resident memory after a long mixed load, against after its warm-up.
const { setTimeout: sleep } = require('node:timers/promises');
const { runLoad } = require('../lib/measure');
const { startServer } = require('../lib/servers');
const { GRAPH } = require('../lib/seed');

/** Resident memory after the load may be at most this many times what it was after the warm-up. */
const BOUND = 1.2;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

module.exports = {
  id: 'memory',
  title: 'Memory',
  async run(options, context) {
    if (!options.memory) return { skipped: 'not asked for (--no-memory)' };
    const server = await startServer('service', { seedFile: context.seedFile(100), cpu: context.cpus?.server });
    try {
      const mix = { url: server.url, mix: 'mixed', graphql: true, connections: options.connections, cpu: context.cpus?.load };
      await runLoad({ ...mix, duration: options.memoryWarmup });
      await sleep(2000);
      const idleBytes = server.rssBytes();
      let peakBytes = idleBytes;
      const poll = setInterval(() => (peakBytes = Math.max(peakBytes, server.rssBytes())), 500);
      const result = await runLoad({ ...mix, duration: options.memorySeconds }).finally(() => clearInterval(poll));
      await sleep(2000);
      const afterBytes = server.rssBytes();
      context.log(`memory: RSS ${mb(idleBytes)} after warm-up, ${mb(afterBytes)} after ${options.memorySeconds} s of mixed load: ${(afterBytes / idleBytes).toFixed(2)}×`);
      return { idleBytes, afterBytes, peakBytes, warmupSeconds: options.memoryWarmup, loadSeconds: options.memorySeconds, totalRequests: result.total, non2xx: result.non2xx, errors: result.errors };
    } finally {
      await server.stop();
    }
  },
  render(m) {
    const growth = m.afterBytes / m.idleBytes;
    return `One instance of the service (100 books; ${GRAPH.users} users with ${GRAPH.postsPerUser} posts of ${GRAPH.commentsPerPost} comments each) under a mixed load: GET /books/42,
GET /books, GET /books?limit=10&offset=20, POST /books then DELETE of the created book, PUT /tasks/1, GET /books/abc
(a 400), and the nested GraphQL query. Resident memory (RSS, from /proc) is read 2 s after the warm-up and 2 s after
the load; growth beyond ${BOUND}× would point at memory kept per request.

| RSS after warm-up | RSS after the load | Peak RSS seen | Growth | Check (≤ ${BOUND}×) |
|---|---|---|---|---|
| ${mb(m.idleBytes)} | ${mb(m.afterBytes)} | ${mb(m.peakBytes)} | **${growth.toFixed(2)}×** | ${growth <= BOUND ? 'holds' : '**does not hold**'} |

Warm-up ${m.warmupSeconds} s, then ${m.loadSeconds} s of load: ${m.totalRequests.toLocaleString('en-US')} requests, ${m.non2xx.toLocaleString('en-US')} of them not 2xx (the
400s among them), ${m.errors} connection errors.`;
  },
};
