// What BENCHMARKS.md says about a run, given saved results (bench/lib/report.js): nothing is measured here.
const { renderPage } = require('../../bench/lib/report');
const { auditFindings } = require('../../bench/lib/audit');
const { KINDS } = require('../../bench/lib/servers');
const { summary } = require('../../bench/lib/stats');
const rest = require('../../bench/sections/rest');

const measured = (workload: string, title: string, peer: string, ratios: number[], rps: [number, number]) => ({
  workload,
  title,
  peer,
  peerLabel: KINDS[peer].label,
  seed: 100,
  attempts: 1,
  ratio: summary(ratios),
  subjectRps: summary([rps[0]]),
  peerRps: summary([rps[1]]),
});

/** Saved results of a run with one REST section: `load` the 1-minute averages, `calibration` the samples. */
function results({ load = ['0.10', '0.30'], calibration = { start: [40000, 40000], end: [39000, 39500] }, rows = [] as object[] } = {}) {
  return {
    run: {
      command: 'npm run bench',
      options: { mode: 'default', rounds: 5, duration: 5, warmup: 2, connections: 16 },
      code: { commit: 'abc', changed: false },
      machine: { cpu: 'test', cores: 2, memoryBytes: 2 ** 30, os: 'Linux', arch: 'x64' },
      versions: { service: '2.0.0', node: 'v20', packages: {} },
      pinning: 'none',
      startedAt: 's',
      finishedAt: 'f',
      loadAverage: { start: `${load[0]} 0.10 0.10`, end: `${load[1]} 1.00 0.50` },
      calibration,
    },
    sections: { rest: { rows, versions: {}, audit: {} } },
  };
}

const getRow = measured('get-book', 'GET /books/{id}', 'fastify-openapi-glue-tuned', [0.66, 0.68, 0.68, 0.69, 0.7], [8500, 12500]);
const postRow = measured('post-book', 'POST /books', 'fastify-openapi-glue-tuned', [0.57, 0.58, 0.58, 0.59, 0.6], [4000, 7000]);
const wideRow = measured('post-book', 'POST /books', 'fastify-openapi-glue-tuned', [0.3, 0.5, 0.6, 0.8, 1.0], [4000, 7000]);

describe('the headline of BENCHMARKS.md', () => {
  it('when the run was quiet and steady, then the headline gives the row with its spread, in bold', () => {
    const page = renderPage([rest], results({ rows: [getRow] }));
    const headline = page.split('## Headline')[1].split('## How to read it')[0];
    expect(headline).toContain('| GET /books/{id} | fastify-openapi-glue, tuned | **0.68×** | 0.66× – 0.70× |');
    expect(headline).not.toContain('No headline');
  });

  it('when the calibration moved by more than 10%, then the page says the run was noisy and puts no median in bold', () => {
    const page = renderPage([rest], results({ rows: [getRow], calibration: { start: [40000, 40000], end: [30000, 31000] } }));
    expect(page).toContain('**No headline: this run was noisy**');
    expect(page).toContain('0.68× (noisy run)');
    expect(page).not.toContain('**0.68×**');
  });

  it('when the load average rose to 2.9 by the end, then the page says the run was noisy', () => {
    const page = renderPage([rest], results({ rows: [getRow], load: ['0.10', '2.90'] }));
    expect(page).toContain('**No headline: this run was noisy**: the 1-minute load average was 2.90 at the end');
  });

  it('when a row is still noisy after its reruns, then its median is marked noisy, in its table and in the headline', () => {
    const page = renderPage([rest], results({ rows: [getRow, { ...wideRow, attempts: 3 }] }));
    expect(page).toContain('0.60× (noisy: IQR 50% of the median after 3 attempt(s))');
    expect(page).toContain('**0.68×**');
  });

  it('when the host slowed under one workload while the start and the end were steady, then that row is marked noisy and the others stay results', () => {
    // The calibration served 40,000 req/s at the start; in POST's rounds it fell to 30,000 (25%), in GET's it held.
    const rows = [
      { ...getRow, hostRps: summary([39000, 40500, 41000, 39800]) },
      { ...postRow, attempts: 3, hostRps: summary([40000, 30000, 31000, 39000]) },
    ];
    const page = renderPage([rest], results({ rows }));
    expect(page).toContain('**0.68×**');
    expect(page).toContain("0.58× (noisy: the host's speed moved 25% under it after 3 attempt(s))");
    const headline = page.split('## Headline')[1].split('## How to read it')[0];
    expect(headline).toContain("no figure (noisy: the host's speed moved 25% under it after 3 attempt(s)): 0.58×");
  });

  it('when bare node:http under the load generator is under 2x the fastest rate, then the page names the load generator as the limit and the rows it caps', () => {
    const page = renderPage([rest], results({ rows: [getRow, postRow], calibration: { start: [20000, 20000], end: [20000, 20000] } }));
    expect(page).toContain('**the load generator is the limit**');
    expect(page).toContain('get-book vs fastify-openapi-glue, tuned');
    expect(page).toContain('0.68× (capped by the load generator)');
    expect(page).toContain('**0.58×**');
  });
});

describe('each peer row says what the peer does per request', () => {
  it('when the run checked a server and saw what its row says, then the table says "as stated"; else what differs', () => {
    const page = renderPage([rest], {
      ...results({ rows: [getRow] }),
      sections: { rest: { rows: [getRow], versions: {}, audit: { service: [], 'fastify-openapi-glue-tuned': ['its log line does not name the request id'] } } },
    });
    const tuned = page.split('\n').find((l: string) => l.startsWith('| fastify-openapi-glue, tuned |'));
    expect(tuned).toContain("helmet's defaults, computed once at start, set as one block");
    expect(tuned).toContain('one pino JSON line at info');
    expect(tuned).toContain('**differs**: its log line does not name the request id');
    expect(page.split('\n').find((l: string) => l.startsWith('| this service |'))).toMatch(/\| as stated \|$/);
  });

  it('the tuned Fastify and Mercurius peers state a pino line, a request id and helmet headers set once', () => {
    for (const kind of ['fastify-openapi-glue-tuned', 'mercurius-jit']) {
      expect(KINDS[kind].perRequest).toMatchObject({ log: expect.stringContaining('pino'), requestId: expect.any(String), securityHeaders: expect.stringContaining('once') });
    }
  });
});

describe('the check of a server against its row', () => {
  const all = { log: 'a line', requestId: 'sent back', securityHeaders: 'helmet' };
  const helmet = { 'content-security-policy': "default-src 'self'", 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'cross-origin-resource-policy': 'same-origin' };

  it('when a server logs a line naming the request id, sends it back and sends helmet headers, then a row saying so agrees', () => {
    expect(auditFindings(all, { sentId: 'r1', headers: { ...helmet, 'x-request-id': 'r1' }, lines: ['{"requestId":"r1"}', ''] })).toEqual([]);
  });

  it('when a server does none of what its row says, then each is a finding', () => {
    expect(auditFindings(all, { sentId: 'r1', headers: {}, lines: [''] })).toEqual([
      'its row says it sends a request id back, but X-Request-Id was missing',
      "its row says it sends helmet's headers, but content-security-policy, x-content-type-options, x-frame-options, cross-origin-resource-policy missing",
      'its row says it logs a line per request, but it wrote none',
    ]);
  });

  it('when a server does more than its row says, then that is a finding too', () => {
    const none = { log: null, requestId: null, securityHeaders: null };
    expect(auditFindings(none, { sentId: 'r1', headers: { ...helmet, 'x-request-id': 'r1' }, lines: ['GET /books 200'] })).toHaveLength(3);
  });

  it('when a server writes more than one line for the request, then that is a finding (its row says one)', () => {
    expect(auditFindings(all, { sentId: 'r1', headers: { ...helmet, 'x-request-id': 'r1' }, lines: ['incoming r1', 'completed r1'] })).toEqual(['its row says it logs a line per request, but it wrote 2']);
  });

  it('when its log line does not name the request id it sent back, then that is a finding', () => {
    expect(auditFindings(all, { sentId: 'r1', headers: { ...helmet, 'x-request-id': 'r1' }, lines: ['{"msg":"request"}'] })).toEqual(['its log line does not name the request id']);
  });
});
