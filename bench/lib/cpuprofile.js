'use strict';
// Sums a V8 .cpuprofile: self time per function, and self and inclusive time per "area"
// (an npm package, a file of this service, node internals, GC, idle).
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');

function area(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native/V8)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/').slice(0, 2).join('/');
  const file = url.replace(/^file:\/\//, '');
  // A file outside the project is named by its last two parts: a summary never carries a machine's paths.
  return file.startsWith(ROOT) ? path.relative(ROOT, file) : file.split('/').slice(-2).join('/');
}

/**
 * Calls `each(stack, dt)` for every sample taken from `skipMs` to `untilMs` after the profile began (start-up and
 * warm-up before, shutdown after, left out): `stack` its frames' nodes from the innermost out, `dt` the µs until the
 * next sample, which this one stands for.
 */
function eachSample(profile, { skipMs = 0, untilMs = Infinity }, each) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    elapsed += profile.timeDeltas[i];
    if (elapsed < skipMs * 1000 || elapsed > untilMs * 1000) return;
    const stack = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) stack.push(byId.get(cur));
    each(stack, profile.timeDeltas[i + 1] ?? 0);
  });
}

/** Over the samples from `skipMs` to `untilMs` after the profile began (start-up and warm-up before, shutdown after, left out). */
function summarise(profile, top = 25, skipMs = 0, untilMs = Infinity) {
  const self = new Map();
  const areaSelf = new Map();
  const areaIncl = new Map();
  let total = 0;
  let idle = 0;
  const add = (map, key, v) => map.set(key, (map.get(key) || 0) + v);
  eachSample(profile, { skipMs, untilMs }, (stack, dt) => {
    const { functionName, url, lineNumber } = stack[0].callFrame;
    if (functionName === '(idle)') {
      idle += dt;
      return;
    }
    total += dt;
    const a = area(url, functionName);
    add(self, `${functionName || '(anonymous)'} ${a}:${lineNumber + 1}`, dt);
    add(areaSelf, a, dt);
    const seen = new Set();
    for (const { callFrame: f } of stack) {
      if (f.functionName === '(root)') continue;
      seen.add(area(f.url, f.functionName));
    }
    for (const a2 of seen) add(areaIncl, a2, dt);
  });
  const rank = (map) => [...map.entries()].sort((x, y) => y[1] - x[1]).slice(0, top).map(([name, us]) => ({ name, ms: us / 1000, share: us / total }));
  return { busyMs: total / 1000, idleMs: idle / 1000, functions: rank(self), areasSelf: rank(areaSelf), areasInclusive: rank(areaIncl) };
}

function formatSummary(s, top = 15) {
  const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6);
  const lines = [`busy ${s.busyMs.toFixed(0)} ms, idle ${s.idleMs.toFixed(0)} ms`, 'self time by function:'];
  for (const f of s.functions.slice(0, top)) lines.push(`  ${pct(f.share)}  ${f.name}`);
  lines.push('self time by area:');
  for (const f of s.areasSelf.slice(0, top)) lines.push(`  ${pct(f.share)}  ${f.name}`);
  lines.push('inclusive time by area (area anywhere on the stack):');
  for (const f of s.areasInclusive.slice(0, top)) lines.push(`  ${pct(f.share)}  ${f.name}`);
  return lines.join('\n');
}

module.exports = { eachSample, summarise, formatSummary };
