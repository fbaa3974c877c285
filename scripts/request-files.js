'use strict';
// node scripts/request-files.js [--store=memory|sqlite] [--new-connection] [--graphql=QUERY | path]: the files under
// src/ whose code runs for one request, after warm-up, on a kept-alive connection (with --new-connection: on a
// connection of its own), read from V8's precise coverage (docs/maintainers/design.md,
// "The path of a request"). The request is `GET path` (default /books/1), or with --graphql a `POST /graphql` of
// QUERY (`--graphql` alone: `{ books { id title } }`). Runs the built service (npm run build first): the store
// asked for (default memory; sqlite in a fresh file of a temporary folder, the default store of `npm start`),
// metrics on, response checks off.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const inspector = require('node:inspector/promises');

const dist = path.join(__dirname, '..', 'dist', 'src');
const { createApp } = require(path.join(dist, 'app.js'));
const { testConfig } = require(path.join(dist, 'config.js'));
const { createLogger } = require(path.join(dist, 'logger.js'));
const { createStore } = require(path.join(dist, 'store', 'index.js'));
const { createHttpServer } = require(path.join(dist, 'http', 'http-server.js'));

function parseArgs(argv) {
  const args = { store: 'memory', path: '/books/1', graphql: undefined, newConnection: false };
  for (const arg of argv) {
    if (arg.startsWith('--store=')) args.store = arg.slice('--store='.length);
    else if (arg === '--new-connection') args.newConnection = true;
    else if (arg === '--graphql') args.graphql = '{ books { id title } }';
    else if (arg.startsWith('--graphql=')) args.graphql = arg.slice('--graphql='.length);
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else args.path = arg;
  }
  if (!['memory', 'sqlite'].includes(args.store)) throw new Error(`--store=memory or --store=sqlite, not ${args.store}`);
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const folder = args.store === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'request-files-')) : undefined;
  const config = testConfig({
    validateResponses: false,
    logLevel: 'info',
    metricsEnabled: true,
    store: args.store,
    ...(folder ? { sqliteFile: path.join(folder, 'data.db') } : {}),
  });
  const store = await createStore(config);
  const app = createApp({ store, config, logger: createLogger('info', () => {}) });
  const server = createHttpServer(app, config);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const label = args.graphql === undefined ? `GET ${args.path}` : `POST /graphql ${args.graphql}`;
  const request = () =>
    args.graphql === undefined
      ? fetch(base + args.path)
      : fetch(base + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: args.graphql }) });
  /** The counted request on a connection of its own (no agent: a new socket), its answer read whole. */
  const requestAlone = () =>
    new Promise((resolve, reject) => {
      const body = args.graphql === undefined ? undefined : JSON.stringify({ query: args.graphql });
      const req = http.request(
        base + (body === undefined ? args.path : '/graphql'),
        { agent: false, method: body === undefined ? 'GET' : 'POST', headers: body === undefined ? {} : { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, arrayBuffer: async () => undefined }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  try {
    for (let i = 0; i < 5; i++) await (await request()).arrayBuffer();
    const session = new inspector.Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await session.post('Profiler.takePreciseCoverage'); // counts start from here
    const res = await (args.newConnection ? requestAlone() : request());
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
    console.log(`${label} (${args.store} store${args.newConnection ? ', new connection' : ''}): ${res.status}`);
    for (const file of [...files].sort()) console.log(`  ${file}`);
    console.log(`${files.size} files`);
  } finally {
    server.close();
    await store.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
