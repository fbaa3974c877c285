'use strict';
// Renders BENCHMARKS.md whole from one run's results: bench/page-template.md, filled with the run, the
// machine and versions, and each section's own rendering (or why it did not run).
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { KINDS } = require('./servers');

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

function machineText(run) {
  const m = run.machine;
  const v = run.versions;
  const service = KINDS.service.packages.map((p) => `${p} ${v.packages[p]}`).join(', ');
  return [
    `- CPU: ${m.cpu}, ${m.cores} cores (${m.arch}); memory ${(m.memoryBytes / 1024 ** 3).toFixed(1)} GiB`,
    `- OS: ${m.os}`,
    `- Node ${v.node}`,
    `- This service ${v.service} (${service})`,
    `- Load generator: autocannon ${v.packages.autocannon}`,
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
  const body = sections.map((s) => {
    const r = results.sections[s.id];
    return `## ${s.title}\n\n${!r || r.skipped ? `_Not run: ${r?.skipped ?? 'this section was not in the run'}._` : s.render(r).trim()}`;
  });
  const fill = {
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

module.exports = { renderPage, isComplete };
