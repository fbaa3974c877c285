'use strict';
// The stores section's markdown, from its results alone (so a saved run can be rendered again).
const { summary } = require('../stats');

const fixed = (v, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
const rps = (values) => (values?.length ? Math.round(summary(values).median).toLocaleString('en-US') : '—');
/** Per-round ratios a/b, summarised. */
const ratios = (a, b) => (a?.length && b?.length ? summary(a.map((v, i) => v / b[i])) : undefined);
const ratioCell = (r) => (r ? `${fixed(r.median)}× (${fixed(r.min)}–${fixed(r.max)})` : '—');
const met = (r, min) => (min === undefined ? '—' : `≥ ${min.toFixed(1)}×${r ? (r.median >= min ? ' met' : ' **not met**') : ''}`);

function peerTable(results) {
  const lines = [
    '| Workload | Peer | this service / peer: median (min–max over rounds) | this service req/s | peer req/s | target |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const w of results.workloads) {
    if (w.failed) {
      lines.push(`| ${w.title} | ${w.peerLabel} | not measured: ${w.failed.replace(/\|/g, '\\|')} | | | |`);
      continue;
    }
    const { postgres, peer } = w.subjects;
    const r = ratios(postgres.rps, peer.rps);
    lines.push(`| ${w.title} | ${w.peerLabel} | ${ratioCell(r)} | ${rps(postgres.rps)} | ${rps(peer.rps)} | ${met(r, w.peerTarget)} |`);
  }
  return lines.join('\n');
}

function storeTable(results) {
  const stores = results.stores;
  const lines = [
    '| Workload | memory req/s | SQLite req/s | PostgreSQL req/s | memory / PostgreSQL | SQLite / PostgreSQL | SQLite / memory | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const w of results.workloads.filter((x) => x.stores)) {
    if (w.failed) {
      lines.push(`| ${w.title} | not measured: ${w.failed.replace(/\|/g, '\\|')} | | | | | | |`);
      continue;
    }
    const { memory, sqlite, postgres } = w.subjects;
    const target = w.storeTarget;
    const targetRatio = target && ratios(sqlite?.rps, w.subjects[target.store]?.rps);
    const targetText = target ? `SQLite / ${target.store === 'memory' ? 'memory' : 'PostgreSQL'} ${met(targetRatio, target.min)}` : '—';
    lines.push(
      `| ${w.title} | ${rps(memory?.rps)} | ${rps(sqlite?.rps)} | ${rps(postgres.rps)} | ${ratioCell(ratios(memory?.rps, postgres.rps))} | ` +
        `${ratioCell(ratios(sqlite?.rps, postgres.rps))} | ${ratioCell(ratios(sqlite?.rps, memory?.rps))} | ${targetText} |`,
    );
  }
  const notes = Object.entries(stores).filter(([, v]) => !v.ok).map(([k, v]) => `- ${k}: not measured: ${v.note}`);
  return [lines.join('\n'), ...(notes.length ? ['', ...notes] : [])].join('\n') + '\n';
}

function problems(results) {
  const found = results.workloads.flatMap((w) =>
    Object.values(w.subjects ?? {}).flatMap((x) => x.problems.map((p) => `- ${w.title}, ${x.label}: ${p}`)),
  );
  return found.length ? `\nRequests that did not succeed (req/s counts 2xx answers only):\n\n${found.join('\n')}\n` : '';
}

/** The section; `quality` (bench/lib/report.js, runQuality), when given, says whether the run's figures are results. */
function render(results, quality) {
  if (results.skipped) return `## ${results.title}\n\nNot measured in this run: ${results.skipped}\n`;
  const noisy = quality && !quality.verdict.headline ? '**This run was noisy** (see "The run"): the figures below, and whether a target is met, are for reference only.\n\n' : '';
  const { settings: s, machine: m, postgres: pg, versions: v, how, seed } = results;
  return `## ${results.title}

This service on PostgreSQL against the two servers that make an API of a PostgreSQL schema with no
code, PostgREST (REST) and PostGraphile (GraphQL), on the same rows; then the same service on each of
its stores. A ratio above 1 means this service answered more requests per second.

${noisy}${peerTable(results)}

### The service's stores

${storeTable(results)}${problems(results)}
### How this was measured

- Command: \`${results.command}\` (${s.mode}: ${s.rounds} rounds × ${s.duration} s per server, ${s.warmup} s warm-up each,
  ${s.connections} connections).
- For each workload: fresh copies of the service's and the peers' databases, every server started anew,
  their answers compared (the same data, ids compared as text), a warm-up, then rounds in which each
  server is measured in turn, the order reversed every other round. The ratio is taken per round (one
  server against the other, measured minutes apart at most), then the median and the range over rounds.
- Load: ${results.loadGenerator?.name === 'wrk' ? `${results.loadGenerator.version} (one thread), and autocannon ${v.autocannon} for \`PUT /tasks/{id}\` (its conditional writes need state per request),` : `autocannon ${v.autocannon}`} in its own process, ${s.pinning}; req/s counts 2xx answers.
- \`PUT /tasks/{id}\`: every request is a successful conditional write. ${seed.tasks} tasks are shared out
  so that no two requests in flight hold the same one; each request flips its task's \`done\`, on this
  service with the task's current ETag in \`If-Match\` (taken from the previous answer), on PostgREST
  (which has no ETags) as \`PATCH /tasks?id=eq.N&done=is.<as last seen>\`, a write conditioned on the
  state it expects (a condition that fails matches no row, which the single-object \`Accept\` turns into a 406).
- Data: ${seed.books} books, ${seed.tasks} tasks, ${seed.users} users with ${seed.posts} posts and ${seed.comments} comments, the
  same rows in the service's database (loaded by the service from its seed file) and in the peers' (schema \`api\`,
  with foreign keys from posts to users and comments to posts, and the service's indexes on them).
- PostgreSQL ${pg.version}: a throwaway cluster made by \`scripts/with-postgres.sh\`, its settings at their defaults
  (${Object.entries(pg.settings).filter(([k]) => k !== 'server_version').map(([k, val]) => `${k} ${val}`).join(', ')}),
  pinned with the servers.
- This service ${v.service}: ${how.service}
- ${v.postgrest}: ${how.postgrest}
- ${v.postgraphile}: ${how.postgraphile}
- Machine: ${m.cpu}, ${m.cores} cores, ${m.memory}, ${m.os}, Node ${m.node}; load average ${results.loadAverage.start} at the start,
  ${results.loadAverage.end} at the end. Finished ${results.finishedAt}.
`;
}

module.exports = { render };
