import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { createScratchDatabase, startOn, stopService } from '../store/scale/support';
import type { ServiceProcess } from './server-process';

/** Pids of the cluster workers of the primary `pid`. */
export function workerPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there is none
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the primary of a `WORKERS=2` service started with LOG_LEVEL=info has two workers again,
 * none of them in `gone`, and every worker started so far (the two originals and one replacement per
 * pid in `gone`) has logged "listening". Returns the workers' pids.
 */
export async function untilWorkersServe(service: ServiceProcess, gone: number[] = []): Promise<number[]> {
  for (;;) {
    const pids = workerPids(service.child.pid!);
    const listening = service.output().match(/"msg":"listening"/g)?.length ?? 0;
    if (pids.length === 2 && pids.every((pid) => !gone.includes(pid)) && listening >= 2 + gone.length) return pids;
    await sleep(50);
  }
}

/** One GET on a connection of its own (so any worker may accept it): its status, content type and body. */
export function getOnOwnConnection(baseUrl: string, path: string): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    // No time bound: an answer that never comes is a hang, which the test's timeout catches.
    const req = request(baseUrl + path, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A `WORKERS=2` service (LOG_LEVEL info: each worker logs "listening") on a scratch database, for the
 * enclosing describe: started in beforeAll; in afterAll stopped, expecting exit 0 (on failure, the
 * end of its log says which process did not stop cleanly), and its database dropped.
 */
export function twoWorkers(): { readonly service: ServiceProcess } {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    database = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    service = await startOn(database.url, { WORKERS: '2', LOG_LEVEL: 'info' });
  }, 60000);
  afterAll(async () => {
    if (service) expect({ code: await stopService(service), log: service.output().slice(-3000) }).toMatchObject({ code: 0 });
    await database?.drop();
  }, 60000);
  return {
    get service() {
      return service!;
    },
  };
}
