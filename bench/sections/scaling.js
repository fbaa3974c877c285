'use strict';
// The service against itself on a larger collection: does a page cost the same whatever the collection's
// size, and does a whole list cost at most in proportion to its length?
const { measureAll, x, n0 } = require('../lib/pairs');
const { rowCaveat } = require('../lib/quality');
const { workloadsOf } = require('../lib/workloads');

/** What the design promises for a row, and whether this run's median keeps it (time per request, large / small). */
function expectation(row) {
  const timeRatio = 1 / row.ratio.median;
  if (row.scaling.expect === 'flat') return { text: 'flat: at most 1.2×', holds: timeRatio <= 1.2 };
  return { text: `at most linear: at most ${row.scaling.records}×`, holds: timeRatio <= row.scaling.records };
}

module.exports = {
  id: 'scaling',
  title: 'Scaling: the service against itself',
  async run(options, context) {
    const workloads = workloadsOf('scaling', options.only);
    if (!workloads.length) return { skipped: `none of its workloads (${workloadsOf('scaling').map((w) => w.id).join(', ')}) was selected` };
    const rows = await measureAll(workloads, options, context);
    return { rows: rows.map((r) => ({ ...r, scaling: workloads.find((w) => w.id === r.workload).scaling })) };
  },
  render({ rows }, quality) {
    const table = [
      '| Workload | Records, large / small | Time per request, large / small (median) | req/s ratio (spread) | Large req/s | Small req/s | Expected | Holds |',
      '|---|---|---|---|---|---|---|---|',
    ];
    for (const r of rows) {
      if (r.failed) {
        table.push(`| ${r.title} | ${r.scaling.records}× | not measured: ${r.failed.replace(/\|/g, '\\|')} | | | | | |`);
        continue;
      }
      const e = expectation(r);
      const caveat = quality && rowCaveat(r, quality);
      table.push(
        `| ${r.title} | ${r.scaling.records}× | ${caveat ? `${x(1 / r.ratio.median)} (${caveat})` : `**${x(1 / r.ratio.median)}**`} | ${x(r.ratio.median, 3)} (${x(r.ratio.min, 3)} – ${x(r.ratio.max, 3)}) | ${n0(r.subjectRps.median)} | ${n0(r.peerRps.median)} | ${e.text} | ${e.holds ? 'yes' : '**no**'} |`,
      );
    }
    return `Two instances of the service, one seeded with the large collection and one with the small, measured alternately.
A page (\`limit=50\`) is read from the store's ordered list without walking the rest, so its time should not grow with
the collection; a whole list is serialised record by record, so its time should grow at most in proportion.

${table.join('\n')}`;
  },
};
