import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { MAX_GRAPHQL_NAMES, OTHER_NAME, UNMATCHED } from '../../src/ops/metrics';
import { loadOpenApi } from '../../src/spec';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { gqlClient, limits, makeGqlApp } from '../graphql/support';
import { makeApp, snapshot } from '../support/app';
import { expectJsonError } from '../support/rest-expect';
import { scrape } from './scrape';

const OPERATION_IDS = Object.values(loadOpenApi().paths as Record<string, Record<string, { operationId?: string }>>)
  .flatMap((item) => Object.values(item).map((op) => op?.operationId))
  .filter((id): id is string => typeof id === 'string');
const FIXED_OPERATIONS = [UNMATCHED, 'graphql', 'docs', 'metrics'];

describe('GET /metrics (Prometheus text format)', () => {
  it('when scraped, then it parses as Prometheus text with the request, GraphQL and process metrics, uncached', async () => {
    const { http } = makeApp();
    await http.get('/books/1').expect(200);
    const res = await http.get('/metrics').expect(200).expect('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const metrics = await scrape(http);
    const types = Object.fromEntries(Object.entries(metrics.families).map(([name, family]) => [name, family.type]));
    expect(types).toMatchObject({
      http_requests_total: 'counter',
      http_request_duration_seconds: 'histogram',
      http_requests_in_flight: 'gauge',
      graphql_request_duration_seconds: 'histogram',
      graphql_documents_cached: 'gauge',
      graphql_documents_compiled_total: 'counter',
      graphql_documents_refused_total: 'counter',
      process_cpu_user_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
    });
    // The memory store has no pool.
    expect(metrics.family('pg_pool_connections')).toBeUndefined();
  });

  it('when REST requests are made, then the counters move by exactly those requests, labelled by operationId and status class', async () => {
    const { http } = makeApp();
    const before = await scrape(http);
    for (let i = 0; i < 3; i++) await http.get('/books/1').expect(200);
    await http.get('/books/99').expect(404);
    await http.head('/books/1').expect(200);
    await http.post('/books').send({ title: 'Emma' }).expect(201);
    await http.post('/books').send({ title: 'Persuasion' }).expect(201);
    await http.post('/books').send({}).expect(400);
    await http.get('/greet/fr').expect(200);
    const after = await scrape(http);
    const delta = (operation: string, statusClass: string) =>
      after.value('http_requests_total', { operation, status_class: statusClass }) - before.value('http_requests_total', { operation, status_class: statusClass });
    expect({
      getBook2xx: delta('getBook', '2xx'),
      getBook4xx: delta('getBook', '4xx'),
      createBook2xx: delta('createBook', '2xx'),
      createBook4xx: delta('createBook', '4xx'),
      greet2xx: delta('greet', '2xx'),
      // The first scrape, counted once it was answered.
      metrics2xx: delta('metrics', '2xx'),
    }).toEqual({ getBook2xx: 4, getBook4xx: 1, createBook2xx: 2, createBook4xx: 1, greet2xx: 1, metrics2xx: 1 });
    const count = (operation: string) => after.value('http_request_duration_seconds', { operation }) - before.value('http_request_duration_seconds', { operation });
    expect({ getBook: count('getBook'), createBook: count('createBook'), listBooks: count('listBooks') }).toEqual({ getBook: 5, createBook: 3, listBooks: 0 });
    // The scrape in progress is the one request in flight.
    expect(after.value('http_requests_in_flight')).toBe(1);
  });

  it('when unknown paths, a method a path lacks and OPTIONS are requested, then they share one fixed label and label values are operationIds', async () => {
    const { http } = makeApp();
    await http.get('/nope').expect(404);
    await http.put('/health').expect(405);
    await http.options('/books').expect(204);
    await http.post('/graphql').send({ query: '{ books { id } }' }).expect(200);
    await http.get('/openapi.json').expect(200);
    const metrics = await scrape(http);
    expect(metrics.value('http_requests_total', { operation: UNMATCHED, status_class: '4xx' })).toBe(2);
    expect(metrics.value('http_requests_total', { operation: UNMATCHED, status_class: '2xx' })).toBe(1);
    expect(metrics.value('http_requests_total', { operation: 'graphql', status_class: '2xx' })).toBe(1);
    expect(metrics.value('http_requests_total', { operation: 'docs', status_class: '2xx' })).toBe(1);
    for (const value of metrics.labelValues('http_requests_total', 'operation')) {
      expect([...OPERATION_IDS, ...FIXED_OPERATIONS]).toContain(value);
    }
  });

  it('when a flood of distinct unknown paths and ids comes, then the number of series does not grow', async () => {
    const { http } = makeApp();
    await http.get('/nope/0').expect(404);
    await http.get('/books/1').expect(200);
    await http.get('/books/1000').expect(404);
    // The first scrape's own series (operation "metrics") appear at the second.
    await scrape(http);
    const before = await scrape(http);
    for (let i = 1; i <= 200; i++) {
      await http.get(`/nope/${i}`).expect(404);
      await http.get(`/books/${1000 + i}`).expect(404);
    }
    const after = await scrape(http);
    expect(after.serviceSeries()).toBe(before.serviceSeries());
    expect(after.value('http_requests_total', { operation: UNMATCHED, status_class: '4xx' })).toBe(201);
  });

  it('when two apps run side by side, then each counts only its own requests', async () => {
    const one = makeApp();
    const two = makeApp();
    await one.http.get('/books/1').expect(200);
    await one.http.get('/books/1').expect(200);
    await two.http.get('/books/1').expect(200);
    expect((await scrape(one.http)).value('http_requests_total', { operation: 'getBook', status_class: '2xx' })).toBe(2);
    expect((await scrape(two.http)).value('http_requests_total', { operation: 'getBook', status_class: '2xx' })).toBe(1);
  });
});

describe('GraphQL metrics', () => {
  it('when operations run, then they are counted by type and name, anonymous ones under "anonymous"', async () => {
    const { http, gql } = makeGqlApp();
    expect((await gql('query ListBooks { books { id } }')).status).toBe(200);
    expect((await gql('query ListBooks { books { id } }')).status).toBe(200);
    expect((await gql('{ todos { id } }')).status).toBe(200);
    expect((await gql('mutation Remember { addTodo(title: "Milk") { id } }')).status).toBe(200);
    const metrics = await scrape(http);
    const count = (type: string, name: string) => metrics.value('graphql_request_duration_seconds', { operation_type: type, operation_name: name });
    expect({ listBooks: count('query', 'ListBooks'), anonymous: count('query', 'anonymous'), remember: count('mutation', 'Remember') }).toEqual({
      listBooks: 2,
      anonymous: 1,
      remember: 1,
    });
    expect(metrics.value('http_requests_total', { operation: 'graphql', status_class: '2xx' })).toBe(4);
    // Three distinct valid documents are cached; ListBooks ran a second time, so it was compiled.
    expect(metrics.value('graphql_documents_cached')).toBe(3);
    expect(metrics.value('graphql_documents_compiled_total')).toBe(1);
  });

  it('when documents are refused, then each refusal is counted once under its reason and nothing runs', async () => {
    const { http, gql, store } = makeGqlApp({ config: { bodyLimit: 2048, ...limits({ maxDepth: 2, maxAliases: 1, maxTokens: 50 }) } });
    const before = await snapshot(store);
    expect((await gql('{ users { posts { comments { body } } } }')).status).toBe(400);
    expect((await gql('{ a: books { id } b: books { id } }')).status).toBe(400);
    expect((await gql(`{ books { ${'id '.repeat(60)} } }`)).status).toBe(400);
    expect((await gql('{ nope }')).status).toBe(400);
    expect((await gql('{ books { id ')).status).toBe(400);
    await http.post('/graphql').send({ query: `{ books { id } } # ${'x'.repeat(4096)}` }).expect(413);
    expect((await gql('mutation Refused { addTodo(title: "x") { nope } }')).status).toBe(400);
    const metrics = await scrape(http);
    const refused = Object.fromEntries(metrics.labelValues('graphql_documents_refused_total', 'reason').map((reason) => [reason, metrics.value('graphql_documents_refused_total', { reason })]));
    expect(refused).toEqual({ depth: 1, aliases: 1, tokens: 1, invalid: 3, body_size: 1 });
    // Nothing executed: no operation series, no cached document, nothing stored.
    expect(metrics.family('graphql_request_duration_seconds')?.data ?? []).toEqual([]);
    expect(metrics.value('graphql_documents_cached')).toBe(0);
    expect(await snapshot(store)).toEqual(before);
  });

  it(`when a flood of distinct operation names comes, then at most ${MAX_GRAPHQL_NAMES} names get series and the rest share "${OTHER_NAME}"`, async () => {
    const { http, gql } = makeGqlApp();
    for (let i = 0; i < MAX_GRAPHQL_NAMES + 20; i++) expect((await gql(`query Q${i} { books { id } }`)).status).toBe(200);
    await http.post('/graphql').send({ query: 'query A { books { id } }', operationName: 'Missing' }).expect(200);
    await scrape(http);
    const full = await scrape(http);
    expect(full.labelValues('graphql_request_duration_seconds', 'operation_name')).toHaveLength(MAX_GRAPHQL_NAMES + 1);
    expect(full.value('graphql_request_duration_seconds', { operation_type: 'query', operation_name: OTHER_NAME })).toBe(20);
    for (let i = 0; i < 150; i++) expect((await gql(`query Flood${i} { books { id } }`)).status).toBe(200);
    // Names that are not the executed operation's (an operationName the document lacks) add nothing either.
    for (let i = 0; i < 50; i++) await http.post('/graphql').send({ query: 'query A { books { id } }', operationName: `Missing${i}` }).expect(200);
    expect((await gql(`query ${'L'.repeat(500)} { books { id } }`)).status).toBe(200);
    const after = await scrape(http);
    expect(after.serviceSeries()).toBe(full.serviceSeries());
    expect(after.value('graphql_request_duration_seconds', { operation_type: 'query', operation_name: OTHER_NAME })).toBe(20 + 150 + 1);
  });
});

describe('PostgreSQL pool metrics', () => {
  it('when the store reports pool statistics, then the pool gauges show them at scrape time', async () => {
    let stats = { size: 10, idle: 7, waiting: 0 };
    const store = { ...createMemoryStore(loadSeed('default')), poolStats: () => stats };
    const { http } = makeApp({ store });
    const first = await scrape(http);
    expect([first.value('pg_pool_connections'), first.value('pg_pool_idle_connections'), first.value('pg_pool_waiting_requests')]).toEqual([10, 7, 0]);
    stats = { size: 10, idle: 0, waiting: 4 };
    const second = await scrape(http);
    expect([second.value('pg_pool_connections'), second.value('pg_pool_idle_connections'), second.value('pg_pool_waiting_requests')]).toEqual([10, 0, 4]);
  });
});

describe('metrics settings', () => {
  it('when METRICS_ENABLED is false, then there is no metrics path (404) and requests are still served', async () => {
    const { http } = makeApp({ config: { metricsEnabled: false } });
    await http.get('/books/1').expect(200);
    expectJsonError(await http.get('/metrics'), 404);
  });

  it('when METRICS_PATH is set, then the metrics are served there only', async () => {
    const { http } = makeApp({ config: { metricsPath: '/internal/metrics' } });
    await http.get('/books/1').expect(200);
    const metrics = await scrape(http, '/internal/metrics');
    expect(metrics.value('http_requests_total', { operation: 'getBook', status_class: '2xx' })).toBe(1);
    expectJsonError(await http.get('/metrics'), 404);
  });

  it('when the metrics path is sent another method, then it answers 405 with Allow, and OPTIONS 204', async () => {
    const { http } = makeApp();
    const res = await http.post('/metrics').send({});
    expectJsonError(res, 405);
    expect(res.headers.allow).toBe('GET, HEAD');
    await http.options('/metrics').expect(204).expect('Allow', 'GET, HEAD');
    await http.head('/metrics').expect(200);
  });

  it('when METRICS_PATH is a path the service already serves, then the app refuses to start with one line', () => {
    const deps = { store: createMemoryStore(loadSeed('default')), logger: createLogger('silent') };
    for (const path of ['/books', '/graphql', '/docs/metrics', '/health/ready']) {
      expect(() => createApp({ ...deps, config: testConfig({ metricsPath: path }) })).toThrow(`METRICS_PATH ${path} is already a path of the service`);
    }
  });

  it('when metrics are off, then GraphQL still runs (its metric hooks are no-ops)', async () => {
    const { http } = makeApp({ config: { metricsEnabled: false } });
    expect((await gqlClient(http)('query ListBooks { books { id } }')).status).toBe(200);
  });
});
