'use strict';
// One workload measured against its peers: every server started fresh, each checked with one request,
// then measured in alternating rounds (A B C, C B A, ...), and the per-round ratios summarised. Shared by
// the page sections that compare the service with other servers (and with itself on other data).
const { KINDS, startServer } = require('./servers');
const { packageVersion } = require('./machine');
const { runLoad, probe } = require('./measure');
const { summary } = require('./stats');
const { peerSpec, requestFor } = require('./workloads');

/**
 * Rows of `w`, one per peer: {workload, title, peer, peerLabel, ratio, subjectRps, peerRps} (ratios are
 * subject / peer per round), or {..., failed} when a server did not start or answered the probe wrongly.
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
    const samples = servers.map(() => []);
    const load = (i, duration) =>
      runLoad({ url: servers[i].url, request: requestFor(w, specs[i].kind), connections: options.connections, duration, cpu: context.cpus?.load });
    const order = servers.map((_, i) => i).filter((i) => live[i]);
    if (order.length > 1) {
      for (const i of order) await load(i, options.warmup);
      for (let r = 0; r < options.rounds; r += 1) {
        // A B C D, then D C B A: no server always goes first.
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
      return { ...base(s), ratio: summary(samples[0].map((v, r) => v / samples[i][r])), subjectRps: summary(samples[0]), peerRps: summary(samples[i]) };
    });
  } catch (e) {
    return specs.slice(1).map((s) => ({ ...base(s), failed: e.message }));
  } finally {
    await Promise.all(servers.map((srv) => srv.stop()));
  }
}

/** Measures each workload in turn, printing a line per row as it comes. */
async function measureAll(workloads, options, context) {
  const rows = [];
  for (const w of workloads) {
    for (const r of await measureWorkload(w, options, context)) {
      rows.push(r);
      context.log(
        r.failed
          ? `${r.title} vs ${r.peerLabel}: not measured (${r.failed})`
          : `${r.title} vs ${r.peerLabel}: ${r.ratio.median.toFixed(2)}× (min ${r.ratio.min.toFixed(2)}, max ${r.ratio.max.toFixed(2)}), ${Math.round(r.subjectRps.median)} vs ${Math.round(r.peerRps.median)} req/s`,
      );
    }
  }
  return rows;
}

const x = (v, d = 2) => (Number.isFinite(v) ? `${v.toFixed(d)}×` : 'n/a');
const n0 = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');

/** The table of a comparison section: one row per workload and peer. */
function comparisonTable(rows) {
  const out = [
    '| Workload | Peer | Median ratio (service / peer) | Spread min–max | IQR | Service req/s | Peer req/s |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    if (r.failed) out.push(`| ${r.title} | ${r.peerLabel} | not measured: ${r.failed.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | | | | |`);
    else out.push(`| ${r.title} | ${r.peerLabel} | **${x(r.ratio.median)}** | ${x(r.ratio.min)} – ${x(r.ratio.max)} | ${x(r.ratio.q1)} – ${x(r.ratio.q3)} | ${n0(r.subjectRps.median)} | ${n0(r.peerRps.median)} |`);
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

module.exports = { measureWorkload, measureAll, comparisonTable, setups, versionsOf, x, n0 };
