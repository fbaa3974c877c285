'use strict';
// node scripts/request-files.js [path]: the files under src/ whose code runs for one GET of `path` (default
// /books/1), on a kept-alive connection after warm-up, read from V8's precise coverage (docs/design.md, "The path
// of a request"). Runs the built service (npm run build first): memory store, metrics on, response checks off.
const path = require('node:path');
const inspector = require('node:inspector/promises');

const dist = path.join(__dirname, '..', 'dist', 'src');
const { createApp } = require(path.join(dist, 'app.js'));
const { testConfig } = require(path.join(dist, 'config.js'));
const { createLogger } = require(path.join(dist, 'logger.js'));
const { createMemoryStore } = require(path.join(dist, 'store', 'memory', 'index.js'));
const { loadSeed } = require(path.join(dist, 'store', 'seed.js'));
const { createHttpServer } = require(path.join(dist, 'http', 'http-server.js'));

async function main() {
  const target = process.argv[2] ?? '/books/1';
  const config = testConfig({ validateResponses: false, logLevel: 'info', metricsEnabled: true });
  const app = createApp({ store: createMemoryStore(loadSeed('default')), config, logger: createLogger('info', () => {}) });
  const server = createHttpServer(app, config);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}${target}`;
  try {
    for (let i = 0; i < 5; i++) await (await fetch(url)).arrayBuffer();
    const session = new inspector.Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await session.post('Profiler.takePreciseCoverage'); // counts start from here
    const res = await fetch(url);
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50)); // the response's close: the log line, the metrics
    const { result } = await session.post('Profiler.takePreciseCoverage');
    const files = new Set();
    for (const script of result) {
      const file = script.url.startsWith('file://') ? path.relative(path.join(dist, '..'), new URL(script.url).pathname) : '';
      if (!file.startsWith('src' + path.sep)) continue;
      // A function other than the module's own top level ran.
      if (script.functions.some((fn) => fn.ranges[0].count > 0 && fn.ranges[0].startOffset !== 0)) files.add(file.replace(/\.js$/, '.ts'));
    }
    console.log(`GET ${target}: ${res.status}`);
    for (const file of [...files].sort()) console.log(`  ${file}`);
    console.log(`${files.size} files`);
  } finally {
    server.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
