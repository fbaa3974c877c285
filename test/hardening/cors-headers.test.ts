import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { loadOpenApi } from '../../src/spec';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { makeApp } from '../support/app';

/**
 * CORS follows openapi.yaml: a cross-origin script may send every header parameter the spec declares
 * and read every response header it declares, so a header the spec gains needs no code change.
 * The spec is walked here on its own (not through the service's code), following `$ref`s.
 */
const spec = loadOpenApi();
const deref = (value: unknown): Record<string, unknown> => {
  const ref = (value as { $ref?: string }).$ref;
  if (!ref) return value as Record<string, unknown>;
  const [, , section, name] = ref.split('/');
  return deref((spec.components[section] as Record<string, unknown>)[name]);
};
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every (path, method, header parameter) of the spec, with the path's parameters filled in. */
const headerParams = Object.entries(spec.paths).flatMap(([template, item]) =>
  METHODS.filter((method) => item[method]).flatMap((method) => {
    const op = item[method] as { parameters?: unknown[] };
    const params = [...((item.parameters as unknown[]) ?? []), ...(op.parameters ?? [])].map(deref);
    return params
      .filter((p) => p.in === 'header')
      .map((p) => ({ path: template.replace(/\{[^}]+\}/g, '1'), method: method.toUpperCase(), header: String(p.name) }));
  }),
);

/** Every response header name the spec declares, on any response of any operation. */
const responseHeaders = [
  ...new Set(
    Object.values(spec.paths).flatMap((item) =>
      METHODS.filter((method) => item[method]).flatMap((method) =>
        Object.values((item[method] as { responses: Record<string, unknown> }).responses).flatMap((response) => Object.keys(deref(response).headers ?? {})),
      ),
    ),
  ),
];

const list = (value: string | undefined) => (value ?? '').split(',').map((name) => name.trim().toLowerCase());

const configs = [
  ['any origin (CORS_ORIGINS=*)', '*'],
  ['an allow-listed origin', ['https://app.example']],
] as const;

describe.each(configs)('CORS headers from openapi.yaml, for %s', (_name, corsOrigins) => {
  const origin = 'https://app.example';
  // One app for the whole family: preflights change nothing.
  let http: ReturnType<typeof makeApp>['http'];
  beforeAll(() => {
    http = makeApp({ config: { corsOrigins: corsOrigins === '*' ? '*' : [...corsOrigins] } }).http;
  });

  it('when the spec is read, then it declares header parameters and response headers to check', () => {
    expect(headerParams.map((p) => p.header)).toEqual(expect.arrayContaining(['If-Match', 'If-None-Match', 'Idempotency-Key']));
    expect(responseHeaders).toEqual(expect.arrayContaining(['ETag', 'Location', 'Idempotent-Replayed', 'Retry-After']));
  });

  it('when a preflight asks for POST /books with content-type and idempotency-key, then both are allowed', async () => {
    const res = await http
      .options('/books')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type, idempotency-key')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe(corsOrigins === '*' ? '*' : origin);
    expect(list(res.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['content-type', 'idempotency-key']));
  });

  it.each(headerParams)('when a preflight for $method $path asks to send $header, then it is allowed', async ({ path, method, header }) => {
    const res = await http
      .options(path)
      .set('Origin', origin)
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', header.toLowerCase())
      .expect(204);
    expect(res.headers['access-control-allow-methods']).toContain(method);
    expect(list(res.headers['access-control-allow-headers'])).toContain(header.toLowerCase());
  });

  it('when a cross-origin script reads any answer, then every response header the spec declares is exposed, and X-Request-Id', async () => {
    const answers = [
      await http.get('/books/1').set('Origin', origin).expect(200),
      await http.post('/books').set('Origin', origin).set('Idempotency-Key', 'cors-1').send({ title: 'CORS' }).expect(201),
      await http.get('/graphql?query={books{id}}').set('Origin', origin).set('Accept', 'application/json').expect(200),
    ];
    for (const res of answers) {
      expect(list(res.headers['access-control-expose-headers'])).toEqual(expect.arrayContaining([...responseHeaders, 'X-Request-Id'].map((h) => h.toLowerCase())));
    }
  });
});

describe('CORS headers when the spec gains a header', () => {
  it('when getBook declares a new header parameter and a new response header, then the same code allows and exposes them', async () => {
    const doc = loadOpenApi();
    const getBook = doc.paths['/books/{id}'].get as { parameters: unknown[]; responses: Record<string, { headers?: Record<string, unknown> }> };
    getBook.parameters.push({ name: 'X-Trace-Level', in: 'header', required: false, description: 'trace', schema: { type: 'string' } });
    getBook.responses['200'].headers = { ...getBook.responses['200'].headers, 'X-Cache': { description: 'hit or miss', schema: { type: 'string' } } };
    const app = createApp({ store: createMemoryStore(loadSeed('default')), config: testConfig(), logger: createLogger('silent'), openapi: doc });
    const preflight = await request(app)
      .options('/books/1')
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-trace-level')
      .expect(204);
    expect(list(preflight.headers['access-control-allow-headers'])).toContain('x-trace-level');
    const res = await request(app).get('/books/1').set('Origin', 'https://app.example').set('X-Trace-Level', 'high').expect(200);
    expect(list(res.headers['access-control-expose-headers'])).toContain('x-cache');
  });
});
