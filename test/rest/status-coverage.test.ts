import type { Response } from 'supertest';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { SignJWT } from 'jose';
import { loadConfig } from '../../src/config';
import { HTTP_METHODS, securityScopes } from '../../src/http/spec-routes';
import { loadOpenApi } from '../../src/spec';
import { makeApp, makeStore, type TestApp } from '../support/app';
import { useRealClock, useTestClock } from '../support/clock';
import { gated } from '../support/idempotency';
import { unreachable } from '../support/unreachable-store';

/**
 * Every (operation, documented status) pair of openapi.yaml, each with a request that triggers it.
 * The table must list exactly the pairs the spec declares: a status added to the spec without a
 * request here fails the first test. Response validation checks each answer's body against the spec.
 */
type Trigger = (t: TestApp) => Promise<Response>;
const LIMIT = 64;
const big = (field: string) => ({ [field]: 'x'.repeat(LIMIT * 2) });
const text = (t: TestApp, method: 'post' | 'put' | 'patch', path: string) => t.http[method](path).set('Content-Type', 'text/plain').send('x');
/** A PATCH of `body` as a JSON merge patch (RFC 7396). */
const mergePatch = (t: TestApp, path: string, body: object) => t.http.patch(path).set('Content-Type', 'application/merge-patch+json').send(JSON.stringify(body));

/** The same key twice, with another body the second time: 422. */
const keyReused =
  (path: string, first: object, second: object): Trigger =>
  async (t) => {
    await t.http.post(path).set('Idempotency-Key', 'k').send(first);
    return t.http.post(path).set('Idempotency-Key', 'k').send(second);
  };

/** The same key while the first request with it is still running: 409. */
const keyInProgress =
  (path: string, body: object): Trigger =>
  async () => {
    const { store, release, started } = gated(makeStore());
    const { http } = makeApp({ store, config: { bodyLimit: LIMIT } });
    const first = http.post(path).set('Idempotency-Key', 'k').send(body).then((res) => res);
    await started;
    const second = await http.post(path).set('Idempotency-Key', 'k').send(body);
    release();
    await first;
    return second;
  };

/** 304: GET `path` again with the ETag the first GET gave. */
const unchanged = async (t: TestApp, path: string) => t.http.get(path).set('If-None-Match', (await t.http.get(path)).headers.etag);
/** 412: a request whose If-Match names a tag no record has. */
const stale = '"stale"';

const TRIGGERS: Record<string, Trigger> = {
  'listBooks 304': (t) => unchanged(t, '/books'),
  'listBooks 412': (t) => t.http.get('/books').set('If-Match', stale),
  'getBook 304': (t) => unchanged(t, '/books/1'),
  'getBook 412': (t) => t.http.get('/books/1').set('If-Match', stale),
  'updateBook 412': (t) => t.http.put('/books/1').set('If-Match', stale).send({ title: 'Emma' }),
  'deleteBook 412': (t) => t.http.delete('/books/1').set('If-None-Match', '*'),
  'listTodos 304': (t) => unchanged(t, '/todos'),
  'listTodos 412': (t) => t.http.get('/todos').set('If-Match', stale),
  'listNotes 304': (t) => unchanged(t, '/notes?limit=1'),
  'listNotes 412': (t) => t.http.get('/notes').set('If-Match', stale),
  'getNote 304': (t) => unchanged(t, '/notes/1'),
  'getNote 412': (t) => t.http.get('/notes/1').set('If-Match', stale),
  'updateNote 412': (t) => t.http.put('/notes/1').set('If-Match', stale).send({ body: 'New' }),
  'deleteNote 412': (t) => t.http.delete('/notes/1').set('If-Match', stale),
  'listItems 304': (t) => unchanged(t, '/items'),
  'listItems 412': (t) => t.http.get('/items').set('If-Match', stale),
  'getItem 304': (t) => unchanged(t, '/items/1'),
  'getItem 412': (t) => t.http.get('/items/1').set('If-Match', stale),
  'deleteItem 412': (t) => t.http.delete('/items/1').set('If-Match', stale),
  'listTasks 304': (t) => unchanged(t, '/tasks'),
  'listTasks 412': (t) => t.http.get('/tasks').set('If-Match', stale),
  'getTask 304': (t) => unchanged(t, '/tasks/1'),
  'getTask 412': (t) => t.http.get('/tasks/1').set('If-Match', stale),
  'updateTask 412': (t) => t.http.put('/tasks/1').set('If-None-Match', '*').send({}),
  'deleteTask 412': (t) => t.http.delete('/tasks/1').set('If-Match', stale),
  'listBooks 200': (t) => t.http.get('/books'),
  'listBooks 400': (t) => t.http.get('/books?limit=0'),
  'createBook 201': (t) => t.http.post('/books').send({ title: 'Emma' }),
  'createBook 400': (t) => t.http.post('/books').send({}),
  'createBook 413': (t) => t.http.post('/books').send(big('title')),
  'createBook 415': (t) => text(t, 'post', '/books'),
  'createBook 409': keyInProgress('/books', { title: 'Emma' }),
  'createBook 422': keyReused('/books', { title: 'Emma' }, { title: 'Ubik' }),
  'getBook 200': (t) => t.http.get('/books/1'),
  'getBook 400': (t) => t.http.get('/books/0'),
  'getBook 404': (t) => t.http.get('/books/99'),
  'updateBook 200': (t) => t.http.put('/books/1').send({ title: 'Emma' }),
  'updateBook 400': (t) => t.http.put('/books/1').send({ title: ' ' }),
  'updateBook 404': (t) => t.http.put('/books/99').send({ title: 'Emma' }),
  'updateBook 413': (t) => t.http.put('/books/1').send(big('title')),
  'updateBook 415': (t) => text(t, 'put', '/books/1'),
  'patchBook 200': (t) => mergePatch(t, '/books/1', { pages: 320 }),
  'patchBook 400': (t) => mergePatch(t, '/books/1', { title: null }),
  'patchBook 404': (t) => mergePatch(t, '/books/99', { pages: 1 }),
  'patchBook 412': (t) => mergePatch(t, '/books/1', { pages: 1 }).set('If-Match', stale),
  'patchBook 413': (t) => mergePatch(t, '/books/1', big('title')),
  'patchBook 415': (t) => t.http.patch('/books/1').send({ pages: 1 }),
  'deleteBook 204': (t) => t.http.delete('/books/1'),
  'deleteBook 400': (t) => t.http.delete('/books/x'),
  'deleteBook 404': (t) => t.http.delete('/books/99'),
  'listTodos 200': (t) => t.http.get('/todos'),
  'listTodos 400': (t) => t.http.get('/todos?offset=-1'),
  'createTodo 201': (t) => t.http.post('/todos').send({ text: 'Call mum' }),
  'createTodo 400': (t) => t.http.post('/todos').send({ text: 'x', id: 1 }),
  'createTodo 413': (t) => t.http.post('/todos').send(big('text')),
  'createTodo 415': (t) => text(t, 'post', '/todos'),
  'createTodo 409': keyInProgress('/todos', { text: 'Call mum' }),
  'createTodo 422': keyReused('/todos', { text: 'Call mum' }, { text: 'Call dad' }),
  'listNotes 200': (t) => t.http.get('/notes'),
  'listNotes 400': (t) => t.http.get('/notes?limit=x'),
  'getNote 200': (t) => t.http.get('/notes/1'),
  'getNote 400': (t) => t.http.get('/notes/-1'),
  'getNote 404': (t) => t.http.get('/notes/99'),
  'updateNote 200': (t) => t.http.put('/notes/1').send({ body: 'New' }),
  'updateNote 400': (t) => t.http.put('/notes/1').send({ body: 5 }),
  'updateNote 404': (t) => t.http.put('/notes/99').send({ body: 'New' }),
  'updateNote 413': (t) => t.http.put('/notes/1').send(big('body')),
  'updateNote 415': (t) => text(t, 'put', '/notes/1'),
  'patchNote 200': (t) => mergePatch(t, '/notes/1', { body: 'New' }),
  'patchNote 400': (t) => mergePatch(t, '/notes/1', { body: null }),
  'patchNote 404': (t) => mergePatch(t, '/notes/99', { body: 'New' }),
  'patchNote 412': (t) => mergePatch(t, '/notes/1', { body: 'New' }).set('If-None-Match', '*'),
  'patchNote 413': (t) => mergePatch(t, '/notes/1', big('body')),
  'patchNote 415': (t) => text(t, 'patch', '/notes/1'),
  'deleteNote 204': (t) => t.http.delete('/notes/1'),
  'deleteNote 400': (t) => t.http.delete('/notes/1.5'),
  'deleteNote 404': (t) => t.http.delete('/notes/99'),
  'listItems 200': (t) => t.http.get('/items'),
  'listItems 400': (t) => t.http.get('/items?limit=1001'),
  'createItem 201': (t) => t.http.post('/items').send({ name: 'Saw' }),
  'createItem 400': (t) => t.http.post('/items').set('Content-Type', 'application/json').send('{'),
  'createItem 413': (t) => t.http.post('/items').send(big('name')),
  'createItem 415': (t) => text(t, 'post', '/items'),
  'createItem 409': keyInProgress('/items', { name: 'Saw' }),
  'createItem 422': keyReused('/items', { name: 'Saw' }, { name: 'Drill' }),
  'getItem 200': (t) => t.http.get('/items/1'),
  'getItem 400': (t) => t.http.get('/items/abc'),
  'getItem 404': (t) => t.http.get('/items/99'),
  'deleteItem 204': (t) => t.http.delete('/items/1'),
  'deleteItem 400': (t) => t.http.delete('/items/0'),
  'deleteItem 404': (t) => t.http.delete('/items/99'),
  'listTasks 200': (t) => t.http.get('/tasks'),
  'listTasks 400': (t) => t.http.get('/tasks?sort=id'),
  'createTask 201': (t) => t.http.post('/tasks').send({ title: 'Plan' }),
  'createTask 400': (t) => t.http.post('/tasks'),
  'createTask 413': (t) => t.http.post('/tasks').send(big('title')),
  'createTask 415': (t) => text(t, 'post', '/tasks'),
  'createTask 409': keyInProgress('/tasks', { title: 'Plan' }),
  'createTask 422': keyReused('/tasks', { title: 'Plan' }, { title: 'Act' }),
  'getTask 200': (t) => t.http.get('/tasks/1'),
  'getTask 400': (t) => t.http.get('/tasks/99999999999999999999'),
  'getTask 404': (t) => t.http.get('/tasks/99'),
  'updateTask 200': (t) => t.http.put('/tasks/1').send({}),
  'updateTask 400': (t) => t.http.put('/tasks/1').send({ done: 'yes' }),
  'updateTask 404': (t) => t.http.put('/tasks/99').send({ done: true }),
  'updateTask 413': (t) => t.http.put('/tasks/1').send(big('title')),
  'updateTask 415': (t) => text(t, 'put', '/tasks/1'),
  'patchTask 200': (t) => mergePatch(t, '/tasks/1', {}),
  'patchTask 400': (t) => mergePatch(t, '/tasks/1', { done: null }),
  'patchTask 404': (t) => mergePatch(t, '/tasks/99', { done: true }),
  'patchTask 412': (t) => mergePatch(t, '/tasks/1', { done: true }).set('If-Match', stale),
  'patchTask 413': (t) => mergePatch(t, '/tasks/1', big('title')),
  'patchTask 415': (t) => t.http.patch('/tasks/1').send({ done: true }),
  'deleteTask 204': (t) => t.http.delete('/tasks/1'),
  'deleteTask 400': (t) => t.http.delete('/tasks/abc'),
  'deleteTask 404': (t) => t.http.delete('/tasks/99'),
  'greet 200': (t) => t.http.get('/greet/fr-CA'),
  'greet 400': (t) => t.http.get(`/greet/${'a'.repeat(65)}`),
  'greet 404': (t) => t.http.get('/greet/xx'),
  'getHealth 200': (t) => t.http.get('/health'),
  'getHealth 400': (t) => t.http.get('/health?x=1'),
  'getHealth 503': () => {
    const store = { ...createMemoryStore(loadSeed('default')), ping: () => Promise.reject(new Error('down')) };
    return makeApp({ store, config: { bodyLimit: LIMIT } }).http.get('/health');
  },
  'getLiveness 200': (t) => t.http.get('/health/live'),
  'getLiveness 400': (t) => t.http.get('/health/live?x=1'),
  'getReadiness 200': (t) => t.http.get('/health/ready'),
  'getReadiness 400': (t) => t.http.get('/health/ready?x=1'),
  'getReadiness 503': () => makeApp({ store: unreachable(makeStore()), config: { bodyLimit: LIMIT } }).http.get('/health/ready'),
};

/** Operations openapi.yaml gives a scope: refused (401, 403) on an instance that checks tokens. */
const SCOPED = new Set(
  Object.values(loadOpenApi().paths).flatMap((item) => HTTP_METHODS.map((m) => item[m] as Record<string, unknown> | undefined).filter((op) => op && securityScopes(op).length > 0).map((op) => String(op!.operationId))),
);
const SECRET = 'status-coverage-secret-of-at-least-32-bytes';

/** The health checks are never rate-limited and report storage themselves (no generic 503). */
const PROBES = new Set(['getHealth', 'getLiveness', 'getReadiness']);

/**
 * Statuses every operation documents, derived from the operation's success trigger: 429 when the
 * same request goes over a rate limit of 1, 431 when its headers go over Node's 16 KiB default,
 * 501 when it is sent with a transfer coding other than chunked, 503 when storage is unreachable
 * (the health checks: 431 and 501 only).
 */
function addCrossCutting(triggers: Record<string, Trigger>): Record<string, Trigger> {
  const all = { ...triggers };
  for (const [pair, trigger] of Object.entries(triggers)) {
    const [op, status] = pair.split(' ');
    if (!status.startsWith('2')) continue;
    all[`${op} 431`] = (t) => trigger({ ...t, http: withHeader(t, 'X-Padding', 'x'.repeat(20 * 1024)) });
    all[`${op} 501`] = (t) => trigger({ ...t, http: gzipChunked(t) });
    if (PROBES.has(op)) continue;
    all[`${op} 429`] = async () => {
      // The window stands still (the test's clock): the second request is over the limit however slow the machine.
      useTestClock();
      const limited = makeApp({ config: { bodyLimit: LIMIT, rateLimit: 1 } });
      await trigger(limited);
      return trigger(limited);
    };
    // 401 and 403 (operations with a scope): the same request on an instance that checks tokens, reads too,
    // with no token, then with a valid token that has no scope.
    if (SCOPED.has(op)) {
      const settings = { bodyLimit: LIMIT, auth: loadConfig({ AUTH_JWT_SECRET: SECRET, AUTH_READS: 'token' }).auth };
      all[`${op} 401`] = () => trigger(makeApp({ config: settings }));
      all[`${op} 403`] = async (t) => {
        const app = makeApp({ config: settings });
        const jwt = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('tester').setExpirationTime('5m').sign(new TextEncoder().encode(SECRET));
        return trigger({ ...t, ...app, http: withHeader(app, 'Authorization', `Bearer ${jwt}`) });
      };
    }
    // 503: the same request when storage is unreachable (every operation but greet needs storage).
    if (op !== 'greet') {
      all[`${op} 503`] = () => trigger(makeApp({ store: unreachable(makeStore()), config: { bodyLimit: LIMIT } }));
    }
  }
  return all;
}

/** The same supertest agent, with every request carrying one more header. */
function withHeader(t: TestApp, name: string, value: string): TestApp['http'] {
  return new Proxy(t.http, {
    get: (target, method: 'get') => (path: string) => target[method](path).set(name, value),
  });
}

/**
 * The same supertest agent, with every request sent with `Transfer-Encoding: gzip, chunked`. A body
 * given to send() is written instead: superagent would add a Content-Length, and Node's parser refuses
 * a request with both.
 */
function gzipChunked(t: TestApp): TestApp['http'] {
  return new Proxy(t.http, {
    get: (target, method: 'get') => (path: string) => {
      const test = target[method](path).set('Transfer-Encoding', 'gzip, chunked');
      test.send = (body: unknown) => {
        test.type('json').write(JSON.stringify(body));
        return test;
      };
      return test;
    },
  });
}

const ALL = addCrossCutting(TRIGGERS);

/** "operationId status" for every documented response in openapi.yaml. */
function documentedPairs(): string[] {
  const pairs: string[] = [];
  for (const item of Object.values(loadOpenApi().paths as Record<string, Record<string, any>>)) {
    for (const op of Object.values(item)) {
      if (!op?.operationId) continue;
      for (const status of Object.keys(op.responses)) pairs.push(`${op.operationId} ${status}`);
    }
  }
  return pairs.sort();
}

describe('every documented status of every operation', () => {
  afterEach(() => useRealClock());

  it('when openapi.yaml is read, then this table has a trigger for exactly its (operation, status) pairs', () => {
    expect(Object.keys(ALL).sort()).toEqual(documentedPairs());
  });

  it.each(Object.keys(ALL).sort())('when %s is triggered, then the service answers that status (validated against the spec)', async (pair) => {
    const status = Number(pair.split(' ')[1]);
    const res = await ALL[pair](makeApp({ config: { bodyLimit: LIMIT } }));
    expect(res.status).toBe(status);
  });
});
