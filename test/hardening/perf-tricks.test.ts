import { ServerResponse } from 'node:http';
import express from 'express';
import request from 'supertest';
import { ApiError } from '../../src/http/errors';
import { apiCors, apiHelmet } from '../../src/http/security';
import { validatorAfterMatch } from '../../src/http/validate';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { makeApp, makeStore } from '../support/app';

/** Every header helmet 8 may set (a new one in an upgrade shows as a difference in the count below). */
const HELMET_HEADERS = [
  'content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'cross-origin-embedder-policy',
  'origin-agent-cluster', 'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control',
  'x-download-options', 'x-frame-options', 'x-permitted-cross-domain-policies', 'x-xss-protection',
];

/**
 * The speed tricks of src/http/perf/, each checked through the real app, so an upgrade of
 * express or helmet that switches one off turns this red. What each trick saves is a measurement, not a test
 * (docs/maintainers/design.md, "Speed tricks"): nothing here depends on timing. The express classes are checked where
 * requests are born (test/http-server.test.ts) and measured with `node bench/express-classes.js`.
 */
describe('speed tricks, through the real createApp / createHttpServer', () => {
  it('when any origin is allowed, then the CORS headers of an answer equal what real cors sets on a real request, with and without an Origin', async () => {
    const { http } = makeApp({ config: { corsOrigins: '*' } });
    const plain = express();
    plain.use(apiCors('*'));
    plain.get('/books/1', (_req, res) => res.end());
    for (const origin of [undefined, 'https://app.example']) {
      const served = http.get('/books/1');
      const reference = request(plain).get('/books/1');
      if (origin) {
        served.set('Origin', origin);
        reference.set('Origin', origin);
      }
      const [ours, real] = await Promise.all([served.expect(200), reference.expect(200)]);
      const cors = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'));
      expect(Object.keys(cors(real.headers)).length).toBeGreaterThan(1);
      expect(cors(ours.headers)).toEqual(cors(real.headers));
    }
  });

  it("when requests for the spec's operations are served, then the validator's hand-off keeps every operation it meets, and says nothing", async () => {
    const { http, logs } = makeApp();
    for (let round = 0; round < 2; round += 1) {
      await http.get('/books/1').expect(200);
      await http.get('/books?limit=2').expect(200);
      await http.post('/books').send({ title: 'Warm' }).expect(201);
      await http.put('/books/1').send({ title: 'Kept' }).expect(200);
      await http.get('/todos').expect(200);
      // Still the validator's answers: its Ajv refuses a non-integer id and a body it does not allow.
      expect((await http.get('/books/abc').expect(400)).body.details[0].path).toBe('/params/id');
      expect((await http.post('/books').send({ title: 'T', pages: 'many' }).expect(400)).body.details[0].path).toBe('/body/pages');
    }
    expect(logs.filter((line) => String(line.msg).includes('hand-off'))).toEqual([]);
  });

  it("when the validator's route lookup records fields the hand-off does not know, then one warning per operation names the file to update, and every request is still validated", async () => {
    const named = (name: string, step: (req: Record<string, unknown>) => void = () => undefined) =>
      Object.defineProperty((req: Record<string, unknown>, _res: unknown, next: () => void) => (step(req), next()), 'name', { value: name });
    let validated = 0;
    const middlewares = [
      named('pathParamsMiddleware'),
      named('metadataMiddleware', (req) => (req.openapi = { expressRoute: '/books/:id', openApiRoute: '/books/{id}', pathParams: { id: '1' }, schema: {}, serial: 0, extra: true })),
      named('securityMiddleware'),
      named('requestMiddleware', () => (validated += 1)),
    ];
    const phase = validatorAfterMatch(middlewares as never);
    const warnings: string[] = [];
    const log = { warn: (message: string) => warnings.push(message) };
    const operation = { operationId: 'getBook', secured: false };
    const match = { route: { template: '/books/{id}', paramNames: ['id'] }, params: ['1'] };
    for (let i = 0; i < 3; i += 1) {
      await new Promise<void>((resolve, reject) => phase({ req: { params: {} }, res: {}, operation, match, log } as never, (err?: unknown) => (err ? reject(err) : resolve())));
    }
    expect(validated).toBe(3);
    expect(warnings).toEqual([
      "express-openapi-validator: its request metadata has fields the hand-off does not know (extra): requests for getBook run the validator's route lookup every time; update the hand-off in src/http/validate.ts",
    ]);
  });

  it("when express-openapi-validator's middlewares are not the ones the validate phase's hand-off knows, then building the phase throws one line naming where to update it", () => {
    const named = (name: string) => Object.defineProperty((_req: unknown, _res: unknown, next: () => void) => next(), 'name', { value: name });
    const renamed = ['pathParamsMiddleware', 'lookupMiddleware', 'securityMiddleware', 'requestMiddleware'].map(named);
    expect(() => validatorAfterMatch(renamed as never)).toThrow(/^express-openapi-validator: unexpected middlewares \(pathParamsMiddleware, lookupMiddleware, securityMiddleware, requestMiddleware\): update the hand-off in src\/http\/validate\.ts$/);
  });

  it("when a JSON answer is served, then the service's writer sends it with the headers express's res.json would set", async () => {
    const { http } = makeApp();
    const got = await http.get('/books/1').expect(200);
    const head = await http.head('/books/1').expect(200);
    // express's own res.json on the same body, for reference.
    const plain = express();
    plain.get('/books/1', (_req, res) => res.json(got.body));
    const reference = await request(plain).get('/books/1').expect(200);
    expect(got.text).toBe(reference.text);
    expect(got.headers['content-type']).toBe(reference.headers['content-type']);
    expect(got.headers['content-length']).toBe(reference.headers['content-length']);
    // HEAD: the same Content-Length, no body.
    expect(head.headers['content-length']).toBe(got.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it("when REST reads are served, then no request makes a child logger, and each request line still carries the request's id", async () => {
    const logs: Record<string, unknown>[] = [];
    const logger = createLogger('info', (line) => logs.push(JSON.parse(line)));
    const child = jest.spyOn(logger, 'child');
    const http = request(createApp({ store: makeStore(), config: testConfig(), logger }));
    // Twice each: the first request for an operation takes the validator's own route lookup, later ones the hand-off.
    for (const target of ['/books/1', '/books/1', '/books?limit=2', '/books?limit=2&pages[gte]=1', '/todos', '/todos']) {
      const answer = await http.get(target).set('X-Request-Id', `id-${logs.length}`).expect(200);
      expect(logs.at(-1)).toMatchObject({ msg: 'request', requestId: answer.headers['x-request-id'] });
    }
    expect(child).not.toHaveBeenCalled();
  });

  it('when a record is answered with its ETag, then its body is serialised once, for the tag and the answer alike', async () => {
    const { http, store } = makeApp();
    const record = await store.books.get(2);
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const got = await http.get('/books/2').expect(200);
      expect(got.headers.etag).toMatch(/^"/);
      expect(stringify.mock.calls.filter(([value]) => value === record)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('when the service refuses a request, then its ApiError captured no stack frames, and errors made after it still capture theirs', async () => {
    const { http } = makeApp();
    await http.get('/no-such-path').expect(404);
    const refusal = new ApiError(404, 'Not found: GET /nowhere');
    expect(refusal.stack).toBe('Error: Not found: GET /nowhere');
    expect(refusal).toBeInstanceOf(Error);
    expect(new Error('a defect').stack).toMatch(/\n\s+at /);
  });

  it('when a request is served, then the fixed security headers equal what real helmet sets on a real request', async () => {
    const { http } = makeApp();
    const served = await http.get('/books/1').expect(200);
    // Real helmet, as configured for the service, on a real request to a plain express app.
    const plain = express();
    plain.use(apiHelmet());
    plain.get('/books/1', (_req, res) => res.end());
    const reference = await request(plain).get('/books/1').expect(200);
    const set = Object.fromEntries(HELMET_HEADERS.filter((name) => reference.headers[name] !== undefined).map((name) => [name, reference.headers[name]]));
    expect(Object.keys(set).length).toBeGreaterThan(5);
    for (const [name, value] of Object.entries(set)) expect(served.headers[name]).toBe(value);
  });

  it('when a record, a page, a create and a GraphQL result are answered, then each head is written in one block: no header is set one at a time', async () => {
    const { http } = makeApp();
    const setOne = jest.spyOn(ServerResponse.prototype, 'setHeader');
    try {
      const answers = [http.get('/books/1').expect(200), http.get('/books?limit=2').expect(200), http.post('/books').send({ title: 'One block' }).expect(201), http.post('/graphql').send({ query: '{ books { id } }' }).expect(200)];
      for (const answer of answers) {
        setOne.mockClear();
        const res = await answer;
        expect(res.headers['x-request-id']).toBeDefined();
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(setOne.mock.calls.map(([name]) => name)).toEqual([]);
      }
    } finally {
      setOne.mockRestore();
    }
  });
});
