'use strict';
// Benchmark section: this service on PostgreSQL against PostgREST and PostGraphile, and the service on
// each of its stores (memory, SQLite, PostgreSQL). A section module for bench/run.js, and runnable alone:
//   node bench/sections/stores.js [--quick] [--only=get-book,gql-nested] [--duration=S] [--rounds=N] [--json=FILE]
// prints the markdown on stdout (progress on stderr). Needs `npm run build` first.
const { existsSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, pinning, startServer } = require('../lib/servers');
const { makeSeed } = require('../lib/seed');
const { startCluster } = require('../lib/stores/postgres');
const { preparePeerDatabase } = require('../lib/stores/peer-database');
const { PEERS } = require('../lib/stores/peers');
const { WORKLOADS, withTasks } = require('../lib/stores/workloads');
const { measureWorkload, serviceEnv } = require('../lib/stores/measure');
const { render } = require('../lib/stores/render');
const { loadGenerator } = require('../lib/measure');

const id = 'stores';
const title = 'The service on its stores, against PostgREST and PostGraphile';
const SERVICE_HOW =
  'the built service (`node dist/src/server.js`), one process, `NODE_ENV=production`, `LOG_LEVEL=silent`, ' +
  '`DB_POOL_SIZE=10` on PostgreSQL, `STORE=memory` and `STORE=sqlite` (a new file per workload) for the other stores, every other setting at its default.';

/**
 * Settings from the runner's options: { quick, duration, rounds, connections, warmup, only, command }.
 * `only` keeps the workloads it names (ids of WORKLOADS); naming none of them measures nothing.
 */
function settingsOf(options) {
  const quick = Boolean(options.quick);
  const pick = (key, normal, fast) => Number(options[key] ?? (quick ? fast : normal));
  return {
    mode: quick ? 'quick' : 'default',
    duration: pick('duration', 5, 1),
    rounds: Math.round(pick('rounds', 5, 2)),
    connections: Math.round(pick('connections', 16, 16)),
    warmup: pick('warmup', 2, 0.5),
    only: options.only,
  };
}

const version = (pkg) => require(path.join(ROOT, 'bench', 'node_modules', pkg, 'package.json')).version;

/** Which store the service runs when started for `store` (from /health), or why it does not. */
async function storeSupport(store, { seedFile, tmp, cpus }) {
  try {
    const server = await startServer('service', { seedFile, cpu: cpus?.server, extraEnv: serviceEnv(store, { file: path.join(tmp, 'probe.sqlite') }) });
    try {
      const { storage } = await (await fetch(`${server.url}/health`)).json();
      return storage === store ? { ok: true } : { ok: false, note: `this build has no ${store} store (\`STORE=${store}\` started the ${storage} store)` };
    } finally {
      await server.stop();
    }
  } catch (e) {
    return { ok: false, note: `the service did not start with \`STORE=${store}\`: ${e.message.split('\n')[0].slice(0, 200)}` };
  }
}

/** The templates every workload copies: the service's database (migrated and seeded by the service) and the peers'. */
async function prepareTemplates(cluster, { seed, seedFile, cpus }) {
  await cluster.createDatabase('svc_template');
  const server = await startServer('service', { seedFile, cpu: cpus?.server, extraEnv: serviceEnv('postgres', { cluster, database: 'svc_template' }) });
  await server.stop();
  await cluster.createDatabase('peer_template');
  await preparePeerDatabase(cluster.databaseUrl('peer_template'), seed);
  return { service: 'svc_template', peer: 'peer_template' };
}

async function run(options = {}, context = {}) {
  const s = settingsOf(options);
  const log = context.log ?? ((line) => process.stderr.write(`${line}\n`));
  const workloads = WORKLOADS.filter((w) => !s.only || s.only.includes(w.id));
  if (workloads.length === 0) return { id, title, skipped: `--only named none of its workloads (${WORKLOADS.map((w) => w.id).join(', ')})` };
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'server.js'))) throw new Error('dist/src/server.js is missing: run `npm run build` first');
  for (const peer of new Set(workloads.map((w) => w.peer))) PEERS[peer]?.install(log);

  const tmp = context.tmp ?? mkdtempSync(path.join(os.tmpdir(), 'bench-stores-'));
  const cpus = context.cpus ?? pinning(os.cpus().length);
  const loadStart = os.loadavg().map((v) => v.toFixed(2)).join(' ');
  const seed = withTasks(makeSeed(100));
  const seedFile = path.join(tmp, 'stores-seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  log(`stores: ${s.mode} mode, ${s.rounds} rounds × ${s.duration} s, ${s.connections} connections; starting PostgreSQL`);
  const cluster = await startCluster({ cpu: cpus?.server });
  const rows = [];
  let stores;
  try {
    const templates = await prepareTemplates(cluster, { seed, seedFile, cpus });
    stores = { memory: await storeSupport('memory', { seedFile, tmp, cpus }), sqlite: await storeSupport('sqlite', { seedFile, tmp, cpus }) };
    for (const [store, support] of Object.entries(stores)) if (!support.ok) log(`stores: ${store} not measured: ${support.note}`);
    const env = { cluster, templates, seedFile, tmp, cpus, s, stores: Object.keys(stores).filter((k) => stores[k].ok) };
    for (const w of workloads) {
      const base = { id: w.id, title: w.title, peerLabel: PEERS[w.peer].label, peerTarget: w.peerTarget, storeTarget: w.storeTarget, stores: Boolean(w.stores) };
      const row = await measureWorkload(w, env).then((m) => ({ ...base, ...m }), (e) => ({ ...base, failed: e.message }));
      log(`stores: ${w.title}: ${row.failed ? `not measured (${row.failed})` : Object.values(row.subjects).map((x) => `${x.label} ${x.rps.map(Math.round).join('/')} req/s`).join('; ')}`);
      rows.push(row);
    }
  } finally {
    await cluster.stop();
    // A temp dir of its own (seed file, SQLite files) goes; the runner's stays the runner's.
    if (!context.tmp) rmSync(tmp, { recursive: true, force: true });
  }
  return {
    id,
    title,
    command: options.command ?? 'node bench/sections/stores.js',
    finishedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    settings: { ...s, pinning: cpus ? `servers and PostgreSQL on CPU ${cpus.server}, the load generator on CPU ${cpus.load} (taskset)` : 'not pinned (taskset missing or one CPU)' },
    loadAverage: { start: loadStart, end: os.loadavg().map((v) => v.toFixed(2)).join(' ') },
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`, node: process.version, os: `${os.type()} ${os.release()}` },
    postgres: { version: cluster.version, settings: cluster.settings },
    versions: { service: require(path.join(ROOT, 'package.json')).version, autocannon: version('autocannon'), postgrest: PEERS.postgrest.version(), postgraphile: PEERS.postgraphile.version() },
    loadGenerator: loadGenerator(),
    how: { service: SERVICE_HOW, postgrest: PEERS.postgrest.how, postgraphile: PEERS.postgraphile.how },
    seed: { books: seed.books.length, tasks: seed.tasks.length, users: seed.users.length, posts: seed.posts.length, comments: seed.comments.length },
    stores,
    workloads: rows,
  };
}

// On the page, bench/lib/report.js writes the section's heading.
module.exports = { id, title, run, render: (results, quality) => render(results, quality).replace(/^## [^\n]*\n\n/, '') };

if (require.main === module) {
  require('../lib/install').ensureInstalled();
  const argv = process.argv.slice(2);
  const flags = Object.fromEntries(argv.map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? true]));
  const options = {
    quick: Boolean(flags.quick),
    ...(flags.duration && { duration: Number(flags.duration) }),
    ...(flags.rounds && { rounds: Number(flags.rounds) }),
    ...(typeof flags.only === 'string' && { only: flags.only.split(',') }),
    command: ['node bench/sections/stores.js', ...argv.filter((a) => !a.startsWith('--json='))].join(' '),
  };
  run(options).then(
    (results) => {
      if (typeof flags.json === 'string') writeFileSync(flags.json, JSON.stringify(results, null, 2));
      process.stdout.write(render(results));
    },
    (e) => {
      console.error(`stores section failed: ${e.stack ?? e.message}`);
      process.exit(1);
    },
  );
}
