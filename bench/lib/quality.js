'use strict';
// Whether a run's figures can be trusted, decided from numbers alone (no measuring here, so every rule is tested
// in test/bench/quality.test.ts): is the machine quiet, did the calibration drift, is a row's spread too wide to
// report (and worth measuring again), does the load generator cap a row, and may the page give a headline.
const { summary } = require('./stats');

/**
 * The limits, in one place (the page's "How to read it" quotes them from here).
 * - quietLoadPerCore: the 1-minute load average before the run, per core. 0.25 on 2 cores is 0.5: a process busy
 *   half the time anywhere on the machine takes a quarter of one of the two cores the bench pins itself to.
 * - settleSeconds: at the end, once the bench's own servers and load are stopped, how long the run waits for the
 *   1-minute average to fall back to the quiet limit (it decays by e every minute: from 3 to 0.5 in about 110 s).
 *   The end is read then, against the same limit as the start: a reading taken while the bench's own processes
 *   (PostgreSQL, the server, the load generator) still weigh in the average measures the bench, not the machine.
 * - calibrationDrift: how far the calibration's median at the end may be from the one at the start (10%). Each is
 *   measured after its load average is read, so the end's, like the start's, does not measure what came just before.
 *   The same limit holds inside the run: every sample of the calibration server taken in a workload's rounds
 *   (bench/lib/pairs.js) must be within it of the start's median, or the host's speed moved under that workload.
 * - rowIqr: the widest interquartile range of a row's per-round ratios, relative to their median (15%).
 * - generatorHeadroom: how many times the fastest server's rate the load generator must reach on bare node:http.
 */
const LIMITS = { quietLoadPerCore: 0.25, settleSeconds: 240, calibrationDrift: 0.1, rowIqr: 0.15, generatorHeadroom: 2 };

/** The 1-minute load average a run may start at, and the one it may end at, on `cores` cores. */
function loadLimits(cores) {
  const quiet = LIMITS.quietLoadPerCore * Math.max(1, cores);
  return { start: quiet, end: quiet };
}

/** `{ quiet, reasons }` for 1-minute load averages at the start and the end of a run on `cores` cores. */
function loadVerdict({ start, end }, cores) {
  const limits = loadLimits(cores);
  const reasons = [];
  if (!(start <= limits.start)) reasons.push(`the 1-minute load average was ${start.toFixed(2)} at the start (limit ${limits.start.toFixed(2)} on ${cores} cores)`);
  if (end !== undefined && !(end <= limits.end)) {
    reasons.push(`the 1-minute load average was ${end.toFixed(2)} at the end, up to ${LIMITS.settleSeconds} s after the bench's own processes stopped (limit ${limits.end.toFixed(2)} on ${cores} cores)`);
  }
  return { quiet: reasons.length === 0, limits, reasons };
}

/**
 * The calibration (bare node:http under the load generator, several samples) at the start and at the end of a run:
 * `{ start, end, drift, steady, reason? }`, `drift` being |end / start − 1| of the medians.
 */
function calibrationVerdict(startSamples, endSamples) {
  const start = summary(startSamples);
  const end = summary(endSamples);
  const drift = Math.abs(end.median / start.median - 1);
  const steady = Number.isFinite(drift) && drift <= LIMITS.calibrationDrift;
  return {
    start,
    end,
    drift,
    steady,
    ...(!steady && {
      reason: `the calibration (bare node:http) served ${Math.round(start.median)} req/s at the start and ${Math.round(end.median)} at the end: ${Number.isFinite(drift) ? `${(drift * 100).toFixed(0)}%` : 'no figure'} apart (limit ${LIMITS.calibrationDrift * 100}%)`,
    }),
  };
}

/** The interquartile range of a ratio summary relative to its median (0.15 = the middle half spans 15% of the median). */
const relativeIqr = (ratio) => (ratio.q3 - ratio.q1) / ratio.median;

/** What a run's figures are held to: the median of the calibration at its start, or undefined when it has none. */
const calibrationBaseline = (startSamples) => (startSamples?.length ? summary(startSamples).median : undefined);

/**
 * How far the host's speed moved while a row was measured: the largest distance, relative to `baseline` (the median of
 * the calibration at the start of the run), of the calibration server's samples taken in the rounds of the row's
 * workload (`row.hostRps`, bench/lib/pairs.js). Undefined when it stayed within calibrationDrift, or when there is
 * nothing to compare (a row without those samples, saved by an older run, or no calibration at the start).
 */
function hostDrift(row, baseline) {
  const host = row.hostRps;
  if (row.failed || !host || !(baseline > 0)) return undefined;
  const drift = Math.max(1 - host.min / baseline, host.max / baseline - 1);
  return drift <= LIMITS.calibrationDrift ? undefined : drift;
}

/**
 * Why a measured row is too noisy to report as a figure, or undefined when it is not: its per-round ratios are too
 * spread, or the host's speed moved under its workload (hostDrift; `baseline` as there).
 */
function rowNoise(row, baseline) {
  if (row.failed) return undefined;
  const iqr = relativeIqr(row.ratio);
  if (!(iqr <= LIMITS.rowIqr)) return `IQR ${(iqr * 100).toFixed(0)}% of the median`;
  const drift = hostDrift(row, baseline);
  if (drift !== undefined) return `the host's speed moved ${Number.isFinite(drift) ? `${(drift * 100).toFixed(0)}%` : 'by an unknown amount'} under it`;
  return undefined;
}

/** Whether a measured row is too noisy to report as a figure (rowNoise). */
const isNoisyRow = (row, baseline) => rowNoise(row, baseline) !== undefined;

/**
 * After measuring a workload `attempts` times (1 = the first measurement), the peers to measure again: those whose
 * row is noisy (`baseline` as hostDrift's), while fewer than `1 + reruns` attempts were made; none when every row is
 * steady or no rerun is left.
 */
function peersToRerun(rows, attempts, reruns, baseline) {
  if (attempts > reruns) return [];
  return rows.filter((r) => isNoisyRow(r, baseline)).map((r) => r.peer);
}

/**
 * What the load generator's ceiling (its median rate on bare node:http, before the run) caps among `rows`:
 * `{ ceiling, fastest, limited, capped }`. `limited` when the ceiling is below generatorHeadroom times the fastest
 * server's median rate of the run; `capped` are the rows where this service or the peer served more than
 * ceiling / generatorHeadroom (the load generator, not only the server, set their rate).
 */
function generatorVerdict(ceiling, rows) {
  const measured = rows.filter((r) => !r.failed);
  const rates = (r) => [r.subjectRps.median, r.peerRps.median];
  const fastest = Math.max(0, ...measured.flatMap(rates));
  const bound = ceiling / LIMITS.generatorHeadroom;
  return {
    ceiling,
    fastest,
    limited: !(ceiling >= LIMITS.generatorHeadroom * fastest),
    capped: measured.filter((r) => rates(r).some((v) => !(v <= bound))).map((r) => ({ workload: r.workload, peer: r.peer })),
  };
}

/** Whether `row` is one of `capped` (generatorVerdict's). */
const isCapped = (row, capped) => capped.some((c) => c.workload === row.workload && c.peer === row.peer);

/**
 * Whether the page may give a headline: only when the machine was quiet and the calibration steady. `{ headline,
 * reasons }`; `load` and `calibration` are loadVerdict's and calibrationVerdict's (a missing calibration is a reason).
 */
function runVerdict({ load, calibration }) {
  const reasons = [...load.reasons];
  if (!calibration) reasons.push('the calibration was not measured');
  else if (!calibration.steady) reasons.push(calibration.reason);
  return { headline: reasons.length === 0, reasons };
}

/**
 * Why a row's median may not be read as a result, or undefined when it may: the run was noisy, the row is still
 * noisy after its reruns (`baseline`: the start's calibration median, rowNoise), or the load generator caps it.
 */
function rowCaveat(row, { verdict, generator, baseline }) {
  if (row.failed) return 'not measured';
  if (!verdict.headline) return 'noisy run';
  const noise = rowNoise(row, baseline);
  if (noise) return `noisy: ${noise} after ${row.attempts ?? 1} attempt(s)`;
  if (generator && isCapped(row, generator.capped)) return 'capped by the load generator';
  return undefined;
}

module.exports = { LIMITS, loadLimits, loadVerdict, calibrationVerdict, relativeIqr, calibrationBaseline, hostDrift, rowNoise, isNoisyRow, peersToRerun, generatorVerdict, isCapped, runVerdict, rowCaveat };
