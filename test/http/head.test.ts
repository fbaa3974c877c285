import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request, { type Response } from 'supertest';
import { configureExpress } from '../../src/app';
import { headBlock } from '../../src/http/head';
import { loadSeed } from '../../src/store/seed';
import { makeApp, makeService } from '../support/app';

/**
 * The head of every answer (src/http/head.ts): the headers the service gives every answer (the request id, the
 * security and CORS headers) are written with the answer's own in one block by the service's writers, or set one
 * at a time before anything else answers. Either way an answer carries each of them once, and a header set after
 * them (a docs page's own policy) or by the writer (its ETag, Content-Type) is the one sent.
 */

/** How many times each header name (lower case) came on the wire. */
function counts(res: Response): Map<string, number> {
  const raw = (res as unknown as { res: { rawHeaders: string[] } }).res.rawHeaders;
  const seen = new Map<string, number>();
  for (let i = 0; i < raw.length; i += 2) seen.set(raw[i].toLowerCase(), (seen.get(raw[i].toLowerCase()) ?? 0) + 1);
  return seen;
}

/** The headers every answer carries: the request id and helmet's (CORS's too on reads, where any origin may read). */
function expectServiceHeaders(res: Response): void {
  const seen = counts(res);
  for (const name of ['x-request-id', 'content-security-policy', 'x-frame-options', 'x-content-type-options', 'strict-transport-security', 'referrer-policy']) {
    expect([name, seen.get(name)]).toEqual([name, 1]);
  }
  for (const [name, times] of seen) expect([name, times]).toEqual([name, 1]);
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
}

describe('the head of an answer', () => {
  it('when answers of every kind are written, then each carries the request id and the security headers exactly once, beside its own', async () => {
    const { http } = makeApp();
    const record = await http.get('/books/1').expect(200);
    expectServiceHeaders(record);
    expect(record.headers.etag).toMatch(/^"/);
    expect(record.headers['access-control-allow-origin']).toBe('*');
    expect(record.headers['content-length']).toBe(String(Buffer.byteLength(record.text)));

    const created = await http.post('/books').send({ title: 'Head' }).expect(201);
    expectServiceHeaders(created);
    expect(created.headers.location).toBe(`/books/${created.body.id}`);

    const notModified = await http.get('/books/1').set('If-None-Match', record.headers.etag).expect(304);
    expectServiceHeaders(notModified);
    expect(notModified.headers.etag).toBe(record.headers.etag);

    const page = await http.get('/books?limit=1').expect(200);
    expectServiceHeaders(page);
    expect(page.headers['x-total-count']).toMatch(/^\d+$/);
    expect(page.headers.link).toMatch(/rel="next"/);

    const keyed = () => http.post('/books').set('Idempotency-Key', 'head-once').send({ title: 'Once' }).expect(201);
    await keyed();
    const replayed = await keyed();
    expectServiceHeaders(replayed);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers.location).toBe(`/books/${replayed.body.id}`);

    const options = await http.options('/books').expect(204);
    expectServiceHeaders(options);
    expect(options.headers.allow).toBe('GET, POST');

    const head = await http.head('/books/1').expect(200);
    expectServiceHeaders(head);
    expect(head.headers['content-length']).toBe(record.headers['content-length']);

    for (const refused of [await http.get('/nope').expect(404), await http.delete('/books').expect(405), await http.get('/books/abc').expect(400)]) {
      expectServiceHeaders(refused);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
    }

    const graphql = await http.post('/graphql').send({ query: '{ books { id } }' }).expect(200);
    expectServiceHeaders(graphql);
    expect(graphql.headers['content-type']).toMatch(/^application\/(graphql-response\+)?json/);
    expectServiceHeaders(await http.get('/graphql?query=%7B%20books%20%7B%20id%20%7D%20%7D').expect(200));
    expect((await http.put('/graphql').expect(405)).headers.allow).toBe('GET, POST');

    const metrics = await http.get('/metrics').expect(200);
    expectServiceHeaders(metrics);
    expect(metrics.headers['cache-control']).toBe('no-store');

    // A docs file is sent by express (not by the service's writers): the headers are set before it.
    const asset = await http.get('/docs/assets/swagger-init.js').expect(200);
    expectServiceHeaders(asset);
  });

  it('when a list or a GraphQL result is long enough to be written in chunks, then its head carries each header once too, with its own', async () => {
    const { http, store } = makeApp({ seed: { ...loadSeed('empty') } });
    for (let i = 0; i < 1001; i++) await store.books.create({ title: `book ${i}` });
    const list = await http.get('/books').expect(200);
    expect(list.headers['transfer-encoding']).toBe('chunked');
    expectServiceHeaders(list);
    expect(list.headers['x-total-count']).toBe('1001');
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    const graphql = await http.post('/graphql').set('Accept', 'application/graphql-response+json').send({ query: '{ books { id } }' }).expect(200);
    expect(graphql.headers['transfer-encoding']).toBe('chunked');
    expectServiceHeaders(graphql);
    expect(graphql.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    expect(JSON.parse(graphql.text).data.books).toHaveLength(1001);
  });

  it("when a page of the docs sets its own Content-Security-Policy, then that one is sent, once, rather than the API's", async () => {
    const { http } = makeApp();
    for (const res of [await http.get('/docs').expect(200), await http.get('/graphql').set('Accept', 'text/html').expect(200)]) {
      expectServiceHeaders(res);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    }
  });

  /** A middleware of yours before the service, and an error handler of yours between it and its error handler. */
  const compose = (mine: RequestHandler[], onError: ErrorRequestHandler[] = []) => {
    const { service } = makeService();
    const app = configureExpress(express());
    for (const handler of mine) app.use(handler);
    app.use(service.handler);
    for (const handler of onError) app.use(handler);
    app.use(service.errors);
    return request(app);
  };

  it('when a middleware of yours set headers before the service, then the service still sends its own over the same names, and yours beside them', async () => {
    const http = compose([
      (_req, res, next) => {
        res.setHeader('X-Frame-Options', 'SAMEORIGIN');
        res.setHeader('X-Request-Id', 'set-by-you');
        res.setHeader('X-Mine', 'kept');
        next();
      },
    ]);
    for (const res of [await http.get('/books/1').expect(200), await http.get('/nope').expect(404), await http.post('/graphql').send({ query: '{ books { id } }' }).expect(200)]) {
      expectServiceHeaders(res);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-mine']).toBe('kept');
    }
  });

  it('when an error handler of yours answers a refusal of the service itself, then its answer still carries the request id and the security headers', async () => {
    const teapots: ErrorRequestHandler = (_err, _req, res, _next) => void res.status(418).json({ teapot: true });
    const http = compose([], [teapots]);
    for (const res of [await http.get('/books/abc').expect(418), await http.get('/nope').expect(418)]) {
      expectServiceHeaders(res);
      expect(res.body).toEqual({ teapot: true });
    }
  });

  it("when a writer's own header has the name of a waiting one, in any case, then only the writer's goes in the block, and a header set since keeps its place too", () => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    const state = { res, head: [['X-Request-Id', 'id-1', 'X-Frame-Options', 'DENY', 'Cache-Control', 'no-store', 'Referrer-Policy', 'no-referrer']] };
    Object.assign(res, { locals: { state } });
    res.setHeader('referrer-policy', 'same-origin');
    expect(headBlock(res, { 'x-frame-options': 'SAMEORIGIN', ETag: '"a"' })).toEqual(['X-Request-Id', 'id-1', 'Cache-Control', 'no-store', 'x-frame-options', 'SAMEORIGIN', 'ETag', '"a"']);
    // Taken once: the waiting headers are the response's from then on.
    expect(state.head).toBeUndefined();
    expect(headBlock(res, undefined)).toEqual([]);
  });

  it("when a writer's own headers name one header twice in any case, or name Content-Type or Content-Length, then the later one goes in the block and the writer's framing stays its own", () => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    Object.assign(res, { locals: { state: { res, head: [['X-Request-Id', 'id-1']] } } });
    const own = { ETag: '"registrar"', Link: '<a>', etag: '"handler"', 'content-type': 'text/html', 'Content-Length': '3' };
    expect(headBlock(res, own)).toEqual(['X-Request-Id', 'id-1', 'Link', '<a>', 'etag', '"handler"']);
  });
});
