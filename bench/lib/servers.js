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

/** How each kind of server is started: a node script, its extra environment, and the path that says it is up. */
const KINDS = {
  service: { label: 'this service', script: path.join(ROOT, 'dist', 'src', 'server.js'), ready: '/health' },
  bare: { label: 'node:http', script: server('bare.js'), ready: REST_READY },
  express: { label: 'express 5 route', script: server('express.js'), ready: REST_READY },
  'express-classes': { label: 'express 5 route + app classes', script: server('express.js'), env: { APP_CLASSES: '1' }, ready: REST_READY },
  'json-server': { label: 'json-server', script: server('json-server.js'), ready: REST_READY },
  yoga: { label: 'GraphQL Yoga', script: server('yoga.js'), ready: GRAPHQL_READY },
  'yoga-jit': { label: 'GraphQL Yoga + graphql-jit', script: server('yoga.js'), env: { YOGA_JIT: '1' }, ready: GRAPHQL_READY },
  // Contract-first peers (issue 12): each with logger, request ids and helmet (bench/servers/fastify-house.js).
  fastify: { label: 'Fastify 5 + JSON schemas', script: server('fastify.js'), ready: REST_READY },
  'fastify-openapi-glue': { label: 'fastify-openapi-glue (openapi.yaml)', script: server('fastify-openapi-glue.js'), ready: REST_READY },
  mercurius: { label: 'Mercurius', script: server('mercurius.js'), ready: GRAPHQL_READY },
  'mercurius-jit': { label: 'Mercurius + jit', script: server('mercurius.js'), env: { MERCURIUS_JIT: '1' }, ready: GRAPHQL_READY },
};

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

async function waitReady(url, child, stderr) {
  const deadline = Date.now() + 20000;
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
  throw new Error(`not ready after 20 s: ${stderr().slice(-500)}`);
}

/**
 * Starts one server. `kind` is a key of KINDS; the environment is built from scratch so the
 * service runs with its defaults (plus LOG_LEVEL=info, stdout to /dev/null).
 */
async function startServer(kind, { seedFile, cpu, nodeArgs = [], extraEnv = {}, script, label }) {
  // `script`/`label` override the kind's (bench/compare.js starts other builds of the service).
  const def = { ...KINDS[kind], ...(script && { script }), ...(label && { label }) };
  const port = await freePort();
  // NODE_ENV=production for every server, as `npm start` runs this service (graphql-js and Yoga skip
  // their development checks; express and json-server behave the same either way).
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SEED: seedFile, ...def.env, ...extraEnv };
  const server = await startProcess({ label: def.label, command: process.execPath, args: [...nodeArgs, def.script], env, cpu, port, ready: def.ready });
  return { kind, ...server };
}

/**
 * Starts any server process (`command args`, pinned to `cpu` when given) that listens on 127.0.0.1:`port`,
 * and waits until `ready` (a path) answers below 500.
 */
async function startProcess({ label, command, args, env, cpu, port, ready }) {
  const child = spawnCommand(cpu, command, args, env);
  let err = '';
  child.stderr.on('data', (d) => {
    err = (err + d).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(url + ready, child, () => err);
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
