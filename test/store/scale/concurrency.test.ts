import { Client } from 'pg';
import type { ServiceProcess } from '../../support/server-process';
import { describePostgres } from '../../support/postgres';
import { call, createScratchDatabase, startOn, stopService, type Answer } from './support';

describePostgres(
  'two service processes on one PostgreSQL database',
  () => {
    let database: Awaited<ReturnType<typeof createScratchDatabase>>;
    const services: ServiceProcess[] = [];

    beforeAll(async () => {
      database = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
      // Started together: both apply migrations and the seed at once; one of them runs two cluster workers.
      services.push(...(await Promise.all([startOn(database.url), startOn(database.url, { WORKERS: '2' })])));
    }, 60000);

    afterAll(async () => {
      const codes = await Promise.all(services.map(stopService));
      await database?.drop();
      expect(codes).toEqual(services.map(() => 0));
    }, 60000);

    it('when both start at once, then the seed is there once', async () => {
      const [a, b] = await Promise.all(services.map((s) => call(s.baseUrl, 'GET', '/books')));
      expect(a.status).toBe(200);
      expect(b.body).toEqual(a.body);
      expect((a.body as unknown[]).length).toBeGreaterThan(0);
      const ids = (a.body as { id: number }[]).map((book) => book.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('when 400 creates go through both at once, then every id is unique and gapless, none is lost, the count is exact, a create answered before another was asked has the smaller id, and creates share transactions', async () => {
      const before = (await call(services[0].baseUrl, 'GET', '/items')).body as { id: number }[];
      // Sixteen clients, eight on each service, each creating one item after another; a shared clock of asks and answers.
      let clock = 0;
      const client = async (n: number) => {
        const mine: { asked: number; answered: number; answer: Answer }[] = [];
        for (let i = 0; i < 25; i += 1) {
          const asked = (clock += 1);
          const answer = await call(services[n % 2].baseUrl, 'POST', '/items', { name: `load item ${n}-${i}` });
          mine.push({ asked, answered: (clock += 1), answer });
        }
        return mine;
      };
      const creates = (await Promise.all(Array.from({ length: 16 }, (_, n) => client(n)))).flat();
      expect(creates.map((c) => c.answer.status)).toEqual(creates.map(() => 201));
      const made = creates.map((c) => c.answer.body as { id: number; name: string });
      const ids = made.map((item) => item.id).sort((a, b) => a - b);
      const first = Math.max(0, ...before.map((item) => item.id)) + 1;
      expect(ids).toEqual(Array.from({ length: 400 }, (_, i) => first + i));
      const withId = creates.map((c) => ({ ...c, id: (c.answer.body as { id: number }).id }));
      const outOfOrder = withId.flatMap((a) => withId.filter((b) => a.answered < b.asked && a.id > b.id).map((b) => [a.id, b.id]));
      expect(outOfOrder).toEqual([]);

      const [viaA, viaB] = await Promise.all(services.map((s) => call(s.baseUrl, 'GET', '/items')));
      expect(viaB.body).toEqual(viaA.body);
      const listed = viaA.body as { id: number; name: string }[];
      expect(listed).toHaveLength(before.length + 400);
      const byId = new Map(listed.map((item) => [item.id, item.name]));
      for (const item of made) expect(byId.get(item.id)).toBe(item.name);
      // Rows inserted by one transaction share its xmin.
      const admin = new Client({ connectionString: database.url });
      await admin.connect();
      try {
        const { rows } = await admin.query('SELECT count(DISTINCT xmin::text)::int AS n FROM items WHERE id >= $1', [first]);
        expect(rows[0].n).toBeLessThan(400);
      } finally {
        await admin.end();
      }
    }, 60000);
  },
  ['TEST_DATABASE_URL', 'TEST_PG_CONTROL'],
);
