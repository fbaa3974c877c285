import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
import request from 'supertest';
import { testConfig } from '../../src/config';
import { createHttpServer } from '../../src/http/http-server';
import { apiCors, apiHelmet } from '../../src/http/security';
import { validatorAfterMatch } from '../../src/http/validate';
import { makeApp } from '../support/app';
import { validatorPathToRegexp } from '../support/validator';

/** Every header helmet 8 may set (a new one in an upgrade shows as a difference in the count below). */
const HELMET_HEADERS = [
  'content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'cross-origin-embedder-policy',
  'origin-agent-cluster', 'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control',
  'x-download-options', 'x-frame-options', 'x-permitted-cross-domain-policies', 'x-xss-protection',
];

/**
 * The speed tricks of src/http/perf/, each checked through the real app, so an upgrade of
 * express or helmet that switches one off turns this red.
 */
describe('speed tricks, through the real createApp / createHttpServer', () => {
  it("when a request is served, then express's router runs one layer for the whole service, and a step's error still reaches the error handler", async () => {
    const { app, http } = makeApp();
    const stack = (app as unknown as { router: { stack: { handleRequest: (...args: unknown[]) => unknown }[] } }).router.stack;
    const layer = Object.getPrototypeOf(stack[0]) as { handleRequest: (...args: unknown[]) => unknown };
    const entered = jest.spyOn(layer, 'handleRequest');
    try {
      await http.get('/books/1').expect(200);
      // The service's phases (route, protect, dispatch, readBody, validate, handle, write) run in one express layer.
      expect(entered).toHaveBeenCalledTimes(1);
      // next(err) from a phase (the readBody phase's 415, the validator's 400) skips the rest of them.
      const unsupported = await http.post('/books').set('Content-Type', 'text/plain').send('x').expect(415);
      expect(unsupported.body).toEqual({ error: expect.stringMatching(/^Unsupported media type/) });
      const invalid = await http.post('/books').send({ title: 'T', pages: 'many' }).expect(400);
      expect(invalid.body.details[0].path).toBe('/body/pages');
    } finally {
      entered.mockRestore();
    }
  });

  it('when createHttpServer serves a request, then it is born with app.request and express never re-sets the prototype', async () => {
    const { app } = makeApp();
    const server = createHttpServer(app, testConfig());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const seen: { proto: unknown; resProto: unknown }[] = [];
    server.prependListener('request', (req, res) => seen.push({ proto: Object.getPrototypeOf(req), resProto: Object.getPrototypeOf(res) }));
    // What each object's prototype was when express asked to set it (recorded before the call goes through).
    const calls: { proto: unknown; before: unknown }[] = [];
    const setPrototypeOf = Object.setPrototypeOf;
    const spy = jest.spyOn(Object, 'setPrototypeOf').mockImplementation((target: object, proto: object | null) => {
      calls.push({ proto, before: Object.getPrototypeOf(target) });
      return setPrototypeOf(target, proto);
    });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/books/1`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      expect(seen).toEqual([{ proto: app.request, resProto: app.response }]);
      // express sets the app's prototypes on every request and response: each already had it, so the call
      // changes nothing and V8 keeps the object's shape.
      const ours = calls.filter(({ proto }) => proto === app.request || proto === app.response);
      expect(ours.length).toBeGreaterThanOrEqual(2);
      for (const { proto, before } of ours) expect(before).toBe(proto);
    } finally {
      spy.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when createHttpServer serves REST and GraphQL requests, then their request and response objects keep V8\'s fast properties', async () => {
    // V8's own answer (%HasFastProperties), reachable once natives syntax is allowed.
    setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;
    const dictionary: Record<string, number> = { a: 1, b: 2 };
    delete dictionary.a;
    expect([hasFastProperties({ a: 1 }), hasFastProperties(dictionary)]).toEqual([true, false]);
    const { app } = makeApp();
    const server = createHttpServer(app, testConfig());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const seen: { path: string; request: boolean; response: boolean }[] = [];
    // Read once the answer is complete: every step has added what it adds to the request and the response.
    server.on('request', (req, res) => res.once('finish', () => seen.push({ path: req.url!, request: hasFastProperties(req), response: hasFastProperties(res) })));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const json = { 'content-type': 'application/json' };
      const answers = await Promise.all([
        fetch(`${base}/books/1`),
        fetch(`${base}/books`, { method: 'POST', headers: json, body: JSON.stringify({ title: 'Fast', pages: 1 }) }),
        fetch(`${base}/graphql`, { method: 'POST', headers: json, body: JSON.stringify({ query: '{ users { name posts { title } } }' }) }),
      ]);
      expect(answers.map((res) => res.status)).toEqual([200, 201, 200]);
      await Promise.all(answers.map((res) => res.arrayBuffer()));
      expect(seen.sort((a, b) => a.path.localeCompare(b.path))).toEqual(
        ['/books', '/books/1', '/graphql'].map((path) => ({ path, request: true, response: true })),
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

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

  it('when an operation has been served once, then the validator validates later requests for it without its own route lookup', async () => {
    const { http } = makeApp();
    const compile = jest.spyOn(validatorPathToRegexp(), 'pathToRegexp');
    try {
      await http.get('/books/1').expect(200);
      await http.post('/books').send({ title: 'Warm' }).expect(201);
      // The first request for each operation ran the validator's route lookup.
      expect(compile).toHaveBeenCalled();
      compile.mockClear();
      await http.get('/books/2').expect(200);
      await http.get('/books/%33').expect(200);
      // Still the validator's answers: its Ajv refuses a non-integer id and a body it does not allow.
      const badId = await http.get('/books/abc').expect(400);
      expect(badId.body.details[0].path).toBe('/params/id');
      const badBody = await http.post('/books').send({ title: 'T', pages: 'many' }).expect(400);
      expect(badBody.body.details[0].path).toBe('/body/pages');
      expect(compile).not.toHaveBeenCalled();
      // A path parameter that does not decode takes the validator's whole chain, and its 400.
      await http.get('/books/%E0%A4%A').expect(400);
      expect(compile).toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });

  it("when express-openapi-validator's middlewares are not the ones the validate phase's hand-off knows, then building the phase throws one line naming where to update it", () => {
    const named = (name: string) => Object.defineProperty((_req: unknown, _res: unknown, next: () => void) => next(), 'name', { value: name });
    const renamed = ['pathParamsMiddleware', 'lookupMiddleware', 'securityMiddleware', 'requestMiddleware'].map(named);
    expect(() => validatorAfterMatch(renamed as never)).toThrow(/^express-openapi-validator: unexpected middlewares \(pathParamsMiddleware, lookupMiddleware, securityMiddleware, requestMiddleware\): update the hand-off in src\/http\/validate\.ts$/);
  });

  it("when a JSON answer is served, then the service's writer sends it with the headers express's res.json would set", async () => {
    const { http } = makeApp();
    const send = jest.spyOn(express.response, 'send');
    try {
      const got = await http.get('/books/1').expect(200);
      const head = await http.head('/books/1').expect(200);
      await http.post('/books').send({ title: 'Written once' }).expect(201);
      await http.get('/books/999999').expect(404);
      expect(send).not.toHaveBeenCalled();
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
    } finally {
      send.mockRestore();
    }
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
});
