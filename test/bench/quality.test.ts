// The benchmark's decisions (bench/lib/quality.js), given numbers: no server is started and nothing is timed.
const quality = require('../../bench/lib/quality');
const { summary } = require('../../bench/lib/stats');

const { loadVerdict, calibrationVerdict, relativeIqr, hostDrift, rowNoise, isNoisyRow, peersToRerun, generatorVerdict, runVerdict, rowCaveat } = quality;

/** A measured row whose per-round ratios are `ratios`, at `rps` req/s for the service and the peer. */
const row = (peer: string, ratios: number[], rps: [number, number] = [10000, 10000], workload = 'get-book') => ({
  workload,
  peer,
  ratio: summary(ratios),
  subjectRps: summary([rps[0]]),
  peerRps: summary([rps[1]]),
});

describe('the quiet-machine check (load average)', () => {
  it('when a 2-core machine starts at 0.5 and ends at 0.5 (read after the bench stopped), then it is quiet', () => {
    expect(loadVerdict({ start: 0.5, end: 0.5 }, 2)).toMatchObject({ quiet: true, reasons: [] });
  });

  it('when a 2-core machine starts above 0.5, then it is not quiet and the reason names the figure and the limit', () => {
    const v = loadVerdict({ start: 0.8, end: 0.2 }, 2);
    expect(v.quiet).toBe(false);
    expect(v.reasons).toEqual([expect.stringContaining('0.80 at the start (limit 0.50 on 2 cores)')]);
  });

  it('when the load average is still 0.8 once the bench has stopped and waited, then it is not quiet', () => {
    const v = loadVerdict({ start: 0.1, end: 0.8 }, 2);
    expect(v.quiet).toBe(false);
    expect(v.reasons).toEqual([expect.stringContaining('0.80 at the end, up to 240 s after')]);
    expect(v.reasons[0]).toContain('(limit 0.50 on 2 cores)');
  });

  it('when a reading is not a number, then it is not quiet', () => {
    expect(loadVerdict({ start: NaN, end: 0 }, 2).quiet).toBe(false);
  });
});

describe('the calibration at the start and at the end', () => {
  it('when the medians are 10% apart, then it is steady', () => {
    expect(calibrationVerdict([20000, 20000, 20000], [18000, 18000, 18000])).toMatchObject({ steady: true });
  });

  it('when the medians are more than 10% apart, whichever way, then it moved, and the reason gives both', () => {
    const slower = calibrationVerdict([20000, 21000, 19000], [17000, 17900, 17800]);
    expect(slower.steady).toBe(false);
    expect(slower.reason).toMatch(/20000 req\/s at the start and 17800 at the end: 11% apart/);
    expect(calibrationVerdict([20000], [22100]).steady).toBe(false);
  });

  it('when one sample is far off but the medians agree, then it is steady (the median, not the mean)', () => {
    expect(calibrationVerdict([20000, 20100, 5000], [20050, 19900, 20000]).steady).toBe(true);
  });

  it('when the start measured nothing, then it is not steady', () => {
    expect(calibrationVerdict([0], [20000]).steady).toBe(false);
  });
});

describe('a row whose ratios are spread', () => {
  it('when the IQR is 15% of the median, then the row is steady; above, it is noisy', () => {
    // q1 0.925, median 1, q3 1.075 with five evenly spread ratios 0.85..1.15
    const steady = row('p', [0.85, 0.925, 1, 1.075, 1.15]);
    expect(relativeIqr(steady.ratio)).toBeCloseTo(0.15, 10);
    expect(isNoisyRow(steady)).toBe(false);
    expect(isNoisyRow(row('p', [0.8, 0.9, 1, 1.1, 1.2]))).toBe(true);
  });

  it('when the spread min–max is 4x wide but the middle half is tight, then the row is steady (the IQR is the rule)', () => {
    expect(isNoisyRow(row('p', [0.39, 1, 1.01, 1.02, 1.57]))).toBe(false);
  });

  it('when a row failed, then it is not noisy (it has no figure to spread)', () => {
    expect(isNoisyRow({ workload: 'get-book', peer: 'p', failed: 'did not start' })).toBe(false);
  });
});

describe("the host's speed under a workload (the calibration server measured in its rounds)", () => {
  const hosted = (samples: number[], ratios = [1, 1, 1, 1]) => ({ ...row('p', ratios), hostRps: summary(samples) });

  it('when every sample is within 10% of the start calibration, then the host held and the row is steady', () => {
    expect(hostDrift(hosted([18200, 20000, 21800]), 20000)).toBeUndefined();
    expect(isNoisyRow(hosted([18200, 20000, 21800]), 20000)).toBe(false);
  });

  it('when one sample is more than 10% slower, or faster, then the host moved and the row is noisy though its ratios agree', () => {
    expect(hostDrift(hosted([20000, 14000, 20000]), 20000)).toBeCloseTo(0.3, 10);
    expect(rowNoise(hosted([20000, 14000, 20000]), 20000)).toBe("the host's speed moved 30% under it");
    expect(hostDrift(hosted([20000, 23000]), 20000)).toBeCloseTo(0.15, 10);
    expect(isNoisyRow(hosted([20000, 23000]), 20000)).toBe(true);
  });

  it('when the ratios are too spread as well, then the IQR is the reason given', () => {
    const wide = hosted([10000], [0.5, 0.8, 1.2, 1.6]);
    expect(rowNoise(wide, 20000)).toBe(`IQR ${(relativeIqr(wide.ratio) * 100).toFixed(0)}% of the median`);
  });

  it('when a row has no such samples (an older run) or there was no calibration at the start, then nothing is judged from them', () => {
    expect(hostDrift(row('p', [1, 1]), 20000)).toBeUndefined();
    expect(hostDrift(hosted([5000]), undefined)).toBeUndefined();
  });

  it('when the host moved, then every peer measured with it is measured again', () => {
    const moved = [hosted([20000, 15000]), { ...hosted([20000, 15000]), peer: 'q' }];
    expect(peersToRerun(moved, 1, 2, 20000)).toEqual(['p', 'q']);
    const held = [hosted([20000, 19000]), { ...hosted([20000, 19000]), peer: 'q' }];
    expect(peersToRerun(held, 1, 2, 20000)).toEqual([]);
  });
});

describe('rerunning a workload', () => {
  const rows = [row('steady', [1, 1, 1, 1]), row('wide', [0.5, 0.8, 1.2, 1.6]), { workload: 'get-book', peer: 'broken', failed: 'x' }];

  it('when a row is noisy and a rerun is left, then only its peer is measured again', () => {
    expect(peersToRerun(rows, 1, 2)).toEqual(['wide']);
    expect(peersToRerun(rows, 2, 2)).toEqual(['wide']);
  });

  it('when the reruns are used up, then nothing is measured again', () => {
    expect(peersToRerun(rows, 3, 2)).toEqual([]);
    expect(peersToRerun(rows, 1, 0)).toEqual([]);
  });

  it('when every row is steady, then nothing is measured again', () => {
    expect(peersToRerun([rows[0]], 1, 2)).toEqual([]);
  });
});

describe('the load generator check', () => {
  const rows = [row('bare', [0.5], [9000, 18000]), row('tuned', [0.7], [8500, 12000]), row('slow', [2], [8000, 4000], 'list-books-10k')];

  it('when bare node:http reaches 2x the fastest rate of the run, then the load generator is not the limit', () => {
    expect(generatorVerdict(36000, rows)).toMatchObject({ fastest: 18000, limited: false, capped: [] });
  });

  it('when it does not, then it is the limit and it caps the rows where a server went past half its ceiling', () => {
    const v = generatorVerdict(22000, rows);
    expect(v.limited).toBe(true);
    expect(v.capped).toEqual([{ workload: 'get-book', peer: 'bare' }, { workload: 'get-book', peer: 'tuned' }]);
  });

  it('when a row failed, then its missing rates neither set the fastest nor get it capped', () => {
    expect(generatorVerdict(40000, [{ workload: 'w', peer: 'x', failed: 'no' }, rows[2]])).toMatchObject({ fastest: 8000, limited: false, capped: [] });
  });
});

describe('whether the page gives a headline', () => {
  const quiet = loadVerdict({ start: 0.1, end: 0.3 }, 2);
  const steady = calibrationVerdict([20000], [19500]);

  it('when the machine was quiet and the calibration steady, then it gives one', () => {
    expect(runVerdict({ load: quiet, calibration: steady })).toEqual({ headline: true, reasons: [] });
  });

  it('when the calibration moved, then it gives none, and says why', () => {
    const v = runVerdict({ load: quiet, calibration: calibrationVerdict([20000], [15000]) });
    expect(v.headline).toBe(false);
    expect(v.reasons).toEqual([expect.stringContaining('25% apart')]);
  });

  it('when the calibration was not measured, or the load was high, then it gives none', () => {
    expect(runVerdict({ load: quiet, calibration: undefined }).headline).toBe(false);
    expect(runVerdict({ load: loadVerdict({ start: 2.9, end: 2.9 }, 2), calibration: steady }).headline).toBe(false);
  });

  it('when a run gives a headline, then a row is a result unless it is noisy or capped', () => {
    const verdict = { headline: true, reasons: [] };
    const generator = { capped: [{ workload: 'get-book', peer: 'capped' }] };
    expect(rowCaveat(row('fine', [1, 1, 1]), { verdict, generator })).toBeUndefined();
    expect(rowCaveat({ ...row('wide', [0.5, 1, 1.5]), attempts: 3 }, { verdict, generator })).toBe('noisy: IQR 50% of the median after 3 attempt(s)');
    expect(rowCaveat(row('capped', [1, 1, 1]), { verdict, generator })).toBe('capped by the load generator');
    expect(rowCaveat(row('fine', [1, 1, 1]), { verdict: { headline: false, reasons: ['x'] }, generator })).toBe('noisy run');
  });
});
