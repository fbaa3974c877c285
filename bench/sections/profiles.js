'use strict';
// Where the time goes: CPU profiles of the service (and of peers asked for) under the load of a few
// workloads, taken in this run and summed by bench/lib/cpuprofile.js.
const { KINDS } = require('../lib/servers');
const { formatSummary } = require('../lib/cpuprofile');
const { profileWorkload } = require('../lib/profile');
const { WORKLOADS } = require('../lib/workloads');
const { n0 } = require('../lib/pairs');

const pct = (v) => `${(v * 100).toFixed(1)}%`;

function profileTables(p) {
  const s = p.summary;
  return [
    `### ${p.title}`,
    '',
    `${n0(s.busyMs)} ms of busy CPU sampled (idle and the first ${n0(p.skipMs)} ms, start-up and warm-up, left out).`,
    '',
    '| Self time | Function (area:line) |',
    '|---|---|',
    ...s.functions.slice(0, 12).map((f) => `| ${pct(f.share)} | \`${f.name}\` |`),
    '',
    '| On the stack | Self | Area |',
    '|---|---|---|',
    ...s.areasInclusive.slice(0, 12).map((a) => `| ${pct(a.share)} | ${pct(s.areasSelf.find((b) => b.name === a.name)?.share ?? 0)} | \`${a.name}\` |`),
  ].join('\n');
}

module.exports = {
  id: 'profiles',
  title: 'Where the time goes',
  async run(options, context) {
    if (!options.profile) return { skipped: 'not asked for (--no-profile)' };
    const profiles = [];
    for (const id of options.profileIds) {
      const w = WORKLOADS.find((x) => x.id === id);
      if (!w) throw new Error(`--profile: no workload ${id}`);
      for (const kind of options.profileKinds) {
        if (!KINDS[kind]) throw new Error(`--profile-peers: no server kind ${kind}`);
        const title = kind === 'service' ? w.title : `${w.title}, ${KINDS[kind].label}`;
        try {
          const p = await profileWorkload(w, { seedFile: context.seedFile(w.subject.seed), tmp: context.tmp, cpus: context.cpus, connections: options.connections, seconds: options.profileSeconds, warmup: options.warmup, kind });
          profiles.push({ title, seconds: options.profileSeconds, skipMs: p.skipMs, summary: p.summary });
          context.log(`profile ${title}: ${p.file}\n${formatSummary(p.summary, 8)}`);
        } catch (e) {
          profiles.push({ title, failed: e.message });
        }
      }
    }
    return { profiles };
  },
  render({ profiles }) {
    const intro = `\`node --cpu-prof\` on the server under one workload's load (${profiles[0]?.seconds ?? '?'} s after a warm-up), summed by
\`bench/lib/cpuprofile.js\` (\`node bench/cpuprofile-top.js FILE\` prints the same for any profile). Shares are of busy
CPU. *Self time* is time in the function itself; an *area* (an npm package, a file of this service, a part of Node) is
*on the stack* when any of its functions is, so those shares overlap. Time no function carries, such as a request
object that lost V8's fast properties, shows here only as a little more everywhere: \`node bench/compare.js\`, which
measures two builds against each other, is how such costs are found (see docs/maintainers/design.md).`;
    return [intro, ...profiles.map((p) => (p.failed ? `### ${p.title}\n\nNot profiled: ${p.failed}` : profileTables(p)))].join('\n\n');
  },
};
