'use strict';
// node bench/execution.js A B [--only=gql-nested,gql-books] [--rounds=N] [--json]
// The GraphQL workloads' execution in-process, without HTTP: each round runs
// bench/lib/execution-probe.js for build A and build B (alternating which goes first, each in a fresh
// process pinned to one core) and reports the median A/B ratio of µs of CPU per run, the medians and the fastest. Builds are
// as for bench/compare.js (a folder with dist/src, or a git revision). Where a change touches only the
// store, the loaders or the resolvers, this sees it through the noise that HTTP adds to compare.js's
// req/s; compare.js still says what it buys a client. --json adds the serialisation of the answer.
const { execFileSync } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildDist, removeWorktrees } = require('./lib/builds');
const { flagsOf } = require('./lib/flags');
const { seedFile } = require('./lib/seed');
const { pinnedCommand, pinning } = require('./lib/servers');
const { summary } = require('./lib/stats');
const { WORKLOADS } = require('./lib/workloads');

function parse(argv) {
  const positional = argv.filter((a) => !a.startsWith('--'));
  const flags = flagsOf(argv);
  if (positional.length !== 2 || 'help' in flags) {
    console.log('usage: node bench/execution.js A B [--only=gql-nested,gql-books] [--rounds=8] [--json]');
    process.exit(positional.length === 2 ? 0 : 2);
  }
  return { builds: positional, only: (flags.only ?? 'gql-nested,gql-books').split(','), rounds: Number(flags.rounds ?? 8), json: 'json' in flags };
}

function probe(dist, seed, query, json, cpu) {
  const args = [path.join(__dirname, 'lib', 'execution-probe.js'), dist, seed, query, json ? '1' : '0'];
  const [command, commandArgs] = pinnedCommand(cpu, process.execPath, args);
  return JSON.parse(execFileSync(command, commandArgs, { encoding: 'utf8' })).us;
}

function main() {
  const o = parse(process.argv.slice(2));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-execution-'));
  const cpu = pinning(os.cpus().length)?.server;
  const dists = o.builds.map((b) => buildDist(b, tmp));
  console.log(`execution: A=${o.builds[0]} B=${o.builds[1]}, ${o.rounds} rounds${o.json ? ', with serialisation' : ''}, ${cpu === undefined ? 'not pinned' : `pinned to CPU ${cpu}`}`);
  for (const id of o.only) {
    const w = WORKLOADS.find((x) => x.id === id);
    if (!w?.graphql) throw new Error(`no GraphQL workload ${id}`);
    const seed = seedFile(tmp, w.subject.seed);
    const { query } = JSON.parse(w.request.body);
    const us = [[], []];
    for (let r = 0; r < o.rounds; r += 1) {
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) us[i].push(probe(dists[i], seed, query, o.json, cpu));
    }
    const ratio = summary(us[0].map((a, r) => a / us[1][r]));
    console.log(
      `${w.title}: A/B CPU per run ${ratio.median.toFixed(2)}× (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)}); ` +
        `µs of CPU per run, median A ${summary(us[0]).median.toFixed(1)}, B ${summary(us[1]).median.toFixed(1)}; ` +
        `fastest A ${summary(us[0]).min.toFixed(1)}, B ${summary(us[1]).min.toFixed(1)}`,
    );
  }
}

try {
  main();
} catch (e) {
  console.error(`execution failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  removeWorktrees();
}
