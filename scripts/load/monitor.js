'use strict';
// Watches the service while a scenario runs, on a thread of its own so the clients' work in the main thread
// does not delay it: samples the service's RSS every RSS_EVERY_MS from /proc (its peak, a figure: what the service
// holds is checked by watchHeld's readings after a full collection), and sends GET /health every
// PROBE_EVERY_MS on a fresh connection, timing each until its whole answer is in. Every probe must be answered
// 200; how long they took (max, p99) is printed as a figure, never checked: on a machine busy with other work, a
// probe is as slow as the machine, and the bounds on the service's own work per turn are checked where they hold
// by construction (test/hardening/bounded-answers.test.ts: bytes held per client, one chunk per JSON.stringify).
const http = require('node:http');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const { rssMiB, HANG_GUARD_MS } = require('./http');

const RSS_EVERY_MS = 50;
const PROBE_EVERY_MS = 100;

function probe(port, since) {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const done = (ok) => resolve({ at: Number(started - since) / 1e6, ms: Number(process.hrtime.bigint() - started) / 1e6, ok });
    const req = http.get({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode === 200));
      res.on('error', () => done(false));
    });
    req.on('error', () => done(false));
    req.setTimeout(HANG_GUARD_MS, () => req.destroy(new Error('probe hung')));
  });
}

function runWorker({ pid, port }) {
  const since = process.hrtime.bigint();
  let peak = rssMiB(pid);
  const probes = [];
  const inFlight = new Set();
  const sampler = setInterval(() => {
    const rss = rssMiB(pid);
    if (rss > peak) peak = rss;
  }, RSS_EVERY_MS);
  const prober = setInterval(() => {
    const p = probe(port, since).then((result) => {
      probes.push(result);
      inFlight.delete(p);
    });
    inFlight.add(p);
  }, PROBE_EVERY_MS);
  parentPort.once('message', async () => {
    clearInterval(sampler);
    clearInterval(prober);
    // At least one probe per scenario, however short it was.
    if (probes.length === 0 && inFlight.size === 0) probes.push(await probe(port, since));
    await Promise.all(inFlight);
    parentPort.postMessage({ peak, probes });
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/**
 * Starts watching the service `pid` listening on `port`. `stop()` resolves with the RSS peak (MiB) and the
 * /health probes: how many, how many failed, and their max and p99 in ms.
 */
function watch(pid, port) {
  const worker = new Worker(__filename, { workerData: { pid, port } });
  const result = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const { peak, probes } = await result;
      await worker.terminate();
      const sorted = probes.map((p) => p.ms).sort((a, b) => a - b);
      const slowest = probes.reduce((worst, p) => (p.ms > (worst?.ms ?? -1) ? p : worst), undefined);
      return { peak, probes: probes.length, failed: probes.filter((p) => !p.ok).length, max: sorted.at(-1) ?? NaN, p99: percentile(sorted, 99), slowestAt: slowest?.at ?? NaN };
    },
  };
}

/**
 * The service's RSS once it has collected its garbage (`service.collectGarbage()`, a full collection on demand:
 * scripts/load/gc-service.js), rather than after waiting for V8 to collect at its own pace. Memory still held is
 * still counted; memory given back is not.
 */
async function settledRss(service) {
  await service.collectGarbage();
  return rssMiB(service.pid);
}

/** The least time between two of `watchHeld`'s collections: a full collection stops the service while it runs. */
const HELD_EVERY_MS = 250;

/**
 * Reads the memory the service holds while a scenario runs: `first` (a `settledRss` reading made just before), then
 * a full collection and its RSS (`settledRss`) again and again (at most every HELD_EVERY_MS) until `stop()`, which
 * resolves with the most read and how many readings there were. Unlike the RSS peak sampled by `watch`, which counts
 * garbage V8 has not collected yet (how much depends on when it chooses to collect, so on how busy the machine is),
 * each reading counts only what is still reachable, or kept by the allocator: a bound on it holds on any machine.
 */
function watchHeld(service, first) {
  let stopped = false;
  let most = first;
  let readings = 1;
  const loop = (async () => {
    let since = Date.now();
    for (;;) {
      const wait = HELD_EVERY_MS - (Date.now() - since);
      if (!stopped && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) return;
      since = Date.now();
      const rss = await settledRss(service);
      readings += 1;
      if (rss > most) most = rss;
    }
  })();
  // A failed reading (the service exited) fails `stop()`, not the process before it.
  loop.catch(() => undefined);
  return {
    async stop() {
      stopped = true;
      await loop;
      return { most, readings };
    },
  };
}

/**
 * What a scenario whose clients hold watches: the RSS before (`settledRss`), then, while the clients hold, the
 * /health probes and the RSS peak (`watch`) and what the service holds (`watchHeld`). `held()` once the clients have
 * held; `stop()` once they have read, resolving with what both saw (for `figures`) and their checks, for `answers`
 * answers under way (`watchedChecks`, `heldChecks`).
 */
async function watchHolding(service, pid, port) {
  const before = await settledRss(service);
  const watched = watch(pid, port);
  const holding = watchHeld(service, before);
  let held;
  return {
    before,
    async held() {
      held = await holding.stop();
    },
    async stop(scenario, settings, answers) {
      const seen = await watched.stop();
      held ??= await holding.stop();
      return { seen, held, checks: [...watchedChecks(scenario, seen), ...heldChecks(scenario, before, held, settings, answers)] };
    },
  };
}

/**
 * The line of figures a scenario prints: RSS before, its sampled peak (and, where read, the most held while the
 * clients held and the RSS settled afterwards), then the /health probes.
 */
function figures(before, watched, settled, held) {
  const most = held === undefined ? '' : `, held ${held.most.toFixed(0)} MiB at most (${held.readings} readings)`;
  const rss = `RSS ${before.toFixed(0)} -> peak ${watched.peak.toFixed(0)} MiB (+${(watched.peak - before).toFixed(0)})${most}${settled === undefined ? '' : ` -> settled ${settled.toFixed(0)} MiB`}`;
  return `${rss}; /health ${watched.probes} probes, max ${watched.max.toFixed(0)} ms (sent at +${(watched.slowestAt / 1000).toFixed(1)} s), p99 ${watched.p99.toFixed(0)} ms, ${watched.failed} failed`;
}

/** The check of what `watch` saw: every /health probe answered (its RSS peak is a figure, never a check). */
function watchedChecks(scenario, watched) {
  return [
    {
      name: `${scenario}: every /health probe (each ${PROBE_EVERY_MS} ms, on a fresh connection) answered 200 (their times are printed, not checked)`,
      ok: watched.probes > 0 && watched.failed === 0,
      detail: `${watched.probes} probes, ${watched.failed} failed, max ${watched.max.toFixed(0)} ms`,
    },
  ];
}

/**
 * What the service may hold for one answer under way to a client that does not read, beyond its share of
 * MAX_UNSENT_BYTES: the text one turn builds (TURN_BYTES, 128 KiB, src/http/chunk-writer.ts) and the batch of
 * records that turn serialises (LIST_BATCH, 128 records of about 860 bytes of JSON here, src/store/types.ts), with
 * the room their JavaScript objects take.
 */
const HELD_PER_ANSWER_MIB = 0.5;

/**
 * The check of what `watchHeld` read while `answers` answers were under way to clients that did not read them:
 * the service held at most the RSS before (read the same way) + MAX_UNSENT_BYTES (written, not yet taken) +
 * HELD_PER_ANSWER_MIB per answer. One that neither waits for a client to take what it wrote nor cuts it (no
 * MAX_UNSENT_BYTES) goes over it, by as much as the kernel's socket buffers do not take.
 */
function heldChecks(scenario, before, held, settings, answers) {
  const allowed = settings.maxUnsentMiB + answers * HELD_PER_ANSWER_MIB;
  return [
    {
      name: `${scenario}: while they hold, what the service holds (RSS after a full collection, every ${HELD_EVERY_MS} ms) grows less than MAX_UNSENT_BYTES + ${HELD_PER_ANSWER_MIB} MiB per answer (${allowed.toFixed(0)} MiB)`,
      // The first reading is `before`'s: at least one more was made while they held.
      ok: held.readings > 1 && held.most - before < allowed,
      detail: `${before.toFixed(0)} -> ${held.most.toFixed(0)} MiB`,
    },
  ];
}

if (!isMainThread) runWorker(workerData);

module.exports = { watch, watchHolding, settledRss, figures, watchedChecks };
