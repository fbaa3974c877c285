'use strict';
// Starts each server fresh as its own process on loopback, pinned to the server core when
// taskset is available, and stops it again. RSS is read from /proc.
const { spawn, execFileSync } = require('node:child_process');
const { readFileSync, readdirSync } = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');

const ROOT = path.join(__dirname, '..', '..');

const server = (file) => path.join(ROOT, 'bench', 'servers', file);
const REST_READY = '/books';
const GRAPHQL_READY = '/graphql?query=%7B__typename%7D';

/**
 * What a server does per request, column by column: the page's table of peers and the check that a server does
 * what its row says (bench/lib/audit.js) both read PER_REQUEST and each kind's `perRequest`. A value says how the
 * server does it; null means it does not. `checked` names the columns the audit can observe from outside: a log line
 * on stdout, the X-Request-Id of the answer, helmet's headers on the answer.
 */
const PER_REQUEST = {
  log: { title: 'Log line', checked: true },
  requestId: { title: 'Request id', checked: true },
  securityHeaders: { title: 'Security headers', checked: true },
  validation: { title: 'Validation' },
  serialisation: { title: 'Serialisation' },
  also: { title: 'Also' },
};
const PINO_LINE = 'one pino JSON line at info (method, path, status, duration, request id)';
const REQUEST_ID = "the client's X-Request-Id when sane, else a random UUID, sent back";
const HELMET_ONCE = "helmet's defaults, computed once at start, set as one block";
const HELMET_PER_REQUEST = "helmet's defaults, @fastify/helmet run per request";
const NOTHING = { log: null, requestId: null, securityHeaders: null, validation: null, serialisation: 'JSON.stringify', also: null };
// Fastify's pino with its defaults adds pid and hostname to each line, and writes the level as a number.
const FASTIFY_PINO_LINE = `${PINO_LINE}, with pino's default pid and hostname`;
const FASTIFY_HOUSE = { log: FASTIFY_PINO_LINE, requestId: REQUEST_ID, securityHeaders: HELMET_PER_REQUEST };

/**
 * How each kind of server is started: a node script, its extra environment, and the path that says it is
 * up; `packages` are the npm packages whose versions the page names for it (`a>b`: package b as package a
 * resolves it), `setup` says how it is run and tuned and `perRequest` what it does per request (PER_REQUEST's
 * columns), for the page beside every table it appears in.
 * Every server runs with NODE_ENV=production, on loopback, with the same seed file as the service.
 */
const KINDS = {
  service: {
    label: 'this service',
    script: path.join(ROOT, 'dist', 'src', 'server.js'),
    // The in-memory store (the default is SQLite): these workloads measure the service, not a disk; stores.js compares the stores.
    env: { STORE: 'memory' },
    ready: '/health',
    packages: ['express', 'express-openapi-validator', 'graphql', 'graphql-http', 'graphql-jit', 'helmet', 'pino', 'prom-client'],
    setup: '`node dist/src/server.js` as `npm start` runs it, with its default settings (`LOG_LEVEL=info`, stdout to /dev/null); the in-memory store.',
    perRequest: {
      log: PINO_LINE,
      requestId: REQUEST_ID,
      securityHeaders: HELMET_ONCE,
      validation: 'REST: requests against openapi.yaml (express-openapi-validator; responses not); GraphQL: graphql-js validation of each new document',
      serialisation: 'REST: JSON.stringify; GraphQL: graphql-js the first run of a document, graphql-jit from its second',
      also: 'CORS headers on reads (any origin may read, none may write), Prometheus metrics, ETags on reads',
    },
  },
  hello: {
    label: 'node:http hello (calibration)',
    script: server('hello.js'),
    ready: '/',
    packages: [],
    setup: 'The calibration: `node:http` answering every request with one fixed JSON line, reading nothing.',
    perRequest: NOTHING,
  },
  bare: {
    label: 'node:http',
    script: server('bare.js'),
    ready: REST_READY,
    packages: [],
    setup: 'The ceiling: `node:http` answering the same JSON for the measured routes, with no framework.',
    perRequest: { ...NOTHING, validation: 'a POST body must have a string title' },
  },
  express: {
    label: 'express 5 route',
    script: server('express.js'),
    ready: REST_READY,
    packages: ['express'],
    setup: 'What a user writes by hand: one express 5 route per operation, `express.json()` where a body is read, no other middleware, ETags off.',
    perRequest: { ...NOTHING, validation: 'a POST body must have a string title', serialisation: "JSON.stringify (express's res.json)" },
  },
  'json-server': {
    label: 'json-server',
    script: server('json-server.js'),
    ready: REST_READY,
    packages: ['json-server'],
    setup: 'As its CLI sets it up (its default middlewares, stdout to /dev/null), serving the records from memory (no file writes).',
    perRequest: { ...NOTHING, log: "one morgan 'dev' text line (method, path, status, duration)", serialisation: "JSON.stringify (express 4's res.jsonp)", also: 'CORS headers, no-cache headers, X-Content-Type-Options (res.jsonp), a static-file lookup first' },
  },
  fastify: {
    label: 'Fastify + JSON schemas',
    script: server('fastify.js'),
    env: { FIXED_HEADERS: '1' },
    ready: REST_READY,
    packages: ['fastify', '@fastify/helmet'],
    setup:
      'Fastify routes written by hand the way its docs recommend, with JSON schemas (copies of openapi.yaml\'s) for params, ' +
      'query, bodies and responses, and the logger, request ids and helmet headers of the tuned Fastify peers.',
    perRequest: {
      ...FASTIFY_HOUSE,
      securityHeaders: HELMET_ONCE,
      validation: "params, query and bodies against JSON schemas (Fastify's Ajv, unknown properties refused)",
      serialisation: 'fast-json-stringify from the response schemas',
    },
  },
  'fastify-openapi-glue': {
    label: 'fastify-openapi-glue',
    script: server('fastify-openapi-glue.js'),
    ready: REST_READY,
    packages: ['fastify', 'fastify-openapi-glue', '@fastify/helmet'],
    setup: 'The contract-first Fastify plugin on this openapi.yaml, as documented: one route per operation with the spec\'s schemas.',
    perRequest: {
      ...FASTIFY_HOUSE,
      validation: "params, query and bodies against openapi.yaml's schemas (Fastify's Ajv)",
      serialisation: "fast-json-stringify from openapi.yaml's response schemas",
    },
  },
  yoga: {
    label: 'GraphQL Yoga',
    script: server('yoga.js'),
    ready: GRAPHQL_READY,
    packages: ['graphql-yoga', 'graphql-yoga>graphql'],
    setup:
      'GraphQL Yoga on `node:http` as its docs set it up, GraphiQL off, the same schema.graphql and resolvers over ' +
      'pre-grouped maps (users → posts → comments need no loader).',
    perRequest: { ...NOTHING, validation: 'graphql-js validation, cached per document (Yoga\'s parse and validation caches)', serialisation: 'graphql-js execution, JSON.stringify' },
  },
  mercurius: {
    label: 'Mercurius',
    script: server('mercurius.js'),
    ready: GRAPHQL_READY,
    packages: ['fastify', 'mercurius', 'mercurius>graphql', '@fastify/helmet'],
    setup: 'Mercurius (GraphQL for Fastify) as documented, the same schema and resolvers as Yoga.',
    perRequest: {
      ...FASTIFY_HOUSE,
      validation: 'graphql-js validation, cached per document (Mercurius\'s query cache)',
      serialisation: 'graphql-js execution, JSON.stringify',
    },
  },
};

/** A kind that runs `base`'s script with more environment: the same server, configured otherwise. */
const variant = (base, { label, env, packages = base.packages, setup, perRequest = {} }) => ({
  ...base,
  label,
  env: { ...base.env, ...env },
  packages,
  setup,
  perRequest: { ...base.perRequest, ...perRequest },
});

KINDS['express-classes'] = variant(KINDS.express, {
  label: 'express 5 route + app classes',
  env: { APP_CLASSES: '1' },
  setup:
    'The same express routes on a server that builds requests and responses with the app\'s own classes, as the service ' +
    'does (`src/http/perf/express-classes.ts`): what that trick alone buys a plain express app.',
});
KINDS['fastify-openapi-glue-tuned'] = variant(KINDS['fastify-openapi-glue'], {
  label: 'fastify-openapi-glue, tuned',
  env: { FIXED_HEADERS: '1' },
  setup: 'The same, tuned as a performance-minded user would: helmet\'s headers computed once, not per request.',
  perRequest: { securityHeaders: HELMET_ONCE },
});
KINDS['yoga-jit'] = variant(KINDS.yoga, {
  label: 'GraphQL Yoga + graphql-jit',
  env: { YOGA_JIT: '1' },
  packages: ['graphql-yoga', '@envelop/graphql-jit', '@envelop/graphql-jit>graphql-jit'],
  setup: 'The same Yoga with envelop\'s graphql-jit plugin, the way Yoga offers compiled execution.',
  perRequest: { serialisation: 'graphql-jit compiled execution and serialisation' },
});
KINDS['mercurius-jit'] = variant(KINDS.mercurius, {
  label: 'Mercurius + jit, tuned',
  env: { MERCURIUS_JIT: '1', FIXED_HEADERS: '1' },
  packages: ['fastify', 'mercurius', 'mercurius>graphql-jit', '@fastify/helmet'],
  setup: 'The same Mercurius tuned as a performance-minded user would: `jit: 1`, and helmet\'s headers computed once.',
  perRequest: { securityHeaders: HELMET_ONCE, serialisation: 'graphql-jit compiled execution and serialisation from the first run of a document (`jit: 1`)' },
});

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Cores for the server and the load generator, or undefined when they cannot be separated. */
function pinning(cpuCount) {
  if (cpuCount < 2 || !hasTaskset()) return undefined;
  return { server: '0', load: String(cpuCount - 1) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The servers running now: stopped with the bench when it is interrupted (SIGINT, SIGTERM), so none is left running to load the machine. */
const running = new Set();
let stopsOnSignals = false;

function stopRunningOn(signal) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    // The default action of the signal, now that no handler is left for it.
    process.kill(process.pid, signal);
  });
}

/** `command args` as spawned: under `taskset -c cpu` when pinned to a core (`cpu` from `pinning`), as it is otherwise. */
function pinnedCommand(cpu, command, args) {
  return cpu ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
}

/** Spawns `command args` (under taskset when pinned); returns the child process. */
function spawnCommand(cpu, command, args, env, stdout = 'ignore') {
  const [cmd, argv] = pinnedCommand(cpu, command, args);
  if (!stopsOnSignals) {
    stopsOnSignals = true;
    ['SIGINT', 'SIGTERM'].forEach(stopRunningOn);
  }
  const child = spawn(cmd, argv, { cwd: ROOT, env, stdio: ['ignore', stdout, 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Spawns `node [nodeArgs] script` (under taskset when pinned); returns the child process. */
function spawnPinned(cpu, nodeArgs, script, env, stdout = 'ignore') {
  return spawnCommand(cpu, process.execPath, [...nodeArgs, script], env, stdout);
}

async function waitReady(url, child, stderr, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${stderr().slice(-500)}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`not ready after ${timeoutMs / 1000} s: ${stderr().slice(-500)}`);
}

/**
 * Starts one server. `kind` is a key of KINDS; the environment is built from scratch so the
 * service runs with its defaults (plus LOG_LEVEL=info, stdout to /dev/null).
 */
async function startServer(kind, { seedFile, cpu, nodeArgs = [], extraEnv = {}, script, label, readyTimeoutMs, captureStdout }) {
  // `script`/`label` override the kind's (bench/compare.js starts other builds of the service).
  const def = { ...KINDS[kind], ...(script && { script }), ...(label && { label }) };
  const port = await freePort();
  // NODE_ENV=production for every server, as `npm start` runs this service (graphql-js and Yoga skip
  // their development checks; express and json-server behave the same either way).
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SEED: seedFile, ...def.env, ...extraEnv };
  const server = await startProcess({ label: def.label, command: process.execPath, args: [...nodeArgs, def.script], env, cpu, port, ready: def.ready, readyTimeoutMs, captureStdout });
  return { kind, ...server };
}

/**
 * Starts any server process (`command args`, pinned to `cpu` when given) that listens on 127.0.0.1:`port`,
 * and waits until `ready` (a path) answers below 500 (for `readyTimeoutMs`, 20 s by default: a large seed takes longer).
 * Its stdout goes to /dev/null, or with `captureStdout` is kept (the last 64 kB) for `stdout()`: never while measuring.
 */
async function startProcess({ label, command, args, env, cpu, port, ready, readyTimeoutMs, captureStdout = false }) {
  const child = spawnCommand(cpu, command, args, env, captureStdout ? 'pipe' : 'ignore');
  let out = '';
  child.stdout?.on('data', (d) => {
    out = (out + d).slice(-65536);
  });
  let err = '';
  child.stderr.on('data', (d) => {
    err = (err + d).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(url + ready, child, () => err, readyTimeoutMs);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${label} did not start: ${e.message}`);
  }
  return {
    label,
    url,
    pid: child.pid,
    stderr: () => err,
    stdout: () => out,
    rssBytes: () => rssBytes(child.pid),
    stop: () => stopChild(child),
  };
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

function newestFile(dir, ext) {
  const files = readdirSync(dir).filter((f) => f.endsWith(ext)).sort();
  return files.length ? path.join(dir, files[files.length - 1]) : undefined;
}

module.exports = { KINDS, PER_REQUEST, ROOT, pinning, pinnedCommand, freePort, startServer, startProcess, spawnPinned, newestFile };
