#!/usr/bin/env node
// Load test: LOAD_CLIENTS (200) concurrent clients do mixed creates, updates, deletes and reads for
// LOAD_DURATION_MS (30 s) against one instance of the built service (dist/, `npm run build`) spawned
// on a free loopback port. Passes when there is no 5xx, no dropped connection, and the data matches
// the client-side ledger: every acknowledged create present exactly once, every acknowledged delete gone.
// Then nonReadingClients(): LOAD_NON_READING (300) clients ask for a list of a few MiB and never read it;
// passes when the service's RSS stays bounded and the server closes those connections itself.
// Beside them, LOAD_RETRY_CLIENTS (20) clients create books with an Idempotency-Key and retry each create
// with the same key until it is acknowledged, giving up on the first attempts after a few ms (a lost
// answer): every key must end as exactly one book.
'use strict';
const { spawn } = require('node:child_process');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');

const fs = require('node:fs');

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 200);
const NON_READING = Number(process.env.LOAD_NON_READING ?? 300);
const DURATION_MS = Number(process.env.LOAD_DURATION_MS ?? 30_000);
const RETRY_CLIENTS = Number(process.env.LOAD_RETRY_CLIENTS ?? 20);
const root = path.resolve(__dirname, '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function call(agent, port, method, urlPath, body, { headers: extra = {}, timeoutMs = 15_000 } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}), ...extra };
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, json });
      });
      res.on('error', (error) => resolve({ status: 0, error }));
    });
    req.on('error', (error) => resolve({ status: 0, error }));
    req.setTimeout(timeoutMs, () => req.destroy(new Error('client timeout')));
    req.end(payload);
  });
}

const COLLECTIONS = {
  books: { field: 'title', update: (v) => ({ title: v, pages: 7 }), deletable: true },
  tasks: { field: 'title', update: (v) => ({ title: v, done: true }), deletable: true },
  items: { field: 'name', update: undefined, deletable: true },
  todos: { field: 'text', update: undefined, deletable: false },
};
const NAMES = Object.keys(COLLECTIONS);

async function client(index, port, agent, deadline, stats, ledger) {
  const mine = []; // {collection, id, value} acknowledged and not deleted
  let n = 0;
  const record = (res) => {
    stats.requests++;
    if (res.status === 0) stats.dropped.push(String(res.error && res.error.message));
    else if (res.status >= 500) stats.serverErrors.push(res.status);
    return res;
  };
  while (Date.now() < deadline) {
    const roll = Math.random();
    const collection = NAMES[(index + n) % NAMES.length];
    const spec = COLLECTIONS[collection];
    n++;
    if (roll < 0.35 || mine.length === 0) {
      const value = `load c${index} n${n}`;
      const res = record(await call(agent, port, 'POST', `/${collection}`, { [spec.field]: value }));
      if (res.status === 201) {
        const entry = { collection, id: res.json.id, value };
        mine.push(entry);
        ledger.created.push(entry);
      } else if (res.status !== 0) stats.unexpected.push(`POST /${collection} -> ${res.status}`);
    } else if (roll < 0.55) {
      const target = mine[Math.floor(Math.random() * mine.length)];
      const update = COLLECTIONS[target.collection].update;
      if (!update) continue;
      const value = `load c${index} n${n} updated`;
      const res = record(await call(agent, port, 'PUT', `/${target.collection}/${target.id}`, update(value)));
      if (res.status === 200) target.value = value;
      else if (res.status !== 0) stats.unexpected.push(`PUT /${target.collection} -> ${res.status}`);
    } else if (roll < 0.7) {
      const at = mine.findIndex((e) => COLLECTIONS[e.collection].deletable);
      if (at < 0) continue;
      const [target] = mine.splice(at, 1);
      const res = record(await call(agent, port, 'DELETE', `/${target.collection}/${target.id}`));
      if (res.status === 204) ledger.deleted.push(target);
      else if (res.status !== 0) stats.unexpected.push(`DELETE /${target.collection} -> ${res.status}`);
      else mine.push(target); // unknown outcome: checked as "present at most once" below
    } else if (roll < 0.85) {
      const target = mine[Math.floor(Math.random() * mine.length)];
      const res = record(await call(agent, port, 'GET', target.collection === 'todos' ? '/todos?limit=5' : `/${target.collection}/${target.id}`));
      if (res.status !== 200 && res.status !== 0) stats.unexpected.push(`GET /${target.collection}/${target.id} -> ${res.status}`);
    } else {
      const res = record(await call(agent, port, 'GET', `/${collection}?limit=20&offset=${n % 50}`));
      if (res.status !== 200 && res.status !== 0) stats.unexpected.push(`GET /${collection} -> ${res.status}`);
    }
  }
  ledger.live.push(...mine);
}

/** Resident memory of a process in MiB, from /proc (Linux). */
function rssMiB(pid) {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * Clients that ask and never read: a service of its own with a short write timeout, ~4 MiB of
 * books, then NON_READING connections that each send `GET /books` and read nothing. Without a bound, each
 * unsent answer stays in the process (Node has no write timeout): measured 120 MiB -> 1.3 GiB, held until the
 * clients go. Checks that once the service has dealt with them the RSS is back under what it was plus
 * MAX_UNSENT_BYTES and a margin, and that the server closed every such connection. The peak while they are
 * served is printed, not checked: every answer is generated in full (a few MiB each) whether or not its
 * client reads, and V8 collects that garbage at its own pace.
 */
async function nonReadingClients() {
  const writeTimeoutMs = 3000;
  const maxUnsentMiB = 64;
  const port = await freePort();
  // glibc's malloc keeps freed multi-MiB blocks in its heap once its mmap threshold has grown, so RSS can
  // stay at the peak long after the answers are freed (seen: 1.1-1.3 GiB for 30 s on one run, 290 MiB on the
  // next). A fixed mmap threshold makes such blocks go back to the system when freed, so RSS shows what the
  // process holds. Answers held for clients are still held: without the guard RSS stays far over the bound.
  const child = spawn(process.execPath, [path.join(root, 'dist/src/server.js')], {
    cwd: root,
    env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', SEED: 'empty', RATE_LIMIT: '0', RESPONSE_WRITE_TIMEOUT_MS: String(writeTimeoutMs), MAX_UNSENT_BYTES: `${maxUnsentMiB}mb` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  for (let tries = 0; (await call(agent, port, 'GET', '/health')).status !== 200; tries++) {
    if (tries > 150 || child.exitCode !== null) throw new Error('service for the non-reading clients did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const title = 'x'.repeat(990);
  for (let i = 0; i < 4000; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, j) => call(agent, port, 'POST', '/books', { title: `${i + j} ${title}` })));
  }
  const before = rssMiB(child.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid))), 50);
  const sockets = Array.from({ length: NON_READING }, () => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /books HTTP/1.1\r\nHost: localhost\r\n\r\n'));
    socket.pause();
    socket.on('error', () => undefined);
    return socket;
  });
  // Once the service answers a request sent after theirs, every one of them has had its answer written.
  await new Promise((r) => setTimeout(r, 500));
  await call(new http.Agent({ keepAlive: false }), port, 'GET', '/health');
  await new Promise((r) => setTimeout(r, writeTimeoutMs + 1000));
  clearInterval(sampler);
  // What the service still holds once it is idle again (garbage collected: the lowest sample). Building 300
  // answers of a few MiB each (JSON, ETag) takes the one core several seconds, longer on a busy machine, so
  // the service gets up to SETTLE_MS to finish them and give the memory back; a leak never gets under the bound.
  const margin = 128;
  const bound = before + maxUnsentMiB + margin;
  const SETTLE_MS = 30_000;
  let settled = Infinity;
  for (const until = Date.now() + SETTLE_MS; Date.now() < until && settled >= bound; ) {
    await new Promise((r) => setTimeout(r, 100));
    settled = Math.min(settled, rssMiB(child.pid));
  }
  // Now read what each got. A connection the server cut ends with less than its answer's Content-Length; one
  // whose whole answer fit in the kernel's buffers (so it never held process memory) ends at the keep-alive timeout.
  const outcomes = await Promise.all(
    sockets.map(
      (socket) =>
        new Promise((resolve) => {
          const chunks = [];
          const done = (ended) => {
            clearTimeout(timer);
            socket.destroy();
            const text = Buffer.concat(chunks).toString('latin1');
            const head = text.indexOf('\r\n\r\n');
            const length = Number(/content-length: (\d+)/i.exec(text.slice(0, head))?.[1] ?? NaN);
            resolve({ ended, cut: head < 0 || text.length - head - 4 < length });
          };
          const timer = setTimeout(() => done(false), 8000);
          socket.on('data', (d) => chunks.push(d));
          socket.once('close', () => done(true));
          socket.resume();
        }),
    ),
  );
  const stillServing = (await call(agent, port, 'GET', '/books?limit=1')).status === 200;
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const cut = outcomes.filter((o) => o.ended && o.cut).length;
  const closed = outcomes.filter((o) => o.ended).length;
  console.log(
    `non-reading: ${NON_READING} clients, RSS ${before.toFixed(0)} MiB -> peak ${peak.toFixed(0)} MiB while they are served ` +
      `(answers generated, cut, collected) -> ${settled.toFixed(0)} MiB once their connections are closed, ` +
      `${closed} closed by the server (${cut} in the middle of their answer)`,
  );
  return [
    {
      name: `RSS held after non-reading clients back under the RSS before + MAX_UNSENT_BYTES + ${margin} MiB within ${SETTLE_MS / 1000} s`,
      ok: settled < bound,
      detail: `${settled.toFixed(0)} MiB, bound ${bound.toFixed(0)} MiB`,
    },
    { name: 'the server closes every non-reading connection', ok: closed === NON_READING, detail: `${closed} of ${NON_READING}` },
    { name: 'the service still answers after the non-reading clients', ok: stillServing, detail: 'GET /books failed' },
  ];
}

/**
 * Creates books with an Idempotency-Key each, retrying a create with the same key and body until it
 * is acknowledged: after a lost answer (its first attempts give up after 1-20 ms, often while the
 * service is still creating), a 503 or a 409 (the same key still in progress). Records each key's
 * acknowledged id in `keyed`.
 */
async function retryingClient(index, port, agent, deadline, keyed) {
  for (let n = 1; Date.now() < deadline; n++) {
    const key = `load-r${index}-${n}`;
    const body = { title: `retry ${key}` };
    for (let attempt = 1; ; attempt++) {
      const timeoutMs = attempt <= 2 ? 1 + Math.floor(Math.random() * 20) : 15_000;
      const res = await call(agent, port, 'POST', '/books', body, { headers: { 'idempotency-key': key }, timeoutMs });
      keyed.attempts++;
      if (res.status === 201) {
        keyed.acknowledged.push({ key, title: body.title, id: res.json.id, replayed: attempt > 1 });
        break;
      }
      if (res.status !== 0 && res.status !== 503 && res.status !== 409) {
        keyed.unexpected.push(`POST /books (key) -> ${res.status}`);
        break;
      }
      if (attempt > 50) {
        keyed.unexpected.push(`POST /books (key ${key}) never acknowledged`);
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

async function main() {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'dist/src/server.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED: 'default', RATE_LIMIT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  for (let tries = 0; ; tries++) {
    const res = await call(agent, port, 'GET', '/health');
    if (res.status === 200) break;
    if (tries > 150 || child.exitCode !== null) throw new Error(`service did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stats = { requests: 0, dropped: [], serverErrors: [], unexpected: [] };
  const ledger = { created: [], deleted: [], live: [] };
  const started = Date.now();
  const deadline = started + DURATION_MS;
  const keyed = { attempts: 0, acknowledged: [], unexpected: [] };
  const retryAgent = new http.Agent({ keepAlive: true, maxSockets: RETRY_CLIENTS });
  await Promise.all([
    ...Array.from({ length: CLIENTS }, (_, i) => client(i, port, agent, deadline, stats, ledger)),
    ...Array.from({ length: RETRY_CLIENTS }, (_, i) => retryingClient(i, port, retryAgent, deadline, keyed)),
  ]);
  retryAgent.destroy();
  const seconds = (Date.now() - started) / 1000;

  const lists = {};
  for (const name of NAMES) lists[name] = (await call(agent, port, 'GET', `/${name}`)).json ?? [];
  const count = (name, id) => lists[name].filter((r) => r.id === id).length;
  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok, detail });
  check('no 5xx response', stats.serverErrors.length === 0, `${stats.serverErrors.length} 5xx`);
  check('no dropped connection', stats.dropped.length === 0, `${stats.dropped.length} dropped: ${[...new Set(stats.dropped)].slice(0, 3).join('; ')}`);
  check('no unexpected status', stats.unexpected.length === 0, stats.unexpected.slice(0, 5).join('; '));
  const deletedKeys = new Set(ledger.deleted.map((e) => `${e.collection}/${e.id}`));
  const missing = ledger.live.filter((e) => !deletedKeys.has(`${e.collection}/${e.id}`) && count(e.collection, e.id) !== 1);
  check('every acknowledged create present exactly once', missing.length === 0, `${missing.length} missing or duplicated`);
  const wrong = ledger.live.filter((e) => lists[e.collection].find((r) => r.id === e.id)?.[COLLECTIONS[e.collection].field] !== e.value);
  check('every surviving record holds its last acknowledged value', wrong.length === 0, `${wrong.length} differ`);
  const resurrected = ledger.deleted.filter((e) => count(e.collection, e.id) !== 0);
  check('every acknowledged delete gone', resurrected.length === 0, `${resurrected.length} still present`);
  const dupIds = NAMES.filter((name) => new Set(lists[name].map((r) => r.id)).size !== lists[name].length);
  check('ids unique in every collection', dupIds.length === 0, dupIds.join(', '));
  const createdIds = new Set(ledger.created.map((e) => `${e.collection}/${e.id}`));
  check('every create got a distinct id', createdIds.size === ledger.created.length, `${ledger.created.length - createdIds.size} reused`);
  const retried = keyed.acknowledged.filter((e) => lists.books.filter((r) => r.title === e.title).map((r) => r.id).join() !== String(e.id));
  check('retried creates with an Idempotency-Key: exactly one book per key, with the acknowledged id', retried.length === 0 && keyed.unexpected.length === 0,
    `${retried.length} missing or duplicated; ${keyed.unexpected.slice(0, 3).join('; ')}`);

  agent.destroy();
  child.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 15_000))]);
  check('service stops cleanly on SIGTERM', code === 0, `exit ${code}`);
  if (code === 'timeout') child.kill('SIGKILL');
  checks.push(...(await nonReadingClients()));

  console.log(
    `load: ${CLIENTS} clients, ${seconds.toFixed(1)} s, ${stats.requests} requests (${Math.round(stats.requests / seconds)}/s), ` +
      `${ledger.created.length} creates, ${ledger.deleted.length} deletes; ` +
      `${keyed.acknowledged.length} keyed creates in ${keyed.attempts} attempts (${keyed.acknowledged.filter((e) => e.replayed).length} retried)`,
  );
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.ok ? '' : ` (${c.detail})`}`);
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`load test could not run: ${err.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
