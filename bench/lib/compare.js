'use strict';
// Two builds of this service measured against each other, workload by workload: A and B alternately (A B,
// B A, ...) on the same pinned core, after a warm-up of each. Used by bench/compare.js (printed) and by the
// "Before and after" section of bench/run.js (on the page).
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { buildDist } = require('./builds');
const { startServer } = require('./servers');
const { runLoad, probe } = require('./measure');
const { seedFile } = require('./seed');
const { summary } = require('./stats');
const { WORKLOADS, REFUSALS } = require('./workloads');

/** User + system CPU time of a process so far, in ms (from /proc, clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Measures `builds` ([A, B]: build folders or git revisions, see ./builds.js) on the workloads `only` names,
 * each started with `env` and its own of `envs` (a SQLite file of its own in any case).
 * One row per workload: B/A req/s and A/B server CPU time per request (each a summary of the per-round
 * ratios), and each build's median req/s and CPU µs per request. `onRow` sees each row as it is measured.
 */
async function compareBuilds({ builds, only, rounds, duration, connections = 16, warmup = 2, env = {}, envs = [{}, {}] }, { tmp, cpus, onRow = () => undefined }) {
  const scripts = builds.map((b) => path.join(buildDist(b, tmp), 'server.js'));
  const rows = [];
  for (const id of only) {
    const w = [...WORKLOADS, ...REFUSALS].find((x) => x.id === id);
    if (!w) throw new Error(`no workload ${id}`);
    const seed = seedFile(tmp, w.subject.seed);
    const servers = [];
    try {
      for (const [i, script] of scripts.entries()) {
        // Each build on a file of its own (with STORE=sqlite: one process per file), new for each workload.
        const own = { SQLITE_FILE: path.join(tmp, `${w.id}-${'AB'[i]}.sqlite`), ...env, ...envs[i] };
        servers.push(await startServer('service', { seedFile: seed, cpu: cpus?.server, script, label: 'AB'[i], extraEnv: own }));
      }
      for (const srv of servers) {
        const problem = await probe(srv.url, w.request, undefined, w.status);
        if (problem) throw new Error(`${srv.label}: ${problem}`);
        await runLoad({ url: srv.url, request: w.request, connections, duration: warmup, cpu: cpus?.load });
      }
      const rps = [[], []];
      const cpu = [[], []];
      for (let r = 0; r < rounds; r += 1) {
        for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
          const before = cpuMs(servers[i].pid);
          const result = await runLoad({ url: servers[i].url, request: w.request, connections, duration, cpu: cpus?.load });
          // A refusal's rate is of its refusals: every answer must be one (probe checked the status, wrk counts the others).
          if (w.status && result.non2xx !== result.total) throw new Error(`${servers[i].label}: ${result.total - result.non2xx} of ${result.total} answers were not refusals`);
          rps[i].push(w.status ? result.total / duration : result.rps);
          cpu[i].push(((cpuMs(servers[i].pid) - before) * 1000) / result.total);
        }
      }
      const row = {
        workload: w.id,
        title: w.title,
        ratio: summary(rps[1].map((v, r) => v / rps[0][r])),
        cpuRatio: summary(cpu[0].map((v, r) => v / cpu[1][r])),
        rps: rps.map((values) => summary(values).median),
        cpuUs: cpu.map((values) => summary(values).median),
      };
      rows.push(row);
      onRow(row);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
  return rows;
}

module.exports = { compareBuilds };
