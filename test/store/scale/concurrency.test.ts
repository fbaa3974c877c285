import type { ServiceProcess } from '../../support/server-process';
import { describePostgres } from '../../support/postgres';
import { call, createScratchDatabase, startOn, stopService } from './support';

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

    it('when 400 creates go through both at once, then every id is unique, none is lost and the count is exact', async () => {
      const before = (await call(services[0].baseUrl, 'GET', '/items')).body as { id: number }[];
      const answers = await Promise.all(
        Array.from({ length: 400 }, (_, i) => call(services[i % 2].baseUrl, 'POST', '/items', { name: `load item ${i}` })),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      const made = answers.map((a) => a.body as { id: number; name: string });
      const ids = made.map((item) => item.id);
      expect(new Set(ids).size).toBe(400);
      expect(Math.min(...ids)).toBeGreaterThan(Math.max(0, ...before.map((item) => item.id)));

      const [viaA, viaB] = await Promise.all(services.map((s) => call(s.baseUrl, 'GET', '/items')));
      expect(viaB.body).toEqual(viaA.body);
      const listed = viaA.body as { id: number; name: string }[];
      expect(listed).toHaveLength(before.length + 400);
      const byId = new Map(listed.map((item) => [item.id, item.name]));
      for (const item of made) expect(byId.get(item.id)).toBe(item.name);
    }, 60000);
  },
  ['TEST_DATABASE_URL', 'TEST_PG_CONTROL'],
);
