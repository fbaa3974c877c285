import { createPostgresStore } from '../../src/store/postgres';
import { createPool } from '../../src/store/postgres/pool';
import { loadSeed } from '../../src/store/seed';
import { makeApp, makeStore } from '../support/app';
import { unreachable } from '../support/unreachable-store';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../support/postgres';
import { startTcpProxy, viaPort } from '../support/tcp-proxy';

describe('HTTP when storage is unreachable', () => {
  it('when a JSON-family request needs storage, then it answers 503 in the JSON error format with Retry-After', async () => {
    const { http } = makeApp({ store: unreachable(makeStore()) });
    const res = await http.post('/books').send({ title: 'Kindred' }).expect(503).expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ error: 'Service unavailable' });
    expect(res.headers['retry-after']).toBe('1');
    await http.get('/tasks/1').expect(503);
  });

  it('when an items request needs storage, then it answers 503 as one line of plain text', async () => {
    const { http } = makeApp({ store: unreachable(makeStore()) });
    const res = await http.get('/items').expect(503).expect('Content-Type', 'text/plain; charset=utf-8');
    expect(res.text).toBe('Service unavailable');
  });

  it('when /health is asked, then it answers 503 with status unavailable', async () => {
    const { http } = makeApp({ store: unreachable(makeStore()) });
    const res = await http.get('/health').expect(503);
    expect(res.body.status).toBe('unavailable');
  });

  it('when a request does not need storage, then it still answers', async () => {
    const { http } = makeApp({ store: unreachable(makeStore()) });
    await http.get('/greet/fr').expect(200);
  });
});

describePostgres('HTTP on PostgreSQL when the connection to the database is cut', () => {
  const db = new TestDatabase(testDatabaseUrl()!);

  it('when the database goes away, then requests answer 503 (never 500) and /health 503; when it is back, they succeed', async () => {
    const target = new URL(testDatabaseUrl()!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const pool = createPool(viaPort(testDatabaseUrl()!, proxy.port));
    try {
      const store = await createPostgresStore({ pool, schema: db.newSchema(), seed: loadSeed('default') });
      const { http } = makeApp({ store });
      await http.get('/health').expect(200);
      proxy.cut();
      await http.get('/health').expect(503);
      const statuses = await Promise.all([
        http.get('/books').then((r) => r.status),
        http.post('/books').send({ title: 'Lost' }).then((r) => r.status),
        http.put('/tasks/1').send({ done: true }).then((r) => r.status),
        http.delete('/items/1').then((r) => r.status),
      ]);
      expect(statuses).toEqual([503, 503, 503, 503]);
      proxy.restore();
      await http.get('/health').expect(200);
      const books = await http.get('/books').expect(200);
      expect(books.body.map((b: { title: string }) => b.title)).not.toContain('Lost');
      await http.get('/items/1').expect(200);
    } finally {
      await pool.end();
      await proxy.close();
    }
  });
});

describe('GraphQL when storage is unreachable', () => {
  it('when a query needs storage, then the error says the service is unavailable (SERVICE_UNAVAILABLE), not a masked internal error', async () => {
    const { http } = makeApp({ store: unreachable(makeStore()) });
    const res = await http.post('/graphql').send({ query: '{ books { title } }' }).expect(200);
    expect(res.body).toEqual({
      data: null,
      errors: [
        {
          message: 'Service unavailable: storage is unreachable; retry later.',
          locations: [{ line: 1, column: 3 }],
          path: ['books'],
          extensions: { code: 'SERVICE_UNAVAILABLE' },
        },
      ],
    });
  });
});
