'use strict';
// One sample = one run of the load generator in its own (pinned) process against one server: wrk when it is
// installed (Debian's package: `apt-get install wrk`), else autocannon (bench/load.js). wrk, in C, spends less
// of its core per request than autocannon, so it caps fewer rows (each run checks how far it goes: quality.js).
// A request mix or a set of conditional writes needs state per request, which only bench/load.js has: those run
// on autocannon either way. BENCH_LOAD_GENERATOR=autocannon|wrk (run.js: --load-generator) chooses.
const { execFileSync, spawn } = require('node:child_process');
const path = require('node:path');
const { pinnedCommand } = require('./servers');

const LOAD_SCRIPT = path.join(__dirname, '..', 'load.js');
const WRK_SCRIPT = path.join(__dirname, '..', 'wrk.lua');

/** wrk's version line, or undefined when it is not installed. */
function wrkVersion() {
  try {
    // `wrk -v` prints its version and usage, and exits 1.
    execFileSync('wrk', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    const line = /^wrk [^\n]*?(?= \[| Copyright|$)/m.exec(e.stdout ?? '')?.[0];
    if (line) return line;
  }
  return undefined;
}

let chosen;
/** The load generator of plain requests in this process: `{ name, version }`. */
function loadGenerator() {
  if (chosen) return chosen;
  const asked = process.env.BENCH_LOAD_GENERATOR;
  if (asked && asked !== 'wrk' && asked !== 'autocannon') throw new Error(`BENCH_LOAD_GENERATOR / --load-generator: wrk or autocannon, not ${asked}`);
  const wrk = asked === 'autocannon' ? undefined : wrkVersion();
  if (asked === 'wrk' && !wrk) throw new Error('--load-generator=wrk: wrk is not installed (Debian: apt-get install wrk)');
  chosen = wrk ? { name: 'wrk', version: wrk } : { name: 'autocannon', version: undefined };
  return chosen;
}

/** Spawns `command args` (pinned to `cpu`), and resolves with its stdout's last line parsed, or rejects with why not. */
function runJson(command, args, cpu, env) {
  const [cmd, argv] = pinnedCommand(cpu, command, args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...(env && { env: { ...process.env, ...env } }) });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      try {
        resolve({ code, result: JSON.parse(out.trim().split('\n').pop()), err });
      } catch {
        reject(new Error(`${command} gave no result (exit ${code}): ${(err || out).slice(-300)}`));
      }
    });
  });
}

/**
 * One sample with wrk: one thread, `connections` connections, the same result fields as bench/load.js. A `warmup`
 * run is no sample: when no answer came back in it (requests that take longer than it lasts), it warmed what it could.
 */
async function runWrk({ url, request, connections, duration, cpu, warmup = false }) {
  const env = {
    BENCH_METHOD: request.method ?? 'GET',
    BENCH_BODY: request.body ?? '',
    BENCH_HEADERS: Object.entries(request.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n'),
  };
  // wrk takes whole seconds: a half-second warm-up (--quick) lasts one.
  const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(duration))}s`, '--timeout', '10s', '-s', WRK_SCRIPT, url + request.path];
  const { code, result: r, err } = await runJson('wrk', args, cpu, env);
  if (code !== 0) throw new Error(`wrk exited ${code}: ${err.slice(-300)}`);
  const seconds = r.durationUs / 1e6 || duration;
  const ok = r.requests - r.status;
  // A sample in which nothing came back is no rate (0 req/s would make a ratio of 0 or infinity): the row fails.
  if (r.requests === 0 && !warmup) throw new Error(`wrk: no answer came back in ${duration} s (${r.connect + r.read + r.write} socket errors, ${r.timeout} timeouts)`);
  return {
    rps: ok / seconds,
    latencyP50: r.p50Us / 1000,
    latencyP99: r.p99Us / 1000,
    total: r.requests,
    ok,
    non2xx: r.status,
    errors: r.connect + r.read + r.write,
    timeouts: r.timeout,
  };
}

function runLoad(options) {
  const { url, request, connections, duration, cpu, mix, graphql } = options;
  // A mix (given here or in the request, as the stores' conditional writes give it) needs bench/load.js.
  const needsState = Boolean(mix || request?.mix || request?.tasks);
  if (!needsState && loadGenerator().name === 'wrk') return runWrk(options);
  const opts = JSON.stringify({ url, connections, duration, mix, graphql, ...request });
  const args = [LOAD_SCRIPT, opts];
  const [cmd, argv] = pinnedCommand(cpu, process.execPath, args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop();
      try {
        const result = JSON.parse(line);
        if (result.error || code !== 0) return reject(new Error(result.error || `load exited ${code}: ${err.slice(-300)}`));
        resolve(result);
      } catch {
        reject(new Error(`load generator gave no result (exit ${code}): ${err.slice(-300)}`));
      }
    });
  });
}

/**
 * One request with fetch, to check a server answers a workload correctly before it is measured: a 2xx, a
 * GraphQL answer with data and no errors, and, when `expectItems` is given, a JSON array of that length; a refusal
 * (`expectStatus`, bench/lib/workloads.js REFUSALS) answered with that status and a JSON body with an `error`.
 * Returns what is wrong, or undefined.
 */
async function probe(url, request, expectItems, expectStatus) {
  const res = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
  const text = await res.text();
  if (expectStatus !== undefined) {
    if (res.status !== expectStatus) return `HTTP ${res.status} where ${expectStatus} was expected: ${text.slice(0, 120)}`;
    try {
      return typeof JSON.parse(text).error === 'string' ? undefined : `no error message: ${text.slice(0, 120)}`;
    } catch {
      return `not JSON: ${text.slice(0, 80)}`;
    }
  }
  if (res.status < 200 || res.status > 299) return `HTTP ${res.status}: ${text.slice(0, 120)}`;
  if (request.path.startsWith('/graphql')) {
    try {
      const json = JSON.parse(text);
      if (json.errors || !json.data) return `GraphQL errors: ${JSON.stringify(json.errors).slice(0, 160)}`;
    } catch {
      return `not JSON: ${text.slice(0, 80)}`;
    }
  }
  if (expectItems !== undefined) {
    let items;
    try {
      items = JSON.parse(text);
    } catch {
      return `not JSON: ${text.slice(0, 80)}`;
    }
    if (!Array.isArray(items) || items.length !== expectItems) return `expected an array of ${expectItems} records, got ${Array.isArray(items) ? items.length : typeof items}`;
  }
  return undefined;
}

module.exports = { runLoad, probe, loadGenerator };
