import { createPostgresStore } from '../../src/store/postgres';
import { loadSeed } from '../../src/store/seed';
import { makeApp } from '../support/app';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../support/postgres';
import { scrape } from './scrape';

describePostgres('PostgreSQL pool metrics', () => {
  const db = new TestDatabase(testDatabaseUrl()!);

  it('when the store has served concurrent queries, then poolStats and the pool gauges report its open, idle and waiting connections', async () => {
    const store = await createPostgresStore({ url: testDatabaseUrl()!, schema: db.newSchema(), seed: loadSeed('default'), poolSize: 2 });
    try {
      const queries = Array.from({ length: 5 }, () => store.books.list());
      // Issued at once against 2 connections: 3 wait in the queue, none is idle yet.
      await new Promise((resolve) => setImmediate(resolve));
      const during = store.poolStats!();
      expect(during).toEqual({ size: during.size, idle: 0, waiting: 3 });
      expect(during.size).toBeLessThanOrEqual(2);
      await Promise.all(queries);
      const after = store.poolStats!();
      expect(after.size).toBeGreaterThanOrEqual(1);
      expect(after).toEqual({ size: after.size, idle: after.size, waiting: 0 });

      const metrics = await scrape(makeApp({ store }).http);
      expect({
        size: metrics.value('pg_pool_connections'),
        idle: metrics.value('pg_pool_idle_connections'),
        waiting: metrics.value('pg_pool_waiting_requests'),
      }).toEqual(store.poolStats!());
    } finally {
      await store.close();
    }
  });
});
