import Ajv from 'ajv/dist/core';
import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { handlers } from '../../src/rest/handlers';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { advanceClock, useRealClock, useTestClock } from '../support/clock';
import { makeApp } from '../support/app';
import { RateLimiter } from '../../src/http/rate-limit';
import { listen } from './support/http';

const SAMPLE = [
  ['GET', '/books'], ['GET', '/books/1'], ['GET', '/books/abc'], ['POST', '/books'], ['DELETE', '/books/999'], ['PATCH', '/books/1'],
  ['GET', '/items/0'], ['GET', '/greet/xx'], ['GET', '/health'], ['GET', '/nope'], ['OPTIONS', '/tasks'], ['HEAD', '/notes'],
] as const;
const LEAKS = /node_modules|\/src\/|\bat \w+ \(|\.ts:\d+/;

describe('security headers and error hygiene', () => {
  it.each(SAMPLE)('when %s %s is answered, then it carries the security headers, no X-Powered-By and no internals', async (method, path) => {
    const { http } = makeApp();
    const res = await http[method.toLowerCase() as 'get'](path);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
    expect(res.text ?? '').not.toMatch(LEAKS);
  });

  it('when a handler throws unexpectedly, then the 500 says only that something went wrong and the log has the details', async () => {
    const logs: Record<string, unknown>[] = [];
    const app = createApp({
      store: createMemoryStore(loadSeed('default')),
      config: testConfig(),
      logger: createLogger('debug', (line) => logs.push(JSON.parse(line))),
      handlers: { ...handlers, listBooks: () => Promise.reject(new Error('boom in /srv/app/src/secret.ts:12')) },
    });
    const res = await request(app).get('/books').expect(500);
    expect(res.body).toEqual({ error: 'Unexpected error.' });
    expect(res.text).not.toMatch(LEAKS);
    expect(JSON.stringify(logs)).toMatch(/boom in/);
  });
});

describe('CORS allow-list', () => {
  it('when CORS_ORIGINS=*, then any origin may read responses, with the useful headers exposed', async () => {
    const { http } = makeApp({ config: { corsOrigins: '*' } });
    const res = await http.get('/books?limit=1').set('Origin', 'https://anywhere.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toMatch(/X-Total-Count/);
  });

  it('when an allowed origin sends a preflight, then it gets 204 with its origin, the path methods and Vary: Origin', async () => {
    const { http } = makeApp({ config: { corsOrigins: ['https://app.example'] } });
    const res = await http
      .options('/books/1')
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'content-type')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(res.headers['access-control-allow-methods']).toBe('GET, PUT, DELETE, PATCH, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toMatch(/Content-Type/);
    expect(res.headers.vary).toMatch(/Origin/);
    expect(res.headers.allow).toBe('GET, PUT, DELETE, PATCH');
  });

  it('when an origin outside the allow-list asks, then neither the preflight nor the simple request gets CORS headers', async () => {
    const { http } = makeApp({ config: { corsOrigins: ['https://app.example'] } });
    const pre = await http.options('/books').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'POST');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
    const simple = await http.get('/books').set('Origin', 'https://evil.example').expect(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    expect(simple.headers.vary).toMatch(/Origin/);
  });

  it('when a preflight targets a path outside the REST spec (e.g. /graphql), then an allowed origin still gets 204', async () => {
    const { http } = makeApp({ config: { corsOrigins: '*' } });
    const res = await http.options('/graphql').set('Origin', 'https://x.example').set('Access-Control-Request-Method', 'POST').expect(204);
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, HEAD, OPTIONS');
    expect(res.headers.allow).toBe('GET, POST');
  });

  it('when a preflight targets an unknown path, then it is that path\'s 404, not a 204', async () => {
    const { http } = makeApp();
    const res = await http.options('/nope').set('Origin', 'https://x.example').set('Access-Control-Request-Method', 'GET').expect(404);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('when OPTIONS comes without an Origin (CORS_ORIGINS=*), then the 204 still carries Allow and the CORS headers', async () => {
    const { http } = makeApp({ config: { corsOrigins: '*' } });
    const res = await http.options('/books/1').expect(204);
    expect(res.headers.allow).toBe('GET, PUT, DELETE, PATCH');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, PUT, DELETE, PATCH, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toMatch(/Content-Type/);
  });
});

describe('rate limiting (RATE_LIMIT)', () => {
  // The window moves when a test says so: requests are never "fast enough to fit in it".
  beforeEach(() => useTestClock());
  afterEach(() => useRealClock());

  it('when rate limiting is off (the default), then a burst of requests is all served', async () => {
    const { http } = makeApp();
    for (let i = 0; i < 30; i++) await http.get('/books/1').expect(200);
  });

  it('when a client passes the limit on a JSON family, then it gets 429 {"error"} with Retry-After', async () => {
    const { http } = makeApp({ config: { rateLimit: 3, rateLimitWindowMs: 60_000 } });
    for (let i = 0; i < 3; i++) await http.get('/books').expect(200);
    const res = await http.get('/books').expect(429).expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ error: expect.stringMatching(/^Too many requests/) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it.each(['/items', '/greet/fr'])('when a client passes the limit on %s (plain-text family), then the 429 is one text/plain line', async (path) => {
    const { http } = makeApp({ config: { rateLimit: 1, rateLimitWindowMs: 60_000 } });
    await http.get(path).expect(200);
    const res = await http.get(path).expect(429).expect('Content-Type', 'text/plain; charset=utf-8');
    expect(res.text).toMatch(/^Too many requests: at most 1 per 60 s; retry after \d+ s$/);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('when the window passes, then the client is served again', async () => {
    const { http } = makeApp({ config: { rateLimit: 1, rateLimitWindowMs: 60_000 } });
    await http.get('/books/1').expect(200);
    advanceClock(59_999);
    await http.get('/books/1').expect(429);
    advanceClock(1);
    await http.get('/books/1').expect(200);
  });

  it('when a client is over the limit, then the health checks and the metrics still answer (probes are never refused)', async () => {
    const { http } = makeApp({ config: { rateLimit: 1, rateLimitWindowMs: 60_000 } });
    await http.get('/books/1').expect(200);
    await http.get('/books/1').expect(429);
    for (const path of ['/health', '/health/live', '/health/ready', '/metrics', '/health', '/metrics']) await http.get(path).expect(200);
    await http.get('/books/1').expect(429);
  });

  it('when more clients than RATE_LIMIT_MAX_CLIENTS appear, then the limiter map stays bounded', () => {
    const limiter = new RateLimiter({ limit: 5, windowMs: 60_000, maxClients: 100, now: () => 1000 });
    for (let i = 0; i < 10_000; i++) limiter.hit(`10.0.${i >> 8}.${i & 255}`);
    expect(limiter.size).toBe(100);
  });

  it('when more clients than RATE_LIMIT_MAX_CLIENTS appear while one keeps sending, then that one is never forgotten: it stays refused', () => {
    const limiter = new RateLimiter({ limit: 5, windowMs: 60_000, maxClients: 100, now: () => 1000 });
    for (let i = 0; i < 5; i++) expect([limiter.hit('busy').allowed, limiter.hit('quiet').allowed]).toEqual([true, true]);
    for (let i = 0; i < 5000; i++) {
      limiter.hit(`10.0.${i >> 8}.${i & 255}`);
      if (i % 50 === 0) expect(limiter.hit('busy').allowed).toBe(false);
    }
    expect(limiter.size).toBe(100);
    // One that stopped sending at its limit is forgotten: its count starts again.
    expect(limiter.hit('quiet').allowed).toBe(true);
  });
});

describe('caches keyed by request data stay bounded', () => {
  it('when a flood varies content-type parameters, charsets, accept values and ids, then the validator builds no new validators', async () => {
    const made = makeApp();
    const server = await listen(made.app);
    try {
      const ops = [
        { method: 'GET', path: (i: number) => `/books/${(i % 5) + 1}` },
        { method: 'GET', path: (i: number) => `/items/${i + 1}` },
        { method: 'POST', path: () => '/tasks', body: '{"title":"x"}' },
        { method: 'PUT', path: () => '/tasks/1', body: '{"done":true}' },
        { method: 'GET', path: () => '/greet/fr' },
      ];
      const round = (i: number, ct: string, acc: string) =>
        Promise.all(ops.map((op) => server.send({ method: op.method, path: op.path(i), headers: { 'content-type': ct, accept: acc }, body: op.body })));
      await round(0, 'application/json', '*/*');
      const built = jest.spyOn(Ajv.prototype, 'addSchema');
      for (let i = 0; i < 150; i++) {
        const charset = ['utf-8', 'UTF-8', 'Utf-8'][i % 3];
        await round(i, `application/json; charset=${charset}; p${i}=${i}`, `application/json;q=0.${i % 10}, text/x-${i}`);
      }
      expect(built).not.toHaveBeenCalled();
      built.mockRestore();
    } finally {
      await server.close();
    }
  });
});
