import type { ListQuery } from '../../src/store/query';
import request from 'supertest';
import { createApp, SERVICE_VERSION } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import type { Store } from '../../src/store/types';
import { makeApp, makeStore } from '../support/app';
import { expectJsonError } from '../support/rest-expect';
import { unreachable } from '../support/unreachable-store';

/** A memory store that counts pings and whose ping can be made to fail or to never answer. */
function probedStore(ping: 'ok' | 'fail' | 'hang' = 'ok') {
  const calls = { ping: 0, books: 0 };
  const base = createMemoryStore(loadSeed('default'));
  const store: Store = {
    ...base,
    books: { ...base.books, get: (id: number) => (calls.books++, base.books.get(id)) } as Store['books'],
    ping: () => {
      calls.ping++;
      if (ping === 'fail') return Promise.reject(new Error('connection refused'));
      if (ping === 'hang') return new Promise<void>(() => undefined);
      return Promise.resolve();
    },
  };
  return { store, calls };
}

/** An app whose lifecycle the test controls, as server.ts does on SIGTERM. */
function appWith(store: Store, overrides: Parameters<typeof testConfig>[0] = {}) {
  const lifecycle = { draining: false };
  const logs: Record<string, unknown>[] = [];
  const app = createApp({ store, config: testConfig(overrides), logger: createLogger('debug', (line) => logs.push(JSON.parse(line))), lifecycle });
  return { http: request(app), lifecycle, logs };
}

describe('GET /health/live (getLiveness)', () => {
  it('when the process is up, then it answers 200 {"status":"ok"} without touching storage', async () => {
    const { store, calls } = probedStore();
    const { http } = appWith(store);
    await http.get('/health/live').expect(200).expect('Content-Type', 'application/json; charset=utf-8').expect({ status: 'ok' });
    expect(calls).toEqual({ ping: 0, books: 0 });
  });

  it('when storage is unreachable or hangs, or the service is draining, then it still answers 200', async () => {
    await appWith(unreachable(makeStore())).http.get('/health/live').expect(200, { status: 'ok' });
    const { http, lifecycle } = appWith(probedStore('hang').store);
    lifecycle.draining = true;
    await http.get('/health/live').expect(200, { status: 'ok' });
  });

  it('when HEAD is sent, then it answers 200 with the headers only; an unknown query parameter is a 400; POST is a 405', async () => {
    const { http } = makeApp();
    const head = await http.head('/health/live').expect(200).expect('Content-Type', 'application/json; charset=utf-8');
    expect(head.text).toBeUndefined();
    expect(expectJsonError(await http.get('/health/live?verbose=1'), 400).details?.[0].path).toBe('/query/verbose');
    const res = await http.post('/health/live').send({});
    expectJsonError(res, 405);
    expect(res.headers.allow).toBe('GET');
  });
});

describe('GET /health/ready (getReadiness)', () => {
  it('when storage answers and the service is not draining, then it answers 200 ready with the storage kind', async () => {
    const { store, calls } = probedStore();
    await appWith(store).http.get('/health/ready').expect(200, { status: 'ready', storage: 'memory' });
    expect(calls.ping).toBe(1);
  });

  it('when storage is unreachable, then it answers 503 unavailable and logs a warning', async () => {
    const { http, logs } = appWith(probedStore('fail').store);
    const res = await http.get('/health/ready').expect(503, { status: 'unavailable', storage: 'memory' });
    expect(res.text).not.toMatch(/refused/);
    expect(logs.some((line) => line.level === 'warn' && line.msg === 'readiness check: storage unreachable')).toBe(true);
  });

  it('when storage never answers, then it answers 503 unavailable once HEALTH_TIMEOUT_MS has passed (and so does /health)', async () => {
    const { store, calls } = probedStore('hang');
    const { http } = appWith(store, { healthTimeoutMs: 50 });
    // The jest timeout (30 s) only catches a hang; the bound itself is the setting.
    await http.get('/health/ready').expect(503, { status: 'unavailable', storage: 'memory' });
    await http.get('/health').expect(503, { status: 'unavailable', version: SERVICE_VERSION, storage: 'memory' });
    expect(calls.ping).toBe(2);
  });

  it('when the service is draining, then it answers 503 draining without pinging storage, while other requests are still served', async () => {
    const { store, calls } = probedStore();
    const { http, lifecycle } = appWith(store);
    await http.get('/health/ready').expect(200);
    lifecycle.draining = true;
    await http.get('/health/ready').expect(503, { status: 'draining', storage: 'memory' });
    expect(calls.ping).toBe(1);
    // /health keeps its contract (storage only), and requests are still answered while draining.
    await http.get('/health').expect(200, { status: 'ok', version: SERVICE_VERSION, storage: 'memory' });
    await http.get('/books/1').expect(200);
  });

  it('when requests are stuck waiting for storage, then the health checks still answer (they do not queue behind them)', async () => {
    const base = createMemoryStore(loadSeed('default'));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    const list = (async (query?: ListQuery) => {
      waiting++;
      await gate;
      return base.books.list(query!);
    }) as Store['books']['list'];
    const { http } = appWith({ ...base, books: { ...base.books, list } as Store['books'] });
    const stuck = Array.from({ length: 20 }, () => http.get('/books').then((res) => res.status));
    const allWaiting = () => waiting === 20;
    while (!allWaiting()) await new Promise((resolve) => setTimeout(resolve, 5));
    await http.get('/health/live').expect(200);
    await http.get('/health/ready').expect(200);
    await http.get('/health').expect(200);
    release();
    expect(await Promise.all(stuck)).toEqual(Array(20).fill(200));
  });
});
