'use strict';
// One workload measured against its peers: every server started fresh, each checked with one request,
// then measured in alternating rounds (A B C, C B A, ...), and the per-round ratios summarised. Shared by
// the page sections that compare the service with other servers (and with itself on other data).
const { KINDS, PER_REQUEST, startServer } = require('./servers');
const { packageVersion } = require('./machine');
const { runLoad, probe } = require('./measure');
const { summary } = require('./stats');
const { peerSpec, requestFor } = require('./workloads');
const { CALIBRATION_REQUEST, startCalibrationServer } = require('./calibration');
const { isNoisyRow, peersToRerun, relativeIqr, rowCaveat, rowNoise } = require('./quality');

/**
 * Rows of `w`, one per peer: {workload, title, peer, peerLabel, ratio, subjectRps, peerRps, hostRps} (ratios are
 * subject / peer per round), or {..., failed} when a server did not start or answered the probe wrongly.
 * `hostRps` is the calibration server (bench/lib/calibration.js) measured in each round among the others, at its
 * middle: the host's speed while this workload ran (bench/lib/quality.js, hostDrift).
 * `options.peers` keeps only those peer kinds; `context` gives the seed files and the cores.
 */
async function measureWorkload(w, options, context) {
  const peers = w.peers.map((p) => peerSpec(w, p)).filter((p) => p.kind === 'service' || !options.peers || options.peers.includes(p.kind));
  const specs = [w.subject, ...peers];
  const label = (s) => (s.kind === 'service' && w.scaling ? `this service, ${s.seed.toLocaleString('en-US')} records` : KINDS[s.kind].label);
  const base = (s) => ({ workload: w.id, title: w.title, peer: s.kind, peerLabel: label(s), seed: s.seed });
  const servers = [];
  try {
    for (const s of specs) servers.push(await startServer(s.kind, { seedFile: context.seedFile(s.seed), cpu: context.cpus?.server }));
    const expected = (s) => (w.scaling && s !== w.subject && w.scaling.expect === 'linear' ? undefined : w.expectItems);
    const problems = await Promise.all(servers.map((srv, i) => probe(srv.url, requestFor(w, specs[i].kind), expected(specs[i])).catch((e) => e.message)));
    const live = servers.map((_, i) => !problems[0] && !problems[i]);
    const hostIndex = servers.push(await startCalibrationServer(context)) - 1;
    const samples = servers.map(() => []);
    const request = (i) => (i === hostIndex ? CALIBRATION_REQUEST : requestFor(w, specs[i].kind));
    const load = (i, duration) => runLoad({ url: servers[i].url, request: request(i), connections: options.connections, duration, cpu: context.cpus?.load });
    const order = specs.map((_, i) => i).filter((i) => live[i]);
    if (order.length > 1) {
      // The calibration server in the middle of each round: its samples are spread over the workload's time.
      order.splice(Math.ceil(order.length / 2), 0, hostIndex);
      for (const i of order) await load(i, options.warmup);
      for (let r = 0; r < options.rounds; r += 1) {
        // A B H C D, then D C H B A: no server always goes first.
        for (const i of r % 2 === 0 ? order : [...order].reverse()) {
          const result = await load(i, options.duration);
          if (result.non2xx || result.errors || result.timeouts) {
            context.log(`  ! ${w.id} ${servers[i].label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
          }
          samples[i].push(result.rps);
        }
      }
    }
    return specs.slice(1).map((s, k) => {
      const i = k + 1;
      if (!live[i]) return { ...base(s), failed: `${problems[0] ? 'this service' : servers[i].label} answered ${problems[0] || problems[i]}` };
      return {
        ...base(s),
        ratio: summary(samples[0].map((v, r) => v / samples[i][r])),
        subjectRps: summary(samples[0]),
        peerRps: summary(samples[i]),
        hostRps: summary(samples[hostIndex]),
      };
    });
  } catch (e) {
    return specs.slice(1).map((s) => ({ ...base(s), failed: e.message }));
  } finally {
    await Promise.all(servers.map((srv) => srv.stop()));
  }
}

/**
 * Measures `w`, then again (at most `options.reruns` times) with only the peers whose row is noisy (quality.js):
 * a rerun's row replaces the earlier one. Each row says how many `attempts` it took and the IQRs of the ones before.
 */
async function measureSteadily(w, options, context) {
  const rows = (await measureWorkload(w, options, context)).map((r) => ({ ...r, attempts: 1, earlierIqrs: [] }));
  for (let attempts = 1; ; attempts += 1) {
    const again = peersToRerun(rows, attempts, options.reruns ?? 0, context.baseline);
    if (!again.length) return rows;
    const why = rows.filter((r) => again.includes(r.peer)).map((r) => `${r.peer} (${rowNoise(r, context.baseline)})`);
    context.log(`  ~ ${w.id}: noisy against ${why.join(', ')}: measured again (attempt ${attempts + 1})`);
    const redone = await measureWorkload(w, { ...options, peers: again }, context);
    for (const r of redone) {
      const i = rows.findIndex((old) => old.peer === r.peer && old.seed === r.seed);
      rows[i] = { ...r, attempts: attempts + 1, earlierIqrs: [...rows[i].earlierIqrs, rows[i].failed ? null : relativeIqr(rows[i].ratio)] };
    }
  }
}

/** Measures each workload in turn (measureSteadily), printing a line per row as it comes. */
async function measureAll(workloads, options, context) {
  const rows = [];
  for (const w of workloads) {
    for (const r of await measureSteadily(w, options, context)) {
      rows.push(r);
      context.log(
        r.failed
          ? `${r.title} vs ${r.peerLabel}: not measured (${r.failed})`
          : `${r.title} vs ${r.peerLabel}: ${r.ratio.median.toFixed(2)}× (min ${r.ratio.min.toFixed(2)}, max ${r.ratio.max.toFixed(2)}, IQR ${(relativeIqr(r.ratio) * 100).toFixed(0)}%${isNoisyRow(r, context.baseline) ? `, noisy: ${rowNoise(r, context.baseline)}` : ''}), ${Math.round(r.subjectRps.median)} vs ${Math.round(r.peerRps.median)} req/s; calibration ${Math.round(r.hostRps.min)}–${Math.round(r.hostRps.max)} req/s`,
      );
    }
  }
  return rows;
}

const x = (v, d = 2) => (Number.isFinite(v) ? `${v.toFixed(d)}×` : 'n/a');
const n0 = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');

/**
 * The median of a row as the page gives it: in bold when it may be read as a result; otherwise plain, with why not
 * (`quality`: { verdict, generator } of the run, bench/lib/report.js; quality.js, rowCaveat).
 */
function medianCell(row, quality, digits = 2) {
  const caveat = quality && rowCaveat(row, quality);
  return caveat ? `${x(row.ratio.median, digits)} (${caveat})` : `**${x(row.ratio.median, digits)}**`;
}

/** The table of a comparison section: one row per workload and peer; `quality` as medianCell's. */
function comparisonTable(rows, quality) {
  const out = [
    '| Workload | Peer | Median ratio (service / peer) | Spread min–max | IQR | Service req/s | Peer req/s |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    if (r.failed) out.push(`| ${r.title} | ${r.peerLabel} | not measured: ${r.failed.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | | | | |`);
    else out.push(`| ${r.title} | ${r.peerLabel} | ${medianCell(r, quality)} | ${x(r.ratio.min)} – ${x(r.ratio.max)} | ${x(r.ratio.q1)} – ${x(r.ratio.q3)} | ${n0(r.subjectRps.median)} | ${n0(r.peerRps.median)} |`);
  }
  return out.join('\n');
}

/** The kinds of server in `rows`, this service first. */
const kindsOf = (rows) => ['service', ...new Set(rows.map((r) => r.peer).filter((k) => k !== 'service'))];

/** The versions of the packages the servers in `rows` name, for the section's results (the page may be rendered later). */
function versionsOf(rows) {
  return Object.fromEntries(kindsOf(rows).flatMap((k) => KINDS[k].packages).map((p) => [p, packageVersion(p)]));
}

/** How this service and each peer in `rows` are run and tuned, with their package versions (`versions`: versionsOf's). */
function setups(rows, versions) {
  return kindsOf(rows)
    .map((k) => {
      const packages = KINDS[k].packages.map((p) => `${p.split('>').pop()} ${versions[p] ?? 'n/a'}`);
      return `- **${KINDS[k].label}**${packages.length ? ` (${packages.join(', ')})` : ''}: ${KINDS[k].setup}`;
    })
    .join('\n');
}

const cell = (text) => String(text).replace(/\|/g, '\\|');

/**
 * What each server of `rows` does per request (bench/lib/servers.js, PER_REQUEST), and whether the run saw it do so:
 * `audit` is { [kind]: findings } (bench/lib/audit.js), a kind missing from it was not checked.
 */
function perRequestTable(rows, audit = {}) {
  const columns = Object.entries(PER_REQUEST);
  const checkedTitles = columns.filter(([, c]) => c.checked).map(([, c]) => c.title.toLowerCase()).join(', ');
  const out = [
    `| Server | ${columns.map(([, c]) => c.title).join(' | ')} | Checked (${checkedTitles}) |`,
    `|---|${columns.map(() => '---').join('|')}|---|`,
  ];
  for (const k of kindsOf(rows)) {
    const findings = audit[k];
    const checked = !findings ? 'not checked' : findings.length ? `**differs**: ${findings.join('; ')}` : 'as stated';
    out.push(`| ${KINDS[k].label} | ${columns.map(([key]) => cell(KINDS[k].perRequest[key] ?? '—')).join(' | ')} | ${cell(checked)} |`);
  }
  return out.join('\n');
}

module.exports = { measureWorkload, measureAll, comparisonTable, medianCell, perRequestTable, setups, versionsOf, kindsOf, x, n0 };
