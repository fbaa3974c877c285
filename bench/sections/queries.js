'use strict';
// Benchmark section: a filtered, sorted list read a cursor page at a time, on each store, at 1,000 / 100,000 /
// 300,000 and 1,000,000 books. docs/contract.md §7 promises that a cursor page costs the same at any depth: the rows say
// what a page costs as the collection grows, and what a page 40,000 records deep costs against a shallow one.
// A section module for bench/run.js, and runnable alone:
//   node bench/sections/queries.js [--quick] [--sizes=1000,300000] [--stores=memory,sqlite] [--duration=S] [--rounds=N]
// prints the markdown on stdout (progress on stderr). Needs `npm run build` first.
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runLoad, probe } = require('../lib/measure');
const { pinning, startServer } = require('../lib/servers');
const { seedFile } = require('../lib/seed');
const { summary } = require('../lib/stats');
const { startCluster } = require('../lib/stores/postgres');
const { serviceEnv, STORE_LABELS } = require('../lib/stores/measure');

const id = 'queries';
const title = 'Filtered, sorted cursor pages at scale';
const SIZES = [1000, 100000, 300000, 1000000];
const STORES = ['memory', 'sqlite', 'postgres'];
/** The list: books of at least 500 pages (about half of bench/lib/seed.js's), most pages first. */
const LIST = '/books?pages%5Bgte%5D=500&sort=-pages';
const PAGE = 20;
/** How deep the deep page starts, in records. */
const DEEP = 40000;
const PAGES = [
  ['first', 'first page (counts the list: `X-Total-Count`)'],
  ['shallow', 'cursor page 2'],
  ['deep', `cursor page ${DEEP / PAGE + 1} (${DEEP.toLocaleString('en-US')} records deep)`],
];

function settingsOf(options) {
  const quick = Boolean(options.quick);
  const pick = (key, normal, fast) => Number(options[key] ?? (quick ? fast : normal));
  const list = (value, fallback) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value ?? fallback);
  return {
    mode: quick ? 'quick' : 'default',
    duration: pick('duration', 5, 1),
    rounds: Math.round(pick('rounds', 3, 2)),
    connections: Math.round(pick('connections', 16, 16)),
    warmup: pick('warmup', 2, 0.5),
    sizes: list(options.sizes, SIZES).map(Number),
    stores: list(options.stores, STORES),
  };
}

/** The `after` of a page's `Link: <...>; rel="next"`. */
async function nextOf(url, target) {
  const res = await fetch(url + target);
  await res.arrayBuffer();
  const link = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  return link && new URL(link, url).searchParams.get('after');
}

/**
 * Waits until the service's PostgreSQL pool is idle again (its /metrics: every connection idle, no statement waiting).
 * The requests still under way when the load generator stopped go on: a first page that counts 1,000,000 rows runs
 * for seconds after its client left, and would slow the next sample down.
 */
async function drained(url, timeoutMs = 30000) {
  const gauge = (text, name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
  for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const size = gauge(text, 'pg_pool_connections');
    if (gauge(text, 'pg_pool_idle_connections') === size && gauge(text, 'pg_pool_waiting_requests') === 0) return;
  }
  throw new Error(`the PostgreSQL pool was still busy ${timeoutMs / 1000} s after a sample`);
}

/** The requests measured on one server: the first page, the second (a cursor page) and one DEEP records deep (when the list is that long). */
async function requestsOf(url) {
  const first = `${LIST}&limit=${PAGE}`;
  const requests = { first, shallow: `${first}&after=${await nextOf(url, first)}` };
  let after;
  for (let walked = 0; walked < DEEP; walked += 1000) {
    after = await nextOf(url, `${LIST}&limit=1000${after ? `&after=${after}` : ''}`);
    if (!after) return requests;
  }
  return { ...requests, deep: `${first}&after=${after}` };
}

async function run(options = {}, context = {}) {
  if (options.only) return { skipped: '--only names workloads of the other sections' };
  const s = settingsOf(options);
  const log = context.log ?? ((line) => process.stderr.write(`${line}\n`));
  const tmp = context.tmp ?? mkdtempSync(path.join(os.tmpdir(), 'bench-queries-'));
  const cpus = context.cpus ?? pinning(os.cpus().length);
  const seeds = (books) => (context.seedFile ? context.seedFile(books) : seedFile(tmp, books));
  const cluster = s.stores.includes('postgres') ? await startCluster({ cpu: cpus?.server }) : undefined;
  const rows = [];
  try {
    for (const store of s.stores) {
      for (const books of s.sizes) {
        const database = `q_${store}_${books}`;
        if (store === 'postgres') await cluster.createDatabase(database);
        const row = { store, books, rps: {}, problems: [] };
        rows.push(row);
        let server;
        try {
          const started = Date.now();
          const extraEnv = serviceEnv(store, { cluster, database, file: path.join(tmp, `${database}.sqlite`) });
          server = await startServer('service', { seedFile: seeds(books), cpu: cpus?.server, extraEnv, readyTimeoutMs: 30 * 60000 });
          row.startSeconds = (Date.now() - started) / 1000;
          const requests = await requestsOf(server.url);
          for (const [key, target] of Object.entries(requests)) {
            const problem = await probe(server.url, { method: 'GET', path: target }, PAGE);
            if (problem) throw new Error(`${key}: ${problem}`);
            row.rps[key] = [];
          }
          const load = async (target, duration, warmup = false) => {
            const result = await runLoad({ url: server.url, request: { method: 'GET', path: target }, connections: s.connections, duration, cpu: cpus?.load, warmup });
            if (result.non2xx || result.errors || result.timeouts) row.problems.push(`${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
            if (store === 'postgres') await drained(server.url);
            return result.rps;
          };
          // A first page that counts 1,000,000 rows may take longer than the warm-up: it warms what it can.
          for (const target of Object.values(requests)) await load(target, s.warmup, true);
          for (let r = 0; r < s.rounds; r += 1) {
            const keys = Object.keys(requests);
            for (const key of r % 2 === 0 ? keys : keys.reverse()) row.rps[key].push(await load(requests[key], s.duration));
          }
          log(`queries: ${store}, ${books} books: ${Object.entries(row.rps).map(([k, v]) => `${k} ${v.map(Math.round).join('/')} req/s`).join('; ')}`);
        } catch (e) {
          row.failed = e.message.split('\n')[0].slice(0, 300);
          log(`queries: ${store}, ${books} books: not measured (${row.failed})`);
        } finally {
          await server?.stop();
          if (store === 'postgres') await cluster.dropDatabase(database);
        }
      }
    }
  } finally {
    await cluster?.stop();
    if (!context.tmp) rmSync(tmp, { recursive: true, force: true });
  }
  return { settings: s, loadAverage: os.loadavg().map((v) => v.toFixed(2)).join(' '), rows };
}

const n0 = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '–');

function render({ settings, loadAverage, rows }) {
  const median = (row, key) => (row.rps[key]?.length ? summary(row.rps[key]).median : NaN);
  const spread = (row, key) => (row.rps[key]?.length ? `${n0(Math.min(...row.rps[key]))} – ${n0(Math.max(...row.rps[key]))}` : '');
  const table = [
    `| Store | Books | ${PAGES.map(([, label]) => `${label}, req/s (spread)`).join(' | ')} | Cursor page 2, time against 1,000 books | Deep page, time against page 2 | Start, s |`,
    `|---|---|${PAGES.map(() => '---|').join('')}---|---|---|`,
  ];
  for (const row of rows) {
    if (row.failed) {
      table.push(`| ${STORE_LABELS[row.store]} | ${n0(row.books)} | not measured: ${row.failed.replace(/\|/g, '\\|')} |${PAGES.slice(1).map(() => ' |').join('')} | | |`);
      continue;
    }
    const small = rows.find((r) => r.store === row.store && r.books === Math.min(...settings.sizes));
    const cells = PAGES.map(([key]) => (row.rps[key] ? `${n0(median(row, key))} (${spread(row, key)})` : 'shorter list'));
    table.push(
      `| ${STORE_LABELS[row.store]} | ${n0(row.books)} | ${cells.join(' | ')} | ${small && small !== row ? x(median(small, 'shallow') / median(row, 'shallow')) : '1×'} | ${row.rps.deep ? x(median(row, 'shallow') / median(row, 'deep')) : '–'} | ${row.startSeconds?.toFixed(0) ?? ''} |`,
    );
  }
  return `\`GET ${decodeURIComponent(LIST)}&limit=${PAGE}\`, then the cursor pages its \`Link: rel="next"\` leads to, on the service seeded with
each number of books (half of them at 500 pages or more). Ratios are times per request (req/s of the smaller over the larger),
medians of ${settings.rounds} rounds × ${settings.duration} s, ${settings.connections} connections; load average at the end ${loadAverage}.
docs/contract.md §7 promises that a cursor page costs the same at any depth; the issue's bounds are at most 3× from 1,000 books
to 300,000 for a cursor page, and at most 2× for a page 40,000 records deep against a shallow one. The first page counts the
filtered list (\`X-Total-Count\`), so its cost grows with the number of books that match. On PostgreSQL each sample starts
once the service's pool is idle: requests under way when the load generator stops (a first page's count) run on.

${table.join('\n')}`;
}

module.exports = { id, title, run, render };

if (require.main === module) {
  require('../lib/install').ensureInstalled();
  const argv = process.argv.slice(2);
  const flags = Object.fromEntries(argv.map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? true]));
  run(flags).then(
    (results) => process.stdout.write(`${render(results)}\n`),
    (e) => {
      console.error(`queries section failed: ${e.stack ?? e.message}`);
      process.exit(1);
    },
  );
}
