import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { makeApp, snapshot, type TestApp } from '../support/app';
import { expectJsonError, expectNoInternals, expectTextError } from '../support/rest-expect';

/** A raw request on a real socket (port 0), for what supertest cannot send: chunked bodies, no Content-Type. */
async function raw(app: TestApp['app'], method: string, path: string, headers: http.OutgoingHttpHeaders, chunks: string[]) {
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
      const req = http.request({ port: (server.address() as AddressInfo).port, method, path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text }));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  } finally {
    server.close();
  }
}

describe('405 Method Not Allowed', () => {
  const cases: [string, string, string, 'json' | 'text'][] = [
    ['delete', '/books', 'GET, POST', 'json'],
    ['post', '/books/1', 'GET, PUT, DELETE, PATCH', 'json'],
    ['patch', '/books', 'GET, POST', 'json'],
    ['put', '/todos', 'GET, POST', 'json'],
    ['post', '/notes', 'GET', 'json'],
    ['post', '/notes/1', 'GET, PUT, DELETE, PATCH', 'json'],
    ['put', '/items/1', 'GET, DELETE', 'text'],
    ['delete', '/items', 'GET, POST', 'text'],
    ['patch', '/items/1', 'GET, DELETE', 'text'],
    ['post', '/tasks/1', 'GET, PUT, DELETE, PATCH', 'json'],
    ['delete', '/tasks', 'GET, POST', 'json'],
    ['put', '/greet/en', 'GET', 'text'],
    ['delete', '/health', 'GET', 'json'],
  ];
  it.each(cases)('when %s %s, then it answers 405 with Allow: %s in the %s format', async (method, path, allow, format) => {
    const { http: agent } = makeApp();
    const res = await (agent as any)[method](path);
    if (format === 'json') expectJsonError(res, 405);
    else expectTextError(res, 405);
    expect(res.headers.allow).toBe(allow);
  });
});

describe('HEAD', () => {
  it.each(['/books', '/books/1', '/notes', '/items/2', '/tasks/1', '/greet/fr', '/health', '/items/99', '/books/99', '/books/abc'])(
    'when HEAD %s, then it answers the GET status and headers with no body',
    async (path) => {
      const { http: agent } = makeApp();
      const get = await agent.get(path);
      const head = await agent.head(path);
      expect(head.status).toBe(get.status);
      for (const name of ['content-type', 'content-length', 'x-total-count', 'link']) expect([name, head.headers[name]]).toEqual([name, get.headers[name]]);
      expect(head.text ?? '').toBe('');
    },
  );

  it('when HEAD is sent to an unknown path, then it answers 404', async () => {
    const { http: agent } = makeApp();
    expect((await agent.head('/nowhere')).status).toBe(404);
  });
});

describe('OPTIONS', () => {
  it.each([
    ['/books', 'GET, POST'],
    ['/books/1', 'GET, PUT, DELETE, PATCH'],
    ['/todos', 'GET, POST'],
    ['/notes', 'GET'],
    ['/items/1', 'GET, DELETE'],
    ['/tasks', 'GET, POST'],
    ['/greet/fr', 'GET'],
    ['/health', 'GET'],
  ])('when OPTIONS %s, then it answers 204 with Allow: %s and no body', async (path, allow) => {
    const { http: agent } = makeApp();
    const res = await agent.options(path).expect(204);
    expect(res.headers.allow).toBe(allow);
    expect(res.text ?? '').toBe('');
  });

  it('when OPTIONS is sent to an unknown path, then it answers 404 in the JSON format', async () => {
    const { http: agent } = makeApp();
    expectJsonError(await agent.options('/nowhere'), 404);
  });
});

describe('unknown paths', () => {
  it.each(['/', '/nowhere', '/books/1/pages', '/todos/1', '/BOOKS', '//books', '/items/1/extra', '/greet'])(
    'when GET %s, then it answers 404 in the JSON error format',
    async (path) => {
      const { http: agent } = makeApp();
      expectJsonError(await agent.get(path), 404);
    },
  );

  it('when POST goes to an unknown path with a body, then it answers 404 JSON (not 415 or 400)', async () => {
    const { http: agent } = makeApp();
    expectJsonError(await agent.post('/nowhere').set('Content-Type', 'text/plain').send('x'), 404);
  });
});

describe('trailing slash (decision: ignored, the same resource)', () => {
  it('when /books/ and /books/1/ are read, then they answer as /books and /books/1', async () => {
    const { http: agent } = makeApp();
    expect((await agent.get('/books/').expect(200)).body).toEqual((await agent.get('/books')).body);
    await agent.get('/books/1/').expect(200, { id: 1, title: 'The Hobbit', pages: 310 });
  });

  it('when paginating on /books/, then the Link header points at the canonical /books', async () => {
    const { http: agent } = makeApp();
    expect((await agent.get('/books/?limit=2').expect(200)).headers.link).toMatch(/^<\/books\?limit=2&after=[\w.-]+>; rel="next"$/);
    expect((await agent.get('/books/?limit=2&offset=0').expect(200)).headers.link).toBe('</books?limit=2&offset=2>; rel="next"');
  });

  it('when an items path has a trailing slash, then its errors keep the plain-text format', async () => {
    const { http: agent } = makeApp();
    expectTextError(await agent.get('/items/42/'), 404);
  });
});

describe('request bodies', () => {
  it('when the Content-Type is not JSON, then JSON families answer 415 and nothing is stored', async () => {
    const { http: agent, store } = makeApp();
    const before = await snapshot(store);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/merge-patch+json']) {
      expectJsonError(await agent.post('/books').set('Content-Type', type).send('title=x'), 415);
    }
    expectJsonError(await agent.put('/tasks/1').set('Content-Type', 'text/plain').send('{}'), 415);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when a body comes with no Content-Type at all, then it answers 415', async () => {
    const { app } = makeApp();
    const res = await raw(app, 'POST', '/books', { 'Content-Length': 16 }, ['{"title":"Emma"}']);
    expect(res.status).toBe(415);
  });

  it('when the JSON charset is utf-8 in any case, then it is accepted; another charset is a 415', async () => {
    const { http: agent } = makeApp();
    await agent.post('/books').set('Content-Type', 'application/json; charset=UTF-8').send('{"title":"Emma"}').expect(201);
    expectJsonError(await agent.post('/books').set('Content-Type', 'application/json; charset=latin1').send('{"title":"Emma"}'), 415);
  });

  it('when the body is not valid JSON, then it answers 400 in the JSON format', async () => {
    const { http: agent } = makeApp();
    for (const text of ['{"title":', "{'title':'x'}", '{"title":"x"}}', 'undefined']) {
      expect(expectJsonError(await agent.post('/books').set('Content-Type', 'application/json').send(text), 400).error).toMatch(/JSON/);
    }
  });

  it('when the body is over the configured limit, then it answers 413 (declared length or chunked)', async () => {
    const { http: agent, app, store } = makeApp({ config: { bodyLimit: 100 } });
    const before = await snapshot(store);
    const big = JSON.stringify({ title: 'x'.repeat(200) });
    expect(expectJsonError(await agent.post('/books').send(big).set('Content-Type', 'application/json'), 413).error).toBe('Request body is larger than 100 bytes');
    const chunked = await raw(app, 'POST', '/books', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, [big.slice(0, 90), big.slice(90)]);
    expect([chunked.status, chunked.type]).toEqual([413, 'application/json; charset=utf-8']);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the body is exactly at the limit, then it is accepted', async () => {
    const body = JSON.stringify({ title: 'x'.repeat(50) });
    const { http: agent } = makeApp({ config: { bodyLimit: Buffer.byteLength(body) } });
    await agent.post('/books').set('Content-Type', 'application/json').send(body).expect(201);
  });

  it('when a GET carries a body, then the body is ignored', async () => {
    const { http: agent } = makeApp();
    await agent.get('/books/1').set('Content-Type', 'text/plain').send('ignored').expect(200);
  });
});

describe('unexpected errors', () => {
  it('when storage throws, then it answers 500 {"error": "Unexpected error."} (GraphQL\'s words too) with no internals and logs the error in full', async () => {
    const base = createMemoryStore(loadSeed('default'));
    const failing = { ...base, books: { ...base.books, list: async () => Promise.reject(new Error('disk on fire at /var/db')) } };
    const { http: agent, logs } = makeApp({ store: failing as typeof base });
    const res = await agent.get('/books');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Unexpected error.' });
    expectNoInternals(res.text);
    const logged = logs.find((line) => line.level === 'error');
    expect(JSON.stringify(logged)).toMatch(/disk on fire/);
    expect(logged?.requestId).toBe(res.headers['x-request-id']);
  });
});
