'use strict';
// node bench/compare.js A B [--only=id,id] [--rounds=N] [--duration=S] [--env=NAME=VALUE,...]
// A and B are builds of this service: a folder holding dist/src/server.js (for example a git worktree of
// an older commit, built with `npx tsc -p tsconfig.build.json`) or a git revision, which is then checked
// out into a temporary worktree and built. Each workload runs A and B alternately (A B, B A, ...) on
// the same pinned core and reports the median B/A ratio of req/s and of server CPU time per request.
// This is how a change to the service is measured (docs/design.md, "Speed tricks"); it never writes BENCHMARKS.md.
const { mkdtempSync, readFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildDist, removeWorktrees } = require('./lib/builds');
const { pinning, startServer } = require('./lib/servers');
const { runLoad, probe } = require('./lib/measure');
const { seedFile } = require('./lib/seed');
const { summary } = require('./lib/stats');
const { WORKLOADS } = require('./lib/workloads');

function parse(argv) {
  const positional = argv.filter((a) => !a.startsWith('--'));
  const flags = Object.fromEntries(argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split(/=(.*)/s).slice(0, 2)));
  if (positional.length !== 2 || 'help' in flags) {
    console.log('usage: node bench/compare.js A B [--only=get-book,gql-nested] [--rounds=6] [--duration=5] [--env=NAME=VALUE,...]');
    process.exit(positional.length === 2 ? 0 : 2);
  }
  const env = Object.fromEntries((flags.env ? flags.env.split(',') : []).map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
  return {
    builds: positional,
    only: (flags.only ?? 'get-book,post-book,gql-books,gql-nested').split(','),
    rounds: Number(flags.rounds ?? 6),
    duration: Number(flags.duration ?? 5),
    env,
  };
}

/** User + system CPU time of a process so far, in ms (from /proc, clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  const o = parse(process.argv.slice(2));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'));
  const cpus = pinning(os.cpus().length);
  const scripts = o.builds.map((b) => path.join(buildDist(b, tmp), 'server.js'));
  console.log(`compare: A=${o.builds[0]} B=${o.builds[1]}, ${o.rounds} rounds × ${o.duration} s, ${cpus ? 'pinned' : 'not pinned'}${Object.keys(o.env).length ? `, env ${JSON.stringify(o.env)}` : ''}`);
  for (const id of o.only) {
    const w = WORKLOADS.find((x) => x.id === id);
    if (!w) throw new Error(`no workload ${id}`);
    const seed = seedFile(tmp, w.subject.seed);
    const servers = [];
    try {
      for (const [i, script] of scripts.entries()) {
        servers.push(await startServer('service', { seedFile: seed, cpu: cpus?.server, script, label: 'AB'[i], extraEnv: o.env }));
      }
      for (const srv of servers) {
        const problem = await probe(srv.url, w.request);
        if (problem) throw new Error(`${srv.label}: ${problem}`);
        await runLoad({ url: srv.url, request: w.request, connections: 16, duration: 2, cpu: cpus?.load });
      }
      const rps = [[], []];
      const cpu = [[], []];
      for (let r = 0; r < o.rounds; r += 1) {
        for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
          const before = cpuMs(servers[i].pid);
          const result = await runLoad({ url: servers[i].url, request: w.request, connections: 16, duration: o.duration, cpu: cpus?.load });
          rps[i].push(result.rps);
          cpu[i].push(((cpuMs(servers[i].pid) - before) * 1000) / result.total);
        }
      }
      const ratio = summary(rps[1].map((v, r) => v / rps[0][r]));
      const cpuRatio = summary(cpu[0].map((v, r) => v / cpu[1][r]));
      const fmt = (s) => `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
      console.log(
        `${w.title}: B/A req/s ${fmt(ratio)}; A/B CPU per request ${fmt(cpuRatio)}; ` +
          `median req/s A ${Math.round(summary(rps[0]).median)}, B ${Math.round(summary(rps[1]).median)}; ` +
          `CPU µs/request A ${summary(cpu[0]).median.toFixed(0)}, B ${summary(cpu[1]).median.toFixed(0)}`,
      );
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
}

main()
  .catch((e) => {
    console.error(`compare failed: ${e.message}`);
    process.exitCode = 1;
  })
  .finally(removeWorktrees);
