import { request } from 'node:http';
import { describePostgres } from '../../support/postgres';
import { twoWorkers, untilWorkersServe } from '../../support/workers';

type Outcome = { kind: 'answer'; status: number } | { kind: 'connection error'; code: string };

/**
 * One GET on a new connection (each one is accepted anew, by whichever worker): its answer or a connection error.
 * No time bound: a request left unanswered (a connection handed to a dying worker and never closed) keeps its
 * client waiting, and the test's timeout fails it as the hang it is; a slow answer on a busy machine does not.
 */
function getOnNewConnection(baseUrl: string, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(baseUrl + path, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ kind: 'answer', status: res.statusCode! }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ kind: 'connection error', code: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ kind: 'connection error', code: err.code ?? err.message }));
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describePostgres(
  'WORKERS=2: a worker killed under a steady stream of requests',
  () => {
    const workers = twoWorkers();

    it('when each original worker is killed (kill -9) in turn, then every request gets an answer or a connection error (none hangs), and the replacements serve', async () => {
      const outcomes: { outcome: Outcome; phase: number }[] = [];
      const state = { running: true, phase: 0 };
      const client = async () => {
        while (state.running) {
          const phase = state.phase;
          outcomes.push({ outcome: await getOnNewConnection(workers.service.baseUrl, '/books?limit=5'), phase });
        }
      };
      const load = Promise.all(Array.from({ length: 12 }, client));

      // Each step lasts until what it is about has happened, never a given time.
      const until = async (check: () => boolean) => {
        while (!check()) await sleep(50);
      };
      const answered = () => outcomes.filter(({ outcome }) => outcome.kind === 'answer').length;
      const originals = await untilWorkersServe(workers.service);
      await until(() => answered() > 0);
      for (const [i, pid] of originals.entries()) {
        process.kill(pid, 'SIGKILL');
        await untilWorkersServe(workers.service, originals.slice(0, i + 1));
        const before = answered();
        await until(() => answered() > before);
      }
      // Phase 1: both original workers are dead; only their replacements can answer now.
      state.phase = 1;
      await until(() => outcomes.some(({ outcome, phase }) => phase === 1 && outcome.kind === 'answer'));
      state.running = false;
      await load;

      // Every request ended (the load is over: none hangs), each with an answer or a connection error.
      const answers = outcomes.flatMap(({ outcome }) => (outcome.kind === 'answer' ? [outcome.status] : []));
      expect(answers.filter((status) => status !== 200)).toEqual([]);
      // Only requests a killed worker had already accepted are lost, each with a reset: a handful at most.
      const errors = outcomes.filter(({ outcome }) => outcome.kind === 'connection error');
      expect(errors.length).toBeLessThanOrEqual(2 * 12);
      const replacementsServed = outcomes.filter(({ outcome, phase }) => phase === 1 && outcome.kind === 'answer').length;
      expect(replacementsServed).toBeGreaterThan(0);
      expect(workers.service.output()).toMatch(/worker died: starting a replacement/);
    }, 120000);
  },
  ['TEST_DATABASE_URL'],
);
