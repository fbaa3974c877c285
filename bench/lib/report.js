'use strict';
// Renders BENCHMARKS.md whole from one run's results: bench/page-template.md, filled with the run, the
// machine and versions, and each section's own rendering (or why it did not run).
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { KINDS } = require('./servers');
const { LIMITS, loadVerdict, calibrationVerdict, calibrationBaseline, generatorVerdict, runVerdict, rowCaveat, relativeIqr } = require('./quality');
const { x, n0 } = require('./pairs');

/** The sections whose rows compare servers pairwise (bench/lib/pairs.js): the load generator's check covers them. */
const PAIR_SECTIONS = ['rest', 'graphql', 'scaling'];

/** The rows the page's headline gives: the service against the tuned Fastify and Mercurius peers. */
const HEADLINE = [
  { workload: 'get-book', peer: 'fastify-openapi-glue-tuned' },
  { workload: 'post-book', peer: 'fastify-openapi-glue-tuned' },
  { workload: 'gql-books', peer: 'mercurius-jit' },
  { workload: 'gql-nested', peer: 'mercurius-jit' },
];

/** The 1-minute figure of a load average as run.js keeps it ("1 5 15"). */
const oneMinute = (text) => Number(String(text).split(' ')[0]);

/**
 * How far a run's figures may be trusted (bench/lib/quality.js): `{ load, calibration, generator, baseline, verdict }`
 * (`baseline`: the start's calibration median, which every workload's samples of the calibration server are held to), from
 * what run.js saved; computed again whenever the page is rendered, so a change of the rules applies to saved results.
 */
function runQuality(results) {
  const { run } = results;
  const load = loadVerdict({ start: oneMinute(run.loadAverage.start), end: run.loadAverage.end === undefined ? undefined : oneMinute(run.loadAverage.end) }, run.machine.cores);
  const c = run.calibration;
  const calibration = c?.start?.length && c?.end?.length ? calibrationVerdict(c.start, c.end) : undefined;
  const rows = PAIR_SECTIONS.flatMap((id) => results.sections[id]?.rows ?? []);
  const baseline = calibrationBaseline(c?.start);
  const generator = baseline === undefined ? undefined : generatorVerdict(baseline, rows);
  return { load, calibration, generator, baseline, verdict: runVerdict({ load, calibration }) };
}

function qualityText(quality, run) {
  const { load, calibration, generator, verdict } = quality;
  const spread = (s) => `median ${n0(s.median)} req/s (${n0(s.min)}–${n0(s.max)}, ${s.n} samples)`;
  const lines = [
    `- Quiet machine: 1-minute load average ${oneMinute(run.loadAverage.start).toFixed(2)} at the start (limit ${load.limits.start.toFixed(2)}), ${run.loadAverage.end === undefined ? 'not read' : oneMinute(run.loadAverage.end).toFixed(2)} at the end (limit ${load.limits.end.toFixed(2)}): ${load.quiet ? 'yes' : '**no**'}`,
    calibration
      ? `- Calibration (node:http hello under the load generator): ${spread(calibration.start)} at the start, ${spread(calibration.end)} at the end, ${(calibration.drift * 100).toFixed(1)}% apart (limit ${LIMITS.calibrationDrift * 100}%): ${calibration.steady ? 'steady' : '**moved**'}`
      : '- Calibration: **not measured**',
  ];
  if (generator) {
    const capped = generator.capped.map((r) => `${r.workload} vs ${KINDS[r.peer]?.label ?? r.peer}`);
    lines.push(
      `- Load generator: ${n0(generator.ceiling)} req/s on bare node:http, the fastest server of the run ${n0(generator.fastest)} req/s: ${
        generator.limited
          ? `**the load generator is the limit** (under ${LIMITS.generatorHeadroom}× the fastest rate); it caps the rows where a server went past ${n0(generator.ceiling / LIMITS.generatorHeadroom)} req/s: ${capped.join(', ')}`
          : `at least ${LIMITS.generatorHeadroom}× the fastest rate, no row capped`
      }`,
    );
  }
  lines.push(verdict.headline ? '- Verdict: quiet and steady; a median in bold is a result.' : `- Verdict: **noisy run** (${verdict.reasons.join('; ')}): no headline, no median in bold.`);
  return lines.join('\n');
}

/** The rules of a trustworthy run, for "How to read it", from bench/lib/quality.js's limits. */
function limitsText() {
  const pct = (v) => `${v * 100}%`;
  return [
    `- **When a figure is a result.** A run checks the machine before and after: its 1-minute load average must be at most
  ${LIMITS.quietLoadPerCore} per core at the start (0.5 on 2 cores: a process busy half the time anywhere takes a quarter of one of
  the two cores the bench pins itself to), and the same at the end. Each is read once the average has had up to
  ${LIMITS.settleSeconds} s to fall back (it falls by e every minute): at the start from the build \`npm run bench\` makes first,
  at the end from the bench's own servers and load. After each of those readings it measures a calibration: bare \`node:http\`
  answering a fixed line, under the same load generator, cores and connections as every workload, so it moves with
  whatever moves the measurements (another process on either core, the CPU's clock, the loopback, the load generator)
  where a CPU loop would see only its own core. If the two calibration medians are more than ${pct(LIMITS.calibrationDrift)} apart, or the
  load average was over its limit, the page says **the run was noisy**, gives no headline and puts no median in bold.`,
    `- **Noisy rows.** The calibration server is also measured in every round of every workload, beside the servers
  compared: the host's speed while that workload ran. A row is noisy when its ratios' IQR is wider than
  ${pct(LIMITS.rowIqr)} of their median, or when one of those samples is more than ${pct(LIMITS.calibrationDrift)} away from the calibration's median at
  the start (the machine slowed or sped up under that workload, which a quiet start and end do not show). A noisy
  row is measured again (\`--reruns\`, 2 by default), the new row replacing the old; a row still noisy is marked so,
  with why, and its median is not in bold.`,
    `- **The load generator's limit.** The calibration's start figure is also the fastest rate the load generator can
  show at all. If it is under ${LIMITS.generatorHeadroom}× the fastest server's rate in the run, the page says the load generator is the
  limit and names the rows where a server went past half its ceiling: those rows are marked "capped", since their
  rates say as much about the load generator as about the servers.`,
    `- **What each server does per request** (log line, request id, security headers, validation, serialisation) is in a
  table under each comparison, with whether the run saw it do so when sent one request.`,
    `- The options are listed by \`node bench/run.js --help\`: \`--quick\` is a smoke run (1 s samples, 2 rounds, 1 rerun, 2
  calibration samples) whose page is never a result to commit.`,
  ].join('\n');
}

/** The headline: the rows of HEADLINE with their spread, or why this run gives none. */
function headlineText(results, quality) {
  if (!quality.verdict.headline) {
    return `**No headline: this run was noisy**: ${quality.verdict.reasons.join('; ')}. The tables below are what it measured, for reference only; measure again on a quiet machine.`;
  }
  const rows = PAIR_SECTIONS.flatMap((id) => results.sections[id]?.rows ?? []);
  const out = ['| Workload | Peer | Median ratio (service / peer) | Spread min–max | IQR |', '|---|---|---|---|---|'];
  for (const h of HEADLINE) {
    const r = rows.find((row) => row.workload === h.workload && row.peer === h.peer);
    if (!r) out.push(`| ${h.workload} | ${KINDS[h.peer].label} | not in this run | | |`);
    else if (r.failed) out.push(`| ${r.title} | ${r.peerLabel} | not measured | | |`);
    else {
      const caveat = rowCaveat(r, quality);
      out.push(`| ${r.title} | ${r.peerLabel} | ${caveat ? `no figure (${caveat}): ${x(r.ratio.median)}` : `**${x(r.ratio.median)}**`} | ${x(r.ratio.min)} – ${x(r.ratio.max)} | ${x(r.ratio.q1)} – ${x(r.ratio.q3)} (${(relativeIqr(r.ratio) * 100).toFixed(0)}%) |`);
    }
  }
  return out.join('\n');
}

const TEMPLATE = path.join(__dirname, '..', 'page-template.md');

function runText(run) {
  const o = run.options;
  return [
    `- Command: \`${run.command}\``,
    `- Code: commit \`${run.code.commit}\`${run.code.changed ? ', with uncommitted changes to the code measured' : ''}; \`npm run build\` before the run`,
    `- Mode: ${o.mode}: ${o.rounds} rounds × ${o.duration} s per server and workload, after a ${o.warmup} s warm-up each; ${o.connections} connections`,
    `- Pinning: ${run.pinning}`,
    `- Started ${run.startedAt}, finished ${run.finishedAt}; load average (1, 5, 15 min) ${run.loadAverage.start} at the start, ${run.loadAverage.end} at the end`,
  ].join('\n');
}

/** The load generator of a run's plain requests (bench/lib/measure.js); runs saved before wrk was an option used autocannon. */
function generatorName(run) {
  const autocannon = `autocannon ${run.versions.packages.autocannon}`;
  if (run.loadGenerator?.name !== 'wrk') return autocannon;
  return `${run.loadGenerator.version} (one thread) for every single request; ${autocannon} for the request mixes and conditional writes`;
}

function machineText(run) {
  const m = run.machine;
  const v = run.versions;
  const service = KINDS.service.packages.map((p) => `${p} ${v.packages[p]}`).join(', ');
  return [
    `- CPU: ${m.cpu}, ${m.cores} cores (${m.arch}); memory ${(m.memoryBytes / 1024 ** 3).toFixed(1)} GiB`,
    `- OS: ${m.os}`,
    `- Node ${v.node}`,
    `- This service ${v.service} (${service})`,
    `- Load generator: ${generatorName(run)}, one request in flight per connection`,
    '- Each peer\'s packages and versions are listed under the table it appears in.',
  ].join('\n');
}

/**
 * The page. `sections` are the section modules in page order; `results` is what bench/run.js saved:
 * `{ run, sections: { [id]: results } }`, a section's results being `{ skipped }` when it did not run.
 */
function renderPage(sections, results) {
  // An optional section that was not asked for is left out of the page, and does not make it partial.
  sections = sections.filter((s) => !(s.optional && isLeftOut(results.sections[s.id])));
  const skipped = sections.filter((s) => !results.sections[s.id] || results.sections[s.id].skipped);
  const failedRows = sections.flatMap((s) => results.sections[s.id]?.rows?.filter((r) => r.failed) ?? []);
  const o = results.run.options;
  const partial = [
    ...(o.only ? [`only the workloads ${o.only.join(', ')} (--only)`] : []),
    ...(o.peers ? [`only the peers ${o.peers.join(', ')} (--peers)`] : []),
    ...skipped.map((s) => `"${s.title}" not run: ${results.sections[s.id]?.skipped ?? 'not in this run'}`),
    ...(failedRows.length ? [`${failedRows.length} row(s) not measured (see their tables)`] : []),
  ];
  const quality = runQuality(results);
  const body = sections.map((s) => {
    const r = results.sections[s.id];
    return `## ${s.title}\n\n${!r || r.skipped ? `_Not run: ${r?.skipped ?? 'this section was not in the run'}._` : s.render(r, quality).trim()}`;
  });
  const fill = {
    headline: headlineText(results, quality),
    quality: qualityText(quality, results.run),
    limits: limitsText(),
    partial: partial.length ? `\n**This run is partial**: ${partial.join('; ')}. Regenerate the page with a full \`npm run bench\`.\n` : '',
    run: runText(results.run),
    machine: machineText(results.run),
    sections: body.join('\n\n'),
  };
  return readFileSync(TEMPLATE, 'utf8')
    .replace(/\{\{(\w+)\}\}/g, (_, name) => fill[name])
    .replace(/\n{3,}/g, '\n\n');
}

/** Whether every section ran and every row was measured (a page worth committing). */
/** An optional section's results when it was not asked for (or an older run that did not know it). */
const isLeftOut = (section) => !section || (section.skipped && !section.skipped.startsWith('failed'));

const isComplete = (sections, results) =>
  !results.run.options.only &&
  !results.run.options.peers &&
  sections
    .filter((s) => !(s.optional && isLeftOut(results.sections[s.id])))
    .every((s) => results.sections[s.id] && !results.sections[s.id].skipped && !results.sections[s.id].rows?.some((r) => r.failed));

module.exports = { renderPage, isComplete, runQuality, HEADLINE };
