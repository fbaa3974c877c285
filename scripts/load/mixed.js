'use strict';
// The mixed load of scripts/load-test.js: CLIENTS clients create, update, delete and read for DURATION_MS while
// RETRY_CLIENTS clients create with an Idempotency-Key and retry; then the data is checked against the ledger.
const http = require('node:http');
const { call, HANG_GUARD_MS } = require('./http');
const { startService } = require('./service');

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 200);
const DURATION_MS = Number(process.env.LOAD_DURATION_MS ?? 30_000);
const RETRY_CLIENTS = Number(process.env.LOAD_RETRY_CLIENTS ?? 20);

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

/**
 * Creates books with an Idempotency-Key each, retrying a create with the same key and body until it
 * is acknowledged: after a lost answer (its first attempts give up after 1-20 ms on purpose, often while the
 * service is still creating), a 503 or a 409 (the same key still in progress, for however long that takes).
 * Records each key's acknowledged id in `keyed`; a key never acknowledged within the hang guard is reported.
 */
async function retryingClient(index, port, agent, deadline, keyed) {
  for (let n = 1; Date.now() < deadline; n++) {
    const key = `load-r${index}-${n}`;
    const body = { title: `retry ${key}` };
    const hung = Date.now() + HANG_GUARD_MS;
    for (let attempt = 1; ; attempt++) {
      const timeoutMs = attempt <= 2 ? 1 + Math.floor(Math.random() * 20) : HANG_GUARD_MS;
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
      if (Date.now() > hung) {
        keyed.unexpected.push(`POST /books (key ${key}) not acknowledged within the hang guard`);
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

/**
 * Runs the mixed load on a service of its own on `kind` (seed/default.json). Passes when there is no 5xx, no
 * dropped connection, and the data matches the client-side ledger: every acknowledged create present exactly
 * once, every acknowledged delete gone, every retried key one book; and the service stops cleanly on SIGTERM.
 * Resolves with `{ skipped }` when the build has no such store.
 */
async function mixedLoad(kind) {
  const service = await startService(kind, { SEED: 'default' });
  if (service.skipped) return service;
  const { port } = service;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
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
  const code = await service.stop();
  check('the service stops cleanly on SIGTERM', code === 0, `exit ${code}`);
  console.log(
    `mixed load: ${CLIENTS} clients, ${seconds.toFixed(1)} s, ${stats.requests} requests (${Math.round(stats.requests / seconds)}/s), ` +
      `${ledger.created.length} creates, ${ledger.deleted.length} deletes; ` +
      `${keyed.acknowledged.length} keyed creates in ${keyed.attempts} attempts (${keyed.acknowledged.filter((e) => e.replayed).length} retried)`,
  );
  return checks.map((c) => ({ ...c, name: `mixed load: ${c.name}` }));
}

module.exports = { mixedLoad };
