'use strict';
// node bench/express-classes.js [--rounds=N] [--requests=N]
// The speed trick of src/http/perf/express-classes.ts, measured in one process on this build (dist/, `npm run build`):
// GET /books/{id} served by createHttpServer (requests and responses born with the app's classes) against the
// same app on a plain http.createServer, alternating rounds on one keep-alive connection each, the process's CPU
// time per request. Prints the median plain/fast ratio and its range: above 1 the trick pays. A measurement, not
// a test (docs/maintainers/design.md, "Speed tricks"): on a busy machine the rounds spread, and only a quiet run says anything.
const { Agent, createServer, request } = require('node:http');
const path = require('node:path');
const { summary } = require('./lib/stats');

const dist = path.join(__dirname, '..', 'dist', 'src');
const { createApp } = require(path.join(dist, 'app'));
const { testConfig } = require(path.join(dist, 'config'));
const { createHttpServer } = require(path.join(dist, 'http', 'http-server'));
const { createLogger } = require(path.join(dist, 'logger'));
const { createMemoryStore } = require(path.join(dist, 'store', 'memory'));
const { loadSeed } = require(path.join(dist, 'store', 'seed'));

const flags = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const rounds = Number(flags.rounds ?? 15);
const requests = Number(flags.requests ?? 1000);

function gets(port, agent, count) {
  return new Promise((resolve, reject) => {
    let left = count;
    const one = () => {
      const req = request({ host: '127.0.0.1', port, path: '/books/1', agent }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
        res.resume();
        res.on('end', () => (--left === 0 ? resolve() : one()));
      });
      req.on('error', reject);
      req.end();
    };
    one();
  });
}

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

async function main() {
  const app = createApp({ store: createMemoryStore(loadSeed('default')), config: testConfig(), logger: createLogger('silent') });
  const servers = { fast: createHttpServer(app, testConfig()), plain: createServer(app) };
  const ports = { fast: await listen(servers.fast), plain: await listen(servers.plain) };
  const agents = { fast: new Agent({ keepAlive: true, maxSockets: 1 }), plain: new Agent({ keepAlive: true, maxSockets: 1 }) };
  const cpu = { fast: [], plain: [] };
  for (const kind of ['fast', 'plain']) await gets(ports[kind], agents[kind], 2000);
  for (let round = 0; round < rounds; round += 1) {
    for (const kind of round % 2 ? ['plain', 'fast'] : ['fast', 'plain']) {
      const before = process.cpuUsage();
      await gets(ports[kind], agents[kind], requests);
      const used = process.cpuUsage(before);
      cpu[kind].push((used.user + used.system) / requests);
    }
  }
  const ratios = cpu.fast.map((fast, i) => cpu.plain[i] / fast);
  const s = summary(ratios);
  console.log(`express classes, Node ${process.versions.node}: plain/fast CPU per request ${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)}), ` +
    `µs per request fast ${summary(cpu.fast).median.toFixed(0)}, plain ${summary(cpu.plain).median.toFixed(0)} (${rounds} rounds × ${requests} requests)`);
  for (const agent of Object.values(agents)) agent.destroy();
  await Promise.all(Object.values(servers).map((server) => new Promise((resolve) => server.close(resolve))));
}

main().catch((err) => {
  console.error(`express-classes failed: ${err.message}`);
  process.exitCode = 1;
});
