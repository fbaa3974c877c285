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
 * How each kind of server is started: a node script, its extra environment, and the path that says it is
 * up; `packages` are the npm packages whose versions the page names for it (`a>b`: package b as package a
 * resolves it), and `setup` says how it is run and tuned, for the page beside every table it appears in.
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
    setup:
      '`node dist/src/server.js` as `npm start` runs it, with its default settings: requests validated against openapi.yaml ' +
      '(responses not), one JSON log line per request (`LOG_LEVEL=info`, stdout to /dev/null), request ids, security headers ' +
      '(helmet\'s, computed once at start), CORS headers on reads (the default: any origin may read, none may write), Prometheus metrics, ETags on reads; the in-memory store.',
  },
  bare: {
    label: 'node:http',
    script: server('bare.js'),
    ready: REST_READY,
    packages: [],
    setup: 'The ceiling: `node:http` answering the same JSON for the measured routes, with no framework, validation, logging or headers.',
  },
  express: {
    label: 'express 5 route',
    script: server('express.js'),
    ready: REST_READY,
    packages: ['express'],
    setup: 'What a user writes by hand: one express 5 route per operation, `express.json()` where a body is read, no other middleware, ETags off.',
  },
  'json-server': {
    label: 'json-server',
    script: server('json-server.js'),
    ready: REST_READY,
    packages: ['json-server'],
    setup: 'As its CLI sets it up (its default middlewares, request logger on, stdout to /dev/null), serving the records from memory (no file writes).',
  },
  fastify: {
    label: 'Fastify + JSON schemas',
    script: server('fastify.js'),
    env: { FIXED_HEADERS: '1' },
    ready: REST_READY,
    packages: ['fastify', '@fastify/helmet'],
    setup:
      'Fastify routes written by hand the way its docs recommend: JSON schemas for params, query and bodies (copies of ' +
      'openapi.yaml\'s, unknown properties refused) and for responses (fast-json-stringify), Fastify\'s pino logger at info with ' +
      'one line per request, request ids; tuned as a performance-minded user would: @fastify/helmet\'s default headers computed ' +
      'once at start and set by one hook, instead of the plugin running per request.',
  },
  'fastify-openapi-glue': {
    label: 'fastify-openapi-glue',
    script: server('fastify-openapi-glue.js'),
    ready: REST_READY,
    packages: ['fastify', 'fastify-openapi-glue', '@fastify/helmet'],
    setup:
      'The contract-first Fastify plugin on this openapi.yaml, as documented: one route per operation with the spec\'s schemas ' +
      '(Ajv validation, fast-json-stringify serialisation), Fastify\'s pino logger at info with one line per request, request ids, ' +
      '@fastify/helmet registered with its defaults (run per request).',
  },
  yoga: {
    label: 'GraphQL Yoga',
    script: server('yoga.js'),
    ready: GRAPHQL_READY,
    packages: ['graphql-yoga', 'graphql-yoga>graphql'],
    setup:
      'GraphQL Yoga on `node:http` as its docs set it up (its parse and validation caches on by default), GraphiQL off, the ' +
      'same schema.graphql and resolvers over pre-grouped maps (users → posts → comments need no loader).',
  },
  mercurius: {
    label: 'Mercurius',
    script: server('mercurius.js'),
    ready: GRAPHQL_READY,
    packages: ['fastify', 'mercurius', 'mercurius>graphql', '@fastify/helmet'],
    setup:
      'Mercurius (GraphQL for Fastify) as documented, with graphql-js execution (Mercurius caches parsed and validated queries), ' +
      'the same schema and resolvers as Yoga, Fastify\'s pino logger at info with one line per request, request ids, ' +
      '@fastify/helmet registered with its defaults (run per request).',
  },
};

/** A kind that runs `base`'s script with more environment: the same server, configured otherwise. */
const variant = (base, { label, env, packages = base.packages, setup }) => ({ ...base, label, env: { ...base.env, ...env }, packages, setup });

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
  setup: 'The same, tuned as a performance-minded user would: @fastify/helmet\'s default headers computed once at start and set by one hook.',
});
KINDS['yoga-jit'] = variant(KINDS.yoga, {
  label: 'GraphQL Yoga + graphql-jit',
  env: { YOGA_JIT: '1' },
  packages: ['graphql-yoga', '@envelop/graphql-jit', '@envelop/graphql-jit>graphql-jit'],
  setup: 'The same Yoga with envelop\'s graphql-jit plugin, the way Yoga offers compiled execution.',
});
KINDS['mercurius-jit'] = variant(KINDS.mercurius, {
  label: 'Mercurius + jit, tuned',
  env: { MERCURIUS_JIT: '1', FIXED_HEADERS: '1' },
  packages: ['fastify', 'mercurius', 'mercurius>graphql-jit', '@fastify/helmet'],
  setup:
    'The same Mercurius tuned as a performance-minded user would: `jit: 1` (a query is compiled with graphql-jit from its first ' +
    'run on), and @fastify/helmet\'s default headers computed once at start and set by one hook.',
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

/** Spawns `command args` (under taskset when pinned); returns the child process. */
function spawnCommand(cpu, command, args, env, stdout = 'ignore') {
  const [cmd, argv] = cpu ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
  return spawn(cmd, argv, { cwd: ROOT, env, stdio: ['ignore', stdout, 'pipe'] });
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
async function startServer(kind, { seedFile, cpu, nodeArgs = [], extraEnv = {}, script, label, readyTimeoutMs }) {
  // `script`/`label` override the kind's (bench/compare.js starts other builds of the service).
  const def = { ...KINDS[kind], ...(script && { script }), ...(label && { label }) };
  const port = await freePort();
  // NODE_ENV=production for every server, as `npm start` runs this service (graphql-js and Yoga skip
  // their development checks; express and json-server behave the same either way).
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SEED: seedFile, ...def.env, ...extraEnv };
  const server = await startProcess({ label: def.label, command: process.execPath, args: [...nodeArgs, def.script], env, cpu, port, ready: def.ready, readyTimeoutMs });
  return { kind, ...server };
}

/**
 * Starts any server process (`command args`, pinned to `cpu` when given) that listens on 127.0.0.1:`port`,
 * and waits until `ready` (a path) answers below 500 (for `readyTimeoutMs`, 20 s by default: a large seed takes longer).
 */
async function startProcess({ label, command, args, env, cpu, port, ready, readyTimeoutMs }) {
  const child = spawnCommand(cpu, command, args, env);
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

module.exports = { KINDS, ROOT, pinning, freePort, startServer, startProcess, spawnPinned, newestFile };
