#!/usr/bin/env node
'use strict';
// The SQLite store on each driver, and the service on SQLite beside the in-memory store, side by side:
//   npm run build && node bench/sqlite.js [--rounds=5] [--duration=5]
//   scripts/with-node.sh 24 -- node bench/sqlite.js      (node:sqlite runs on Node 22.13+ and 24 only)
// 1. The store in this process, on each driver that runs on this Node, in alternating rounds: creates one
//    at a time (each its own COMMIT and fsync), creates 16 at once (sharing a COMMIT), get by id from the
//    store's cache and past it (cycling through more ids than it keeps, so every get reads the row), a list
//    of 500 records read whole (batch by batch), the posts of 20 users (one listByParents, then its cache).
// 2. The built service (NODE_ENV=production, LOG_LEVEL=silent) pinned to CPU 0, autocannon with 16
//    connections pinned to the last CPU: GET /books/{id}, POST /books and GraphQL users with their posts and
//    comments, on the in-memory store and on SQLite with each driver, in alternating rounds (a new file each
//    round). Median req/s and the ratio to memory.
// Prints markdown tables: medians, with the lowest and highest of the rounds. Read the ratios, measured side by
// side: absolute figures move with the machine and its load. --part=store or --part=service runs one part.
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureInstalled } = require('./lib/install');
const { runLoad } = require('./lib/measure');
const { pinning, startServer } = require('./lib/servers');
const { median } = require('./lib/stats');

const ROOT = path.join(__dirname, '..');
const { createSqliteStore } = require(path.join(ROOT, 'dist/src/store/sqlite'));
const { DRIVER_ORDER, driverRuns } = require(path.join(ROOT, 'dist/src/store/sqlite/driver'));
const { RECORDS_KEPT } = require(path.join(ROOT, 'dist/src/store/sqlite/collection'));
const { readAll } = require(path.join(ROOT, 'dist/src/store/types'));
const { makeSeed } = require('./lib/seed');
const { WORKLOADS: WORKLOAD_LIST } = require('./lib/workloads');

const arg = (name, fallback) => Number((process.argv.find((a) => a.startsWith(`--${name}=`)) ?? '').split('=')[1] || fallback);
const ROUNDS = arg('rounds', 5);
const PART = (process.argv.find((a) => a.startsWith('--part=')) ?? '--part=both').split('=')[1];
const DURATION = arg('duration', 5);
const drivers = DRIVER_ORDER.filter(driverRuns);
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-sqlite-'));
let files = 0;
const newFile = () => path.join(dir, `bench-${++files}.sqlite`);

/** Operations per second of `op` run `n` times (awaiting each, or `width` at once). */
async function rate(n, op, width = 1) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i += width) await Promise.all(Array.from({ length: width }, (_, j) => op(i + j)));
  return n / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function storeRound(driver) {
  const books = RECORDS_KEPT + 2000;
  const store = createSqliteStore({ file: newFile(), seed: makeSeed(books), driver });
  const users = Array.from({ length: 20 }, (_, i) => i + 1);
  const result = {
    'creates, one at a time': await rate(300, (i) => store.books.create({ title: `Book ${i}`, pages: i })),
    'creates, 16 at once': await rate(4000, (i) => store.books.create({ title: `Book ${i}`, pages: i }), 16),
    'get by id, from the cache': await rate(50000, (i) => store.books.get((i % 1000) + 1)),
    // More ids than the cache keeps, in a cycle: the oldest kept goes first, so every get reads its row.
    'get by id, reading the row': await rate(50000, (i) => store.books.get((i % books) + 1)),
    'list of 500 (every batch)': await rate(1000, async () => readAll(await store.books.list({ limit: 500 }))),
    'posts of 20 users (kept after the first)': await rate(5000, () => store.posts.listByParents(users)),
  };
  await store.close();
  return result;
}

// The stores section's workloads (bench/lib/workloads.js), on its data: 100 books, 20 users, 100 posts, 300 comments.
const WORKLOADS = Object.fromEntries(['get-book', 'post-book', 'gql-nested'].map((id) => WORKLOAD_LIST.find((w) => w.id === id)).map((w) => [w.title, w.request]));
const seedFile = path.join(dir, 'seed.json');
writeFileSync(seedFile, JSON.stringify(makeSeed(100)));

async function serviceRound(store, workload, cpus) {
  const env = store === 'memory' ? { STORE: 'memory' } : { STORE: 'sqlite', SQLITE_FILE: newFile(), SQLITE_DRIVER: store };
  const server = await startServer('service', { seedFile, cpu: cpus?.server, extraEnv: { ...env, LOG_LEVEL: 'silent' } });
  try {
    const result = await runLoad({ url: server.url, request: WORKLOADS[workload], connections: 16, duration: DURATION, cpu: cpus?.load });
    if (result.non2xx || result.errors) throw new Error(`${store} ${workload}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.rps;
  } finally {
    await server.stop();
  }
}

const spread = (values) => `${fmt(median(values))} (${fmt(Math.min(...values))}-${fmt(Math.max(...values))})`;
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function main() {
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0].model}); drivers here: ${drivers.join(', ')}; ${ROUNDS} rounds\n`);
  if (PART !== 'store') ensureInstalled();
  if (PART !== 'service') {
    const storeRuns = Object.fromEntries(drivers.map((d) => [d, []]));
    for (let round = 0; round < ROUNDS; round++) for (const driver of drivers) storeRuns[driver].push(await storeRound(driver));
    const ops = Object.keys(storeRuns[drivers[0]][0]);
    console.log(table(['store operation (ops/s: median, lowest-highest)', ...drivers], ops.map((op) => [op, ...drivers.map((d) => spread(storeRuns[d].map((r) => r[op])))])));
  }
  if (PART === 'store') return;
  const cpus = pinning(os.cpus().length);
  const stores = ['memory', ...drivers];
  const rows = [];
  for (const workload of Object.keys(WORKLOADS)) {
    const runs = Object.fromEntries(stores.map((s) => [s, []]));
    for (let round = 0; round < ROUNDS; round++) for (const store of stores) runs[store].push(await serviceRound(store, workload, cpus));
    const memory = median(runs.memory);
    rows.push([workload, spread(runs.memory), ...drivers.map((d) => `${spread(runs[d])}, ${(median(runs[d]) / memory).toFixed(2)}x`)]);
  }
  console.log(`\n${table(['service, -c16 (req/s: median, lowest-highest)', 'memory', ...drivers.map((d) => `SQLite, ${d}`)], rows)}`);
  console.log(`\nserver on CPU ${cpus?.server ?? '(not pinned)'}, load on CPU ${cpus?.load ?? '(not pinned)'}, ${DURATION} s per run`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
