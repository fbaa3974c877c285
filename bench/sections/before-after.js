'use strict';
// Benchmark section: this build against an earlier revision of the service (`--baseline=REV`), on the REST and
// GraphQL workloads, with bench/lib/compare.js. Optional: without a baseline it does not run, and the page is
// still complete.
const { execFileSync } = require('node:child_process');
const { ROOT } = require('../lib/servers');
const { compareBuilds } = require('../lib/compare');
const { x, n0 } = require('../lib/pairs');

const WORKLOAD_IDS = ['get-book', 'list-books-page-50', 'list-books-100', 'list-books-10k', 'post-book', 'put-task', 'gql-books', 'gql-nested'];

/** The full commit and its subject line, for the page. */
function described(revision) {
  const [commit, ...subject] = execFileSync('git', ['-C', ROOT, 'log', '-1', '--format=%H %s', revision], { encoding: 'utf8' }).trim().split(' ');
  return { commit, subject: subject.join(' ') };
}

module.exports = {
  id: 'before-after',
  title: 'Before and after: this build against a baseline revision',
  optional: true,
  async run(options, context) {
    if (!options.baseline) return { skipped: 'no baseline revision given (`--baseline=REV`)' };
    const only = WORKLOAD_IDS.filter((id) => !options.only || options.only.includes(id));
    if (!only.length) return { skipped: `none of its workloads (${WORKLOAD_IDS.join(', ')}) was selected` };
    const baseline = { revision: options.baseline, ...described(options.baseline) };
    const rows = await compareBuilds(
      { builds: [options.baseline, ROOT], only, rounds: options.rounds, duration: options.duration, connections: options.connections, warmup: options.warmup, env: { STORE: 'memory' } },
      { tmp: context.tmp, cpus: context.cpus, onRow: (row) => context.log(`   ${row.title}: ${x(row.ratio.median)}`) },
    );
    return { baseline, rows };
  },
  render({ baseline, rows }) {
    const table = [
      '| Workload | req/s, this build / baseline (median) | Spread | Server CPU per request, baseline / this build | Baseline req/s | This build req/s |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.title} | **${x(r.ratio.median)}** | ${x(r.ratio.min)} – ${x(r.ratio.max)} | ${x(r.cpuRatio.median)} (${n0(r.cpuUs[0])} → ${n0(r.cpuUs[1])} µs) | ${n0(r.rps[0])} | ${n0(r.rps[1])} |`,
      ),
    ];
    return `The baseline is revision \`${baseline.revision}\` (commit \`${baseline.commit.slice(0, 12)}\`, "${baseline.subject.replace(/\|/g, '\\|')}"),
checked out into a temporary worktree and built with this checkout's \`node_modules\`; this build is the one measured in
the other sections. Both run on the in-memory store (\`STORE=memory\`), in alternating rounds on the same pinned core,
as \`node bench/compare.js ${baseline.revision} . --only=${rows.map((r) => r.workload).join(',')}\` measures them. A ratio
above 1× means this build served more requests per second; the CPU column is the server's user and system time per
request, from \`/proc\`.

${table.join('\n')}`;
  },
};
