'use strict';
// The built service (dist/src/server.js) in a child process on a free loopback port, on the store asked for.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { COLLECTED } = require('./collected');
const { call, freePort, sleep, until } = require('./http');

const root = path.resolve(__dirname, '..', '..');

/** The PostgreSQL server given to the load test: LOAD_DATABASE_URL, or TEST_DATABASE_URL (scripts/with-postgres.sh sets it). */
const databaseUrl = () => process.env.LOAD_DATABASE_URL || process.env.TEST_DATABASE_URL || '';

/** Runs one statement on the given server's database (to create or drop the databases of the services). */
async function admin(sql) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let databases = 0;

/** A setting of the load test that cannot work: reported in one line, without a stack. */
class UsageError extends Error {}

/**
 * The stores a run can be asked for (LOAD_STORE): each gives the service's environment for it, with `dir` a
 * temporary folder of that service, and what removes its data after. A build without that store answers
 * with another one in /health's `storage`, and the store is skipped.
 */
const STORES = {
  memory: async () => ({ env: { STORE: 'memory', DATABASE_URL: '' } }),
  sqlite: async (dir) => ({ env: { STORE: 'sqlite', DATABASE_URL: '', SQLITE_FILE: path.join(dir, 'service.sqlite') } }),
  // A database of its own for each service, so each starts empty and is seeded from SEED.
  postgres: async () => {
    if (!databaseUrl()) throw new UsageError('LOAD_STORE=postgres needs LOAD_DATABASE_URL or TEST_DATABASE_URL (scripts/with-postgres.sh -- npm run test:load)');
    const name = `load_test_${process.pid}_${++databases}`;
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(databaseUrl());
    url.pathname = `/${name}`;
    return { env: { STORE: 'postgres', DATABASE_URL: url.toString() }, remove: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  },
};

/** The stores to run on: LOAD_STORE (a comma-separated list), else PostgreSQL when a database is given, else memory. */
function storesToRun() {
  const asked = (process.env.LOAD_STORE || (databaseUrl() ? 'postgres' : 'memory')).split(',').map((s) => s.trim().toLowerCase());
  const unknown = asked.filter((kind) => !STORES[kind]);
  if (unknown.length) throw new UsageError(`LOAD_STORE must name stores among ${Object.keys(STORES).join(', ')}, got "${unknown.join(', ')}"`);
  return asked;
}

/**
 * Starts the service on `kind` with `env` over the load test's settings and waits for /health. Resolves with
 * `{ skipped: why }` when the build has no such store. The service's log lines (stdout) are counted by level.
 */
async function startService(kind, env = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `load-${kind}-`));
  const store = await STORES[kind](dir);
  const port = await freePort();
  // The built service, with a garbage collection on demand for the memory checks (./gc-service.js).
  const child = spawn(process.execPath, ['--expose-gc', path.join(__dirname, 'gc-service.js')], {
    cwd: root,
    env: { ...process.env, ...store.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = { levels: {}, errors: [] };
  let pending = '';
  child.stdout.on('data', (data) => {
    const lines = (pending + data).split('\n');
    pending = lines.pop();
    for (const line of lines) {
      let level = 'unparsed';
      try {
        level = JSON.parse(line).level;
      } catch {
        // not a log line
      }
      logs.levels[level] = (logs.levels[level] ?? 0) + 1;
      if (level === 'error' || level === 'fatal') logs.errors.push(line.slice(0, 300));
    }
  });
  // A load test that ends early (an error) leaves no service behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  let collections = 0;
  // Counted on whole lines: a line may come in two chunks (the unfinished end of one waits for the next).
  let unfinished = '';
  child.stderr.on('data', (d) => {
    const lines = (unfinished + d).split('\n');
    unfinished = lines.pop();
    collections += lines.filter((line) => line === COLLECTED).length;
    stderr = (stderr + d).slice(-4000);
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  /** The last lines the service wrote to stderr, its own collections' lines left out. */
  const said = () => stderr.split('\n').filter((line) => line.trim() && !line.includes(COLLECTED)).slice(-3).join(' | ') || 'nothing on stderr';
  /** Throws, with the service's last words, once it has exited: a wait for the service ends at once then. */
  const stillRunning = () => {
    if (!alive()) throw new Error(`the service on ${kind} exited (${child.exitCode ?? child.signalCode}) during a scenario: ${said()}`);
  };
  /** A full garbage collection in the service, resolved once it says it is done; a service that exited fails it at once. */
  const collectGarbage = async () => {
    const done = collections + 1;
    child.kill('SIGUSR2');
    await until('a garbage collection in the service', () => {
      if (collections >= done) return true;
      stillRunning();
      return false;
    });
  };
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const cleanup = async () => {
    await store.remove?.().catch((err) => console.error(`could not remove the ${kind} data of a service: ${err.message}`));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  /** SIGTERM and the exit it leads to: its code (a service that does not stop is a hang, guarded like every wait). */
  const stop = async () => {
    if (alive()) child.kill('SIGTERM');
    let code;
    void exited.then((c) => (code = c));
    try {
      await until(`the service on ${kind} exits after SIGTERM`, () => code !== undefined);
    } catch (err) {
      child.kill('SIGKILL');
      code = 'hung';
      console.error(err.message);
    }
    await exited;
    await cleanup();
    return code;
  };
  let health;
  // Until it answers /health or exits: a start takes what it takes on a busy machine.
  for (;;) {
    health = await call(undefined, port, 'GET', '/health');
    if (health.status === 200) break;
    if (!alive()) {
      await stop();
      if (/STORE must be one of/.test(stderr)) return { skipped: stderr.trim().split('\n').pop() };
      throw new Error(`the service on ${kind} did not start: ${stderr.trim() || `/health answered ${health.status}`}`);
    }
    await sleep(100);
  }
  if (health.json?.storage !== kind) {
    await stop();
    return { skipped: `/health says storage: ${health.json?.storage}` };
  }
  return { port, pid: child.pid, logs, stop, collectGarbage, alive, stillRunning };
}

module.exports = { startService, storesToRun, UsageError };
