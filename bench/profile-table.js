'use strict';
// node bench/profile-table.js [--only=get-book,post-book,gql-books,gql-nested] [--rounds=2] [--seconds=6]
//   [--rest-peer=fastify-openapi-glue-tuned] [--graphql-peer=mercurius-jit]
// Where the time goes, side by side: each workload profiled (`node --cpu-prof`) on the service and on its tuned peer,
// in turn, under the same load (16 connections, 2 s of warm-up, then `seconds` profiled; server and load on separate
// cores when the machine has two), `rounds` times. Prints a markdown table of microseconds per request by concern
// (bench/lib/concerns.js), one figure per round in each cell: the table of docs/maintainers/design.md, "Where the
// time goes against the peers". Profile time includes the profiler's own and the time samples spent in system calls.
const { mkdtempSync, readFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { byConcern } = require('./lib/concerns');
const { flagsOf } = require('./lib/flags');
const { ensureInstalled } = require('./lib/install');
const { profileWorkload } = require('./lib/profile');
const { seedFile } = require('./lib/seed');
const { pinning } = require('./lib/servers');
const { WORKLOADS } = require('./lib/workloads');

function parse(argv) {
  const flags = flagsOf(argv);
  if ('help' in flags) {
    const lines = readFileSync(__filename, 'utf8').split('\n').slice(1);
    console.log(lines.slice(0, lines.findIndex((l) => !l.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  }
  return {
    only: (flags.only ?? 'get-book,post-book,gql-books,gql-nested').split(','),
    rounds: Number(flags.rounds ?? 2),
    seconds: Number(flags.seconds ?? 6),
    peers: { rest: flags['rest-peer'] ?? 'fastify-openapi-glue-tuned', graphql: flags['graphql-peer'] ?? 'mercurius-jit' },
  };
}

/** One profiled run of `kind` under workload `w` (seeded from `seed`): µs per request by concern, and the requests answered. */
async function profileOnce(w, kind, seed, { tmp, seconds, cpus }) {
  const p = await profileWorkload(w, { tmp, seedFile: seed, cpus, connections: 16, seconds, warmup: 2, kind });
  return { requests: p.requests, us: byConcern(p.profile, { skipMs: p.skipMs, untilMs: p.untilMs, requests: p.requests }) };
}

async function main() {
  const o = parse(process.argv.slice(2));
  ensureInstalled();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-profile-table-'));
  const cpus = pinning(os.cpus().length);
  const columns = [];
  for (const id of o.only) {
    const w = WORKLOADS.find((x) => x.id === id);
    if (!w) throw new Error(`no workload ${id}`);
    const peer = w.graphql ? o.peers.graphql : o.peers.rest;
    // One seed file per workload, written once: the service and its peer start from the same one in every round.
    const seed = seedFile(tmp, w.subject.seed);
    columns.push({ w, kind: 'service', seed, runs: [] }, { w, kind: peer, seed, runs: [] });
  }
  for (let round = 1; round <= o.rounds; round += 1) {
    for (const column of columns) {
      console.error(`round ${round}: ${column.w.id} on ${column.kind}`);
      column.runs.push(await profileOnce(column.w, column.kind, column.seed, { tmp, seconds: o.seconds, cpus }));
    }
  }
  const concerns = [...new Set(columns.flatMap((c) => c.runs.flatMap((r) => Object.keys(r.us))))];
  const largest = (concern) => Math.max(...columns.flatMap((c) => c.runs.map((r) => r.us[concern] ?? 0)));
  concerns.sort((a, b) => largest(b) - largest(a));
  const cell = (column, figure) => column.runs.map(figure).join(', ');
  const total = (r) => Object.values(r.us).reduce((sum, v) => sum + v, 0);
  console.log(`| µs per request | ${columns.map((c) => `${c.w.id}: ${c.kind}`).join(' | ')} |`);
  console.log(`|---|${columns.map(() => '---').join('|')}|`);
  console.log(`| requests in ${o.seconds} s | ${columns.map((c) => cell(c, (r) => r.requests)).join(' | ')} |`);
  console.log(`| profile total | ${columns.map((c) => cell(c, (r) => total(r).toFixed(0))).join(' | ')} |`);
  for (const concern of concerns) console.log(`| ${concern} | ${columns.map((c) => cell(c, (r) => (r.us[concern] ?? 0).toFixed(1))).join(' | ')} |`);
}

main().catch((e) => {
  console.error(`profile-table failed: ${e.message}`);
  process.exitCode = 1;
});
