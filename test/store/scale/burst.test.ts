import { Client } from 'pg';
import type { ServiceProcess } from '../../support/server-process';
import { describePostgres } from '../../support/postgres';
import { call, createScratchDatabase, startOn, stopService, type Answer } from './support';

const BUSY = { error: 'Server busy, retry later' };

/** One GET with its Retry-After header. */
async function get(baseUrl: string, path: string): Promise<Answer & { retryAfter: string | null }> {
  const res = await fetch(baseUrl + path);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after') };
}

describePostgres(
  'a burst of requests against a healthy PostgreSQL database',
  () => {
    let database: Awaited<ReturnType<typeof createScratchDatabase>>;
    let roomy: ServiceProcess;
    let tiny: ServiceProcess;
    let admin: Client;

    /** Holds an exclusive lock on books until the returned function is called: every statement on books waits. */
    async function lockBooks(): Promise<() => Promise<void>> {
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE books IN ACCESS EXCLUSIVE MODE');
      return async () => void (await admin.query('COMMIT'));
    }

    /** Waits until `n` statements of the services wait for a lock in this database. */
    async function untilBlocked(n: number): Promise<void> {
      for (;;) {
        const { rows } = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (rows[0].n >= n) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    beforeAll(async () => {
      database = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
      roomy = await startOn(database.url);
      // One connection, at most 5 waiting, each for at most 500 ms: load is shed early.
      tiny = await startOn(database.url, { DB_POOL_SIZE: '1', DB_QUEUE_LIMIT: '5', DB_QUEUE_TIMEOUT_MS: '500' });
      admin = new Client({ connectionString: database.url });
      await admin.connect();
    }, 60000);

    afterAll(async () => {
      await admin?.end();
      await Promise.all([roomy, tiny].filter(Boolean).map(stopService));
      await database?.drop();
    }, 60000);

    it('when 300 list requests arrive at once (10 connections), then every one is answered 200 with the same list, and /health 200 meanwhile', async () => {
      const expected = (await call(roomy.baseUrl, 'GET', '/books')).body;
      const burst = Promise.all(Array.from({ length: 300 }, () => call(roomy.baseUrl, 'GET', '/books')));
      const health = await call(roomy.baseUrl, 'GET', '/health');
      const answers = await burst;
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      for (const a of answers) expect(a.body).toEqual(expected);
      expect(health).toEqual({ status: 200, body: expect.objectContaining({ status: 'ok', storage: 'postgres' }) });
    }, 60000);

    it('when one GraphQL request reads 30 books at once (20 of its statements wait for a connection), then it is answered and the service warns of no listener leak', async () => {
      const query = `{ ${Array.from({ length: 30 }, (_, i) => `b${i}: book(id: "${(i % 3) + 1}") { id }`).join(' ')} }`;
      const answer = await call(roomy.baseUrl, 'POST', '/graphql', { query });
      expect(answer.status).toBe(200);
      expect(Object.keys((answer.body as { data: object }).data)).toHaveLength(30);
      expect(roomy.output()).not.toMatch(/MaxListenersExceededWarning/);
    }, 60000);

    it('when more requests wait than DB_QUEUE_LIMIT, then the extra ones get 503 "Server busy, retry later" with Retry-After, never "Service unavailable"', async () => {
      const answers = await Promise.all(Array.from({ length: 300 }, () => get(tiny.baseUrl, '/books')));
      const shed = answers.filter((a) => a.status === 503);
      expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
      expect(shed.length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
      for (const a of shed) expect(a).toEqual({ status: 503, body: BUSY, retryAfter: '1' });
      // Shedding is momentary: the next request is served.
      expect((await get(tiny.baseUrl, '/books')).status).toBe(200);
    }, 60000);

    it('when a request waits longer than DB_QUEUE_TIMEOUT_MS for a connection, then it gets 503 busy, and the running one still succeeds', async () => {
      const unlock = await lockBooks();
      try {
        const running = get(tiny.baseUrl, '/books');
        await untilBlocked(1);
        // The only connection is held by a statement waiting for the lock: these three wait in the queue, then give up.
        const waiting = await Promise.all([1, 2, 3].map(() => get(tiny.baseUrl, '/books')));
        expect(waiting).toEqual([1, 2, 3].map(() => ({ status: 503, body: BUSY, retryAfter: '1' })));
        await unlock();
        expect((await running).status).toBe(200);
      } finally {
        await admin.query('ROLLBACK').catch(() => undefined);
      }
    }, 60000);

    it('when every connection is held by a waiting statement and more requests queue, then /health still answers 200, and all of them succeed after', async () => {
      const unlock = await lockBooks();
      try {
        const held = Array.from({ length: 40 }, () => get(roomy.baseUrl, '/books'));
        await untilBlocked(10);
        // All 10 pool connections wait for the lock and 30 requests wait for a connection; /health has its own.
        const health = await get(roomy.baseUrl, '/health');
        expect(health.status).toBe(200);
        expect(health.body).toEqual(expect.objectContaining({ status: 'ok' }));
        await unlock();
        expect((await Promise.all(held)).map((a) => a.status)).toEqual(held.map(() => 200));
      } finally {
        await admin.query('ROLLBACK').catch(() => undefined);
      }
    }, 60000);
  },
  ['TEST_DATABASE_URL'],
);
