'use strict';
// npm run bench [-- --quick | --duration=S --rounds=N --connections=N --only=id,id --no-profile --no-memory --no-write]
// Starts every server fresh per workload, measures service and peers alternately with autocannon
// in a separate pinned process, measures RSS, profiles, and regenerates BENCHMARKS.md.
const { existsSync, mkdtempSync, readFileSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { KINDS, ROOT, pinning, startServer } = require('./lib/servers');
const { runLoad, probe } = require('./lib/measure');
const { seedFile } = require('./lib/seed');
const { summary } = require('./lib/stats');
const { WORKLOADS, peerSpec } = require('./lib/workloads');
const { profileWorkload } = require('./lib/profile');
const { render, contractFirstSection } = require('./lib/report');
const { check } = require('./lib/targets');
const { formatSummary } = require('./lib/cpuprofile');

const HELP = `Options (flags win over BENCH_* environment variables):
  --quick               smoke run: 1 s samples, 2 rounds, short memory soak and profiles
  --duration=S          seconds per sample (BENCH_DURATION, default 5)
  --rounds=N            alternating rounds per pair (BENCH_ROUNDS, default 5)
  --connections=N       autocannon connections (BENCH_CONNECTIONS, default 16)
  --warmup=S            warm-up seconds per server per workload (default 2)
  --memory-seconds=S    mixed load for the RSS check (BENCH_MEMORY_SECONDS, default 60)
  --profile-seconds=S   load while profiling each workload (default 10)
  --profile=id,id       workloads to profile (default get-book,post-book,gql-nested)
  --profile-peers=k,k   also profile these peers (keys of KINDS, e.g. fastify-openapi-glue) on those workloads
  --only=id,id          only these workloads (${WORKLOADS.map((w) => w.id).join(', ')})
  --peers=k,k           only these peers of each workload (keys of KINDS, e.g. fastify-openapi-glue,mercurius-jit)
  --no-profile --no-memory --no-write (do not regenerate BENCHMARKS.md)
  --render=FILE         only regenerate BENCHMARKS.md from a results.json of an earlier run
  --section-only        do not regenerate BENCHMARKS.md: replace only its "Contract-first peers" section
                        (for a run with --only; with --render=FILE too)`;

function parseArgs(argv) {
  const flags = Object.fromEntries(
    argv.map((a) => {
      const [k, v] = a.replace(/^--/, '').split('=');
      return [k, v ?? true];
    }),
  );
  if (flags.help) {
    console.log(HELP);
    process.exit(0);
  }
  const quick = Boolean(flags.quick);
  const num = (flag, env, normal, fast) => {
    const v = Number(flags[flag] ?? process.env[env] ?? (quick ? fast : normal));
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${flag} must be a positive number`);
    return v;
  };
  return {
    mode: quick ? 'quick' : 'default',
    duration: num('duration', 'BENCH_DURATION', 5, 1),
    rounds: Math.round(num('rounds', 'BENCH_ROUNDS', 5, 2)),
    connections: Math.round(num('connections', 'BENCH_CONNECTIONS', 16, 16)),
    warmup: num('warmup', 'BENCH_WARMUP', 2, 0.5),
    memorySeconds: num('memory-seconds', 'BENCH_MEMORY_SECONDS', 60, 5),
    memoryWarmup: quick ? 2 : 10,
    profileSeconds: num('profile-seconds', 'BENCH_PROFILE_SECONDS', 10, 3),
    only: typeof flags.only === 'string' ? flags.only.split(',') : undefined,
    peers: typeof flags.peers === 'string' ? flags.peers.split(',') : undefined,
    profile: !flags['no-profile'],
    profileIds: typeof flags.profile === 'string' ? flags.profile.split(',') : ['get-book', 'post-book', 'gql-nested'],
    profileKinds: ['service', ...(typeof flags['profile-peers'] === 'string' ? flags['profile-peers'].split(',') : [])],
    memory: !flags['no-memory'],
    write: !flags['no-write'],
    render: typeof flags.render === 'string' ? flags.render : undefined,
    sectionOnly: Boolean(flags['section-only']),
  };
}

function version(pkg) {
  try {
    return require(path.join(ROOT, 'node_modules', pkg, 'package.json')).version;
  } catch {
    return 'not installed';
  }
}

async function measureWorkload(w, ctx) {
  const peers = w.peers.filter((p) => !ctx.s.peers || ctx.s.peers.includes(peerSpec(w, p).kind));
  const specs = [w.subject, ...peers.map((p) => peerSpec(w, p))];
  const label = (s) => (s.kind === 'service' && w.scaling ? `service, ${s.seed.toLocaleString('en-US')} records` : KINDS[s.kind].label);
  const servers = [];
  try {
    for (const s of specs) servers.push(await startServer(s.kind, { seedFile: ctx.seedFiles[s.seed], cpu: ctx.cpus?.server }));
    const problems = await Promise.all(servers.map((srv) => probe(srv.url, w.request).catch((e) => e.message)));
    const rowsFailed = (i) => problems[0] || problems[i];
    const live = servers.map((srv, i) => (i === 0 ? !problems[0] : !problems[0] && !problems[i]));
    const samples = servers.map(() => []);
    const load = (i, duration) => runLoad({ url: servers[i].url, request: w.request, connections: ctx.s.connections, duration, cpu: ctx.cpus?.load });
    const order = servers.map((_, i) => i).filter((i) => live[i]);
    if (order.length > 1) {
      for (const i of order) await load(i, ctx.s.warmup);
      for (let r = 0; r < ctx.s.rounds; r += 1) {
        // A B C D, then D C B A: no server always goes first.
        for (const i of r % 2 === 0 ? order : [...order].reverse()) {
          const result = await load(i, ctx.s.duration);
          if (result.non2xx || result.errors || result.timeouts) {
            console.warn(`  ! ${w.id} ${servers[i].label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
          }
          samples[i].push(result.rps);
        }
      }
    }
    return specs.slice(1).map((s, k) => {
      const i = k + 1;
      const base = { workload: w.id, title: w.title, peer: s.kind, peerLabel: label(s), scaling: w.scaling };
      if (!live[i]) {
        const why = rowsFailed(i);
        const who = problems[0] ? 'service' : servers[i].label;
        const hint = w.graphql && problems[0] && /HTTP 404/.test(problems[0]) ? 'GraphQL is not mounted in the service yet (404 at /graphql)' : `${who} answered ${why}`;
        return { ...base, failed: hint };
      }
      const ratios = samples[0].map((v, r) => v / samples[i][r]);
      return { ...base, ratio: summary(ratios), subjectRps: summary(samples[0]), peerRps: summary(samples[i]) };
    });
  } finally {
    await Promise.all(servers.map((srv) => srv.stop()));
  }
}

async function measureMemory(ctx, graphql) {
  const server = await startServer('service', { seedFile: ctx.seedFiles[100], cpu: ctx.cpus?.server });
  try {
    const mix = { url: server.url, mix: 'mixed', graphql, connections: ctx.s.connections, cpu: ctx.cpus?.load };
    await runLoad({ ...mix, duration: ctx.s.memoryWarmup });
    await sleep(2000);
    const idleBytes = server.rssBytes();
    let peakBytes = idleBytes;
    const poll = setInterval(() => (peakBytes = Math.max(peakBytes, server.rssBytes())), 500);
    const result = await runLoad({ ...mix, duration: ctx.s.memorySeconds }).finally(() => clearInterval(poll));
    await sleep(2000);
    const afterBytes = server.rssBytes();
    return {
      idleBytes, afterBytes, peakBytes, growth: afterBytes / idleBytes, warmupSeconds: ctx.s.memoryWarmup, loadSeconds: ctx.s.memorySeconds,
      totalRequests: result.total,
      mix: `GET /books/42, GET /books, GET /books?limit=10&offset=20, POST /books then DELETE it, PUT /tasks/1, GET /books/abc (400)${graphql ? ', GraphQL users→posts→comments' : ''}`,
    };
  } finally {
    await server.stop();
  }
}

/** Writes BENCHMARKS.md, or only replaces (or inserts before "## Scaling") its contract-first section. */
function writeBenchmarks(results, sectionOnly) {
  const file = path.join(ROOT, 'BENCHMARKS.md');
  if (!sectionOnly) return writeFileSync(file, render(results));
  const text = readFileSync(file, 'utf8');
  const section = `${contractFirstSection(results)}\n\n`;
  const start = text.indexOf('## Contract-first peers');
  const end = start < 0 ? text.indexOf('## Scaling') : text.indexOf('\n## ', start + 1) + 1;
  if (end <= 0) throw new Error('BENCHMARKS.md has no "## Scaling" heading to put the section before');
  writeFileSync(file, text.slice(0, start < 0 ? end : start) + section + text.slice(end));
}

async function main() {
  const s = parseArgs(process.argv.slice(2));
  if (s.render) {
    writeBenchmarks(JSON.parse(readFileSync(s.render, 'utf8')), s.sectionOnly);
    return console.log(`BENCHMARKS.md ${s.sectionOnly ? 'section "Contract-first peers"' : ''} regenerated from ${s.render}`);
  }
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'server.js'))) throw new Error('dist/src/server.js is missing: run `npm run build` first');
  const workloads = WORKLOADS.filter((w) => !s.only || s.only.includes(w.id));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const profiled = s.profile ? WORKLOADS.filter((w) => s.profileIds.includes(w.id)) : [];
  const seeds = new Set([...workloads, ...profiled].flatMap((w) => [w.subject.seed, ...w.peers.map((p) => peerSpec(w, p).seed)]).concat(100));
  const seedFiles = Object.fromEntries([...seeds].map((n) => [n, seedFile(tmp, n)]));
  const cpus = pinning(os.cpus().length);
  const loadStart = os.loadavg().map((v) => v.toFixed(2)).join(' ');
  const ctx = { s, tmp, seedFiles, cpus };
  console.log(`bench: ${s.mode} mode, ${s.rounds} rounds × ${s.duration} s, ${s.connections} connections, ${cpus ? `server on CPU ${cpus.server}, load on CPU ${cpus.load}` : 'not pinned'}; temp dir ${tmp}`);

  const rows = [];
  for (const w of workloads) {
    const wrows = await measureWorkload(w, ctx).catch((e) => w.peers.map((p) => ({ workload: w.id, title: w.title, peer: peerSpec(w, p).kind, peerLabel: String(p.kind ?? p), scaling: w.scaling, failed: e.message })));
    for (const r of wrows) {
      rows.push(r);
      if (r.failed) console.log(`${r.title} vs ${r.peerLabel}: not measured (${r.failed})`);
      else {
        const t = check(r);
        console.log(`${r.title} vs ${r.peerLabel}: ${r.ratio.median.toFixed(2)}× (min ${r.ratio.min.toFixed(2)}, max ${r.ratio.max.toFixed(2)}), ${Math.round(r.subjectRps.median)} vs ${Math.round(r.peerRps.median)} req/s; target ${t.text}${t.met === undefined ? '' : t.met ? ' met' : ' NOT met'}`);
      }
    }
  }

  const graphqlLive = rows.some((r) => r.workload.startsWith('gql') && !r.failed);
  let memory;
  if (s.memory) {
    memory = await measureMemory(ctx, graphqlLive).catch((e) => ({ failed: e.message }));
    console.log(memory.failed ? `memory: not measured (${memory.failed})` : `memory: RSS ${(memory.idleBytes / 2 ** 20).toFixed(1)} MB after warm-up, ${(memory.afterBytes / 2 ** 20).toFixed(1)} MB after ${s.memorySeconds} s mixed load: ${memory.growth.toFixed(2)}× (target ≤ 1.2×)`);
  }

  const profiles = [];
  if (s.profile) {
    for (const id of s.profileIds) {
      const w = WORKLOADS.find((x) => x.id === id);
      if (!w) throw new Error(`--profile: no workload ${id}`);
      for (const kind of s.profileKinds) {
        if (!KINDS[kind]) throw new Error(`--profile-peers: no server kind ${kind}`);
        const title = kind === 'service' ? w.title : `${w.title}, ${KINDS[kind].label}`;
        try {
          const p = await profileWorkload(w, { tmp, seedFiles, cpus, connections: s.connections, seconds: s.profileSeconds, warmup: s.warmup, kind });
          profiles.push({ title, file: p.file, skipMs: p.skipMs, summary: p.summary });
          console.log(`profile ${title}: ${p.file} (first ${p.skipMs} ms skipped)\n${formatSummary(p.summary, 8)}`);
        } catch (e) {
          profiles.push({ title, failed: e.message });
        }
      }
    }
  }

  const results = {
    finishedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    settings: { ...s, pinning: cpus ? `server on CPU ${cpus.server}, load generator on CPU ${cpus.load} (taskset)` : 'not pinned (taskset missing or one CPU)' },
    loadAverage: { start: loadStart, end: os.loadavg().map((v) => v.toFixed(2)).join(' ') },
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, node: process.version, os: `${os.type()} ${os.release()}` },
    versions: {
      'this service': require(path.join(ROOT, 'package.json')).version,
      express: version('express'), 'express-openapi-validator': version('express-openapi-validator'), 'json-server': version('json-server'),
      'graphql-yoga': version('graphql-yoga'), graphql: version('graphql'), 'graphql-http': version('graphql-http'), 'graphql-jit': version('graphql-jit'),
      '@envelop/graphql-jit': version('@envelop/graphql-jit'), autocannon: version('autocannon'),
      fastify: version('fastify'), 'fastify-openapi-glue': version('fastify-openapi-glue'), mercurius: version('mercurius'), '@fastify/helmet': version('@fastify/helmet'),
    },
    rows, memory, profiles,
  };
  writeFileSync(path.join(tmp, 'results.json'), JSON.stringify(results, null, 2));
  if (s.write) writeBenchmarks(results, s.sectionOnly);
  console.log(`results: ${path.join(tmp, 'results.json')}${s.write ? '; BENCHMARKS.md regenerated' : ''}`);
}

main().catch((e) => {
  console.error(`bench failed: ${e.message}`);
  process.exit(1);
});
