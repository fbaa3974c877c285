'use strict';
// node bench/compare.js A B [--only=id,id] [--rounds=N] [--duration=S] [--env=NAME=VALUE,...] [--env-a=...] [--env-b=...]
// A and B are builds of this service: a folder holding dist/src/server.js (for example a git worktree of
// an older commit, built with `npx tsc -p tsconfig.build.json`) or a git revision, which is then checked
// out into a temporary worktree and built. Each workload runs A and B alternately (A B, B A, ...) on
// the same pinned core and reports the median B/A ratio of req/s and of server CPU time per request.
// This is how a change to the service is measured (docs/maintainers/design.md, "Speed tricks"); it never writes BENCHMARKS.md.
// --only takes the ids of bench/lib/workloads.js: WORKLOADS, and REFUSALS (refuse-unknown-path, refuse-unknown-id,
// refuse-bad-limit: requests the service refuses, each build's rate of refusals).
// --env sets the environment of both builds (STORE=sqlite: each on a SQLite file of its own, new per workload);
// --env-a and --env-b one build's (DATABASE_URL=...: each build on a database of its own).
const { mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { removeWorktrees } = require('./lib/builds');
const { compareBuilds } = require('./lib/compare');
const { flagsOf } = require('./lib/flags');
const { ensureInstalled } = require('./lib/install');
const { pinning } = require('./lib/servers');

function parse(argv) {
  const positional = argv.filter((a) => !a.startsWith('--'));
  const flags = flagsOf(argv);
  if (positional.length !== 2 || 'help' in flags) {
    console.log('usage: node bench/compare.js A B [--only=get-book,gql-nested] [--rounds=6] [--duration=5] [--env=NAME=VALUE,...]');
    process.exit(positional.length === 2 ? 0 : 2);
  }
  const envOf = (flag) => Object.fromEntries((flag ? flag.split(',') : []).map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
  const env = envOf(flags.env);
  return {
    builds: positional,
    only: (flags.only ?? 'get-book,post-book,gql-books,gql-nested').split(','),
    rounds: Number(flags.rounds ?? 6),
    duration: Number(flags.duration ?? 5),
    env,
    envs: [envOf(flags['env-a']), envOf(flags['env-b'])],
  };
}

const fmt = (s) => `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;

async function main() {
  const o = parse(process.argv.slice(2));
  ensureInstalled();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'));
  const cpus = pinning(os.cpus().length);
  console.log(`compare: A=${o.builds[0]} B=${o.builds[1]}, ${o.rounds} rounds × ${o.duration} s, ${cpus ? 'pinned' : 'not pinned'}${Object.keys(o.env).length ? `, env ${JSON.stringify(o.env)}` : ''}`);
  await compareBuilds(o, {
    tmp,
    cpus,
    onRow: (row) =>
      console.log(
        `${row.title}: B/A req/s ${fmt(row.ratio)}; A/B CPU per request ${fmt(row.cpuRatio)}; ` +
          `median req/s A ${Math.round(row.rps[0])}, B ${Math.round(row.rps[1])}; ` +
          `CPU µs/request A ${row.cpuUs[0].toFixed(0)}, B ${row.cpuUs[1].toFixed(0)}`,
      ),
  });
}

main()
  .catch((e) => {
    console.error(`compare failed: ${e.message}`);
    process.exitCode = 1;
  })
  .finally(removeWorktrees);
