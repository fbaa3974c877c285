'use strict';
// npm run bench [-- options]: measures the service against its peers and writes BENCHMARKS.md whole from
// this one run. `--help` lists the options.
//
// The page is made of sections, each a module bench/sections/<id>.js exporting
//   { id, title, async run(options, context) -> results, render(results) -> markdown }
// run here in SECTIONS order. `options` are the parsed flags below; `context` is
//   { tmp, cpus: {server, load} | undefined, seedFile(books) -> path, log(line) }
// (seed files are made on first use, in `tmp`). A section that has nothing to do returns
// `{ skipped: 'why' }`. Every section's results are kept in one file, bench/results/latest.json
// (`{ run, sections: { [id]: results } }`), so `--render` can write the page again without measuring.
const { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, pinning } = require('./lib/servers');
const { seedFile } = require('./lib/seed');
const { WORKLOADS } = require('./lib/workloads');
const { WORKLOADS: STORE_WORKLOADS } = require('./lib/stores/workloads');
const { machine, versions, code, loadAverage } = require('./lib/machine');
const { renderPage, isComplete, runQuality } = require('./lib/report');
const { removeWorktrees } = require('./lib/builds');
const { ensureInstalled } = require('./lib/install');
const { calibrate } = require('./lib/calibration');
const { loadGenerator } = require('./lib/measure');
const { LIMITS, loadLimits, calibrationBaseline } = require('./lib/quality');

/** The page's sections, in order. */
const SECTIONS = [
  'rest',
  'graphql',
  'scaling',
  'stores',
  'queries',
  'before-after',
  'memory',
  'profiles',
].map((id) => require(`./sections/${id}`));

const RESULTS = path.join(__dirname, 'results', 'latest.json');
const PAGE = path.join(ROOT, 'BENCHMARKS.md');

const HELP = `Options (flags win over BENCH_* environment variables):
  --quick               smoke run: 1 s samples, 2 rounds, a short memory soak and short profiles
  --duration=S          seconds per sample (BENCH_DURATION, default 5)
  --rounds=N            alternating rounds per workload (BENCH_ROUNDS, default 5)
  --connections=N       autocannon connections (BENCH_CONNECTIONS, default 16)
  --warmup=S            warm-up seconds per server per workload (BENCH_WARMUP, default 2)
  --load-generator=G    wrk or autocannon (BENCH_LOAD_GENERATOR; default wrk when it is installed, else autocannon):
                        wrk (Debian: apt-get install wrk), in C, spends less of its core per request, so the
                        load generator caps fewer rows; request mixes and conditional writes use autocannon either way
  --reruns=N            measure a workload again, against the peers whose ratios' IQR is wider than ${LIMITS.rowIqr * 100}% of
                        their median, or all of them when the calibration server, measured in each of its rounds, was
                        more than ${LIMITS.calibrationDrift * 100}% away from the start's calibration, at most N times
                        (BENCH_RERUNS, default 2; 1 with --quick; 0: never)
  --calibration-rounds=N  samples of the calibration (node:http hello under the load generator) at the start and
                        at the end of the run (BENCH_CALIBRATION_ROUNDS, default 3; 2 with --quick)
  --memory-seconds=S    mixed load for the memory check (BENCH_MEMORY_SECONDS, default 60)
  --profile-seconds=S   load while profiling each workload (BENCH_PROFILE_SECONDS, default 10)
  --profile=id,id       workloads to profile (default get-book,post-book,gql-nested)
  --profile-peers=k,k   also profile these peers (server kinds of bench/lib/servers.js) on those workloads
  --only=id,id          only these workloads (${[...new Set([...WORKLOADS, ...STORE_WORKLOADS].map((w) => w.id))].join(', ')})
  --peers=k,k           only these peers (server kinds, e.g. fastify-openapi-glue,mercurius-jit)
  --baseline=REV        also measure this build against revision REV of the service (BENCH_BASELINE), on the REST
                        and GraphQL workloads ("Before and after"; without it that section is left out)
  --no-profile          skip "Where the time goes"
  --no-memory           skip the memory check
  --no-write            keep BENCHMARKS.md as it is (the results are still saved)
  --render[=FILE]       measure nothing: write BENCHMARKS.md from ${path.relative(ROOT, RESULTS)} (or FILE)
A run with --only, --peers or a skipped section writes a page that says it is partial.
A run gives a headline only from a quiet machine: a 1-minute load average of at most ${loadLimits(os.cpus().length).start.toFixed(2)} at the start and
${loadLimits(os.cpus().length).end.toFixed(2)} at the end on this machine's ${os.cpus().length} cores (each read once the build before the run, or the bench's own
processes after it, have stopped: after up to ${LIMITS.settleSeconds} s for the average to fall back), and a calibration, measured after each of
those readings, whose medians at the start and at the end are within ${LIMITS.calibrationDrift * 100}%. Otherwise the page says the run was noisy and puts no median in bold. A row still
noisy after its reruns, or one the load generator caps (it must drive bare node:http to ${LIMITS.generatorHeadroom}× the fastest rate of
the run), is marked so in its table. bench/lib/quality.js holds these limits.`;

/**
 * The load average once the build (`npm run bench` builds first) or the bench's own processes have stopped: read
 * when the 1-minute figure is back at `limit`, or after LIMITS.settleSeconds if it never gets there (something else
 * keeps the machine busy).
 */
async function settledLoadAverage(limit, when) {
  const deadline = Date.now() + LIMITS.settleSeconds * 1000;
  if (os.loadavg()[0] > limit) console.log(`== Waiting up to ${LIMITS.settleSeconds} s for the load average (${loadAverage()}) to fall back to ${limit.toFixed(2)}`);
  while (os.loadavg()[0] > limit && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5000));
  console.log(`   load average at the ${when}: ${loadAverage()}`);
  return loadAverage();
}

function parseArgs(argv) {
  const flags = Object.fromEntries(
    argv.map((a) => {
      const [k, v] = a.replace(/^--/, '').split(/=(.*)/s);
      return [k, v ?? true];
    }),
  );
  if (flags.help) {
    console.log(HELP);
    process.exit(0);
  }
  const quick = Boolean(flags.quick);
  const num = (flag, env, normal, fast) => {
    const v = Number(flags[flag] ?? process.env[env] ?? (quick ? fast : normal));
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${flag} must be a positive number`);
    return v;
  };
  const count = (flag, env, normal, fast) => {
    const v = Number(flags[flag] ?? process.env[env] ?? (quick ? fast : normal));
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${flag} must be a whole number, 0 or more`);
    return v;
  };
  const list = (flag) => (typeof flags[flag] === 'string' ? flags[flag].split(',').filter(Boolean) : undefined);
  if (typeof flags['load-generator'] === 'string') process.env.BENCH_LOAD_GENERATOR = flags['load-generator'];
  const only = list('only');
  const known = new Set([...WORKLOADS, ...STORE_WORKLOADS].map((w) => w.id));
  for (const id of only ?? []) if (!known.has(id)) throw new Error(`--only: no workload ${id} (${[...known].join(', ')})`);
  return {
    mode: quick ? 'quick' : 'default',
    duration: num('duration', 'BENCH_DURATION', 5, 1),
    rounds: Math.round(num('rounds', 'BENCH_ROUNDS', 5, 2)),
    connections: Math.round(num('connections', 'BENCH_CONNECTIONS', 16, 16)),
    warmup: num('warmup', 'BENCH_WARMUP', 2, 0.5),
    reruns: count('reruns', 'BENCH_RERUNS', 2, 1),
    calibrationRounds: Math.max(1, count('calibration-rounds', 'BENCH_CALIBRATION_ROUNDS', 3, 2)),
    memorySeconds: num('memory-seconds', 'BENCH_MEMORY_SECONDS', 60, 5),
    memoryWarmup: quick ? 2 : 10,
    profileSeconds: num('profile-seconds', 'BENCH_PROFILE_SECONDS', 10, 3),
    only,
    peers: list('peers'),
    baseline: typeof flags.baseline === 'string' ? flags.baseline : process.env.BENCH_BASELINE || undefined,
    profile: !flags['no-profile'],
    profileIds: list('profile') ?? ['get-book', 'post-book', 'gql-nested'],
    profileKinds: ['service', ...(list('profile-peers') ?? [])],
    memory: !flags['no-memory'],
    write: !flags['no-write'],
    render: flags.render === true ? RESULTS : flags.render,
  };
}

/** The command as it was typed: through npm (`npm run bench -- ...`) or node. */
function commandLine(argv) {
  const args = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ');
  if (process.env.npm_lifecycle_event === 'bench') return `npm run bench${args ? ` -- ${args}` : ''}`;
  return `node bench/run.js${args ? ` ${args}` : ''}`;
}

function writePage(results) {
  writeFileSync(PAGE, renderPage(SECTIONS, results));
  const complete = isComplete(SECTIONS, results);
  console.log(`BENCHMARKS.md written (${complete ? 'complete' : 'partial: it says which parts are missing'})`);
}

async function main() {
  const argv = process.argv.slice(2);
  const options = parseArgs(argv);
  if (options.render) {
    if (!existsSync(options.render)) throw new Error(`no results at ${options.render}: run \`npm run bench\` first`);
    return writePage(JSON.parse(readFileSync(options.render, 'utf8')));
  }
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'server.js'))) throw new Error('dist/src/server.js is missing: run `npm run build` first');
  ensureInstalled();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const cpus = pinning(os.cpus().length);
  const seeds = new Map();
  const context = {
    tmp,
    cpus,
    seedFile: (books) => seeds.get(books) ?? seeds.set(books, seedFile(tmp, books)).get(books),
    log: (line) => console.log(line),
  };
  const run = {
    command: commandLine(argv),
    options: { ...options, render: undefined },
    code: code(),
    machine: machine(),
    versions: versions(),
    loadGenerator: loadGenerator(),
    pinning: cpus ? `server on CPU ${cpus.server}, load generator on CPU ${cpus.load} (taskset)` : 'none (taskset missing or a single CPU)',
    startedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
  // A section that says how it was run names this command.
  options.command = run.command;
  console.log(`bench: ${options.mode} mode, ${options.rounds} rounds × ${options.duration} s, ${options.connections} connections, pinning: ${run.pinning}`);
  console.log(`   load generator: ${run.loadGenerator.name === 'wrk' ? run.loadGenerator.version : 'autocannon (wrk is not installed: apt-get install wrk)'}`);
  const limits = loadLimits(run.machine.cores);
  console.log(`   a headline needs a load average of at most ${limits.start.toFixed(2)} at the start and ${limits.end.toFixed(2)} at the end`);
  run.loadAverage = { start: await settledLoadAverage(limits.start, 'start') };
  run.startedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  // The calibration at the start and at the end: a run whose machine changed between them gives no headline.
  const calibration = async (when) => {
    console.log(`== Calibration (node:http hello under the load generator), ${when}`);
    const samples = await calibrate(options, context).catch((e) => {
      console.log(`   not measured: ${e.message}`);
      return undefined;
    });
    if (samples) console.log(`   ${samples.map((v) => Math.round(v)).join(', ')} req/s`);
    return samples;
  };
  run.calibration = { start: await calibration('start') };
  // What every workload's samples of the calibration server are held to (bench/lib/quality.js, hostDrift).
  context.baseline = calibrationBaseline(run.calibration.start);
  const sections = {};
  for (const section of SECTIONS) {
    console.log(`== ${section.title}`);
    sections[section.id] = await section.run(options, context).catch((e) => ({ skipped: `failed: ${e.message}` }));
    if (sections[section.id].skipped) console.log(`   not run: ${sections[section.id].skipped}`);
  }
  // The end is read as the start is: once the bench's own processes have stopped and the load average has fallen
  // back, the load average, then the calibration.
  run.loadAverage.end = await settledLoadAverage(limits.end, 'end');
  run.calibration.end = await calibration('end');
  run.finishedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const results = { run, sections };
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify(results, null, 2));
  console.log(`results: ${path.relative(ROOT, RESULTS)} (profiles and seed files in ${tmp})`);
  const { verdict } = runQuality(results);
  console.log(verdict.headline ? 'run: quiet and steady (the page gives a headline)' : `run: noisy, the page gives no headline: ${verdict.reasons.join('; ')}`);
  if (options.write) writePage(results);
}

main()
  .catch((e) => {
    console.error(`bench failed: ${e.message}`);
    process.exitCode = 1;
  })
  .finally(removeWorktrees);
