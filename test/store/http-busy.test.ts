import { OverloadedError } from '../../src/store/errors';
import type { Store } from '../../src/store/types';
import { makeApp, makeStore, snapshot } from '../support/app';

/** A store whose every repository call is load-shed (no connection free in time), as the PostgreSQL store's queue does. */
function busy(store: Store): Store {
  const fail = async () => {
    throw new OverloadedError('Server busy: no storage connection within 10000 ms');
  };
  const collection = { list: fail, get: fail, create: fail, update: fail, delete: fail, listByParents: fail };
  const names = ['books', 'todos', 'notes', 'items', 'tasks', 'users', 'posts', 'comments'] as const;
  return { ...store, ...Object.fromEntries(names.map((n) => [n, { ...collection, parentKey: 'id' }])) } as unknown as Store;
}

describe('HTTP when storage is busy (load shed)', () => {
  it('when a JSON-family request is shed, then 503 "Server busy, retry later" with Retry-After, not "Service unavailable", and nothing stored', async () => {
    const store = makeStore();
    const before = await snapshot(store);
    const { http } = makeApp({ store: busy(store) });
    const res = await http.post('/books').send({ title: 'Kindred' }).expect(503).expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ error: 'Server busy, retry later' });
    expect(res.headers['retry-after']).toBe('1');
    expect((await http.get('/tasks/1').expect(503)).body).toEqual({ error: 'Server busy, retry later' });
    expect(await snapshot(store)).toEqual(before);
  });

  it('when an items request is shed, then 503 with the busy message as one line of plain text', async () => {
    const { http } = makeApp({ store: busy(makeStore()) });
    const res = await http.get('/items').expect(503).expect('Content-Type', 'text/plain; charset=utf-8');
    expect(res.text).toBe('Server busy, retry later');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('when /health is asked while requests are shed, then it still answers 200 (it has its own connection)', async () => {
    const { http } = makeApp({ store: busy(makeStore()) });
    expect((await http.get('/health').expect(200)).body.status).toBe('ok');
  });

  it('when a GraphQL query is shed, then the error says the server is busy in the words REST uses (SERVER_BUSY), not unavailable and not masked', async () => {
    const { http, logs } = makeApp({ store: busy(makeStore()) });
    const res = await http.post('/graphql').send({ query: '{ books { title } }' }).expect(200);
    expect(res.body).toEqual({
      data: null,
      errors: [{ message: 'Server busy, retry later', locations: [{ line: 1, column: 3 }], path: ['books'], extensions: { code: 'SERVER_BUSY' } }],
    });
    expect(logs.some((line) => line.msg === 'graphql resolver failed' && line.level === 'warn')).toBe(true);
  });
});
