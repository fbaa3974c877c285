import { SERVICE_VERSION } from '../../src/app';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { makeApp } from '../support/app';
import { expectJsonError } from '../support/rest-expect';

describe('GET /health (getHealth)', () => {
  it('when storage is reachable, then it answers 200 with status ok, the package version and the storage kind', async () => {
    const { http, store } = makeApp();
    // The same suite runs on SQLite and PostgreSQL (npm run test:sqlite, test:postgres): the kind is the store's own.
    expect(['memory', 'sqlite', 'postgres']).toContain(store.kind);
    await http.get('/health').expect(200).expect('Content-Type', 'application/json; charset=utf-8')
      .expect({ status: 'ok', version: SERVICE_VERSION, storage: store.kind });
    expect(SERVICE_VERSION).toBe(require('../../package.json').version);
  });

  it('when storage is unreachable, then it answers 503 with status unavailable and logs a warning', async () => {
    const store = { ...createMemoryStore(loadSeed('default')), ping: async () => Promise.reject(new Error('connection refused')) };
    const { http, logs } = makeApp({ store });
    const res = await http.get('/health').expect(503, { status: 'unavailable', version: SERVICE_VERSION, storage: 'memory' });
    expect(res.text).not.toMatch(/refused/);
    expect(logs.some((line) => line.level === 'warn' && /unreachable/.test(String(line.msg)))).toBe(true);
  });

  it('when an unknown query parameter is given, then it answers 400 in the JSON error format', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await http.get('/health?verbose=1'), 400).details?.[0].path).toBe('/query/verbose');
  });

  it('when POST /health is sent, then it answers 405 with Allow: GET', async () => {
    const { http } = makeApp();
    const res = await http.post('/health').send({});
    expectJsonError(res, 405);
    expect(res.headers.allow).toBe('GET');
  });
});
