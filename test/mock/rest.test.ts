import { ContractError } from '../../src/startup/contract-check';
import { responseChecks } from '../../src/rest/response-check';
import { buildApp, specWithUnimplemented } from './support';

const openapi = specWithUnimplemented();
const checks = responseChecks(openapi);

/** Throws unless `body` is what openapi.yaml (the copy) allows for `status` of `operationId`. */
function expectValid(operationId: string, status: number, body: unknown) {
  expect(() => checks(operationId).body(status, body)).not.toThrow();
}

describe('MOCK_UNIMPLEMENTED: REST operations with no handler answer from the spec', () => {
  const { http, logs } = buildApp({ openapi, config: { mockUnimplemented: true } });

  it('when the service starts, then one log line lists every mocked operation by operationId, method and path', () => {
    const lines = logs.filter((line) => String(line.msg).startsWith('MOCK_UNIMPLEMENTED'));
    expect(lines).toHaveLength(1);
    for (const name of ['createQuote (POST /quotes)', 'getQuote (GET /quotes/{id})', 'getQuoteStats (GET /quote-stats)', 'getMotto (GET /motto)']) {
      expect(lines[0].msg).toContain(name);
    }
    expect(lines[0].msg).not.toContain('createBook');
  });

  it('when an operation has an example, then it answers the lowest 2xx with it, the required headers and the mock header', async () => {
    const res = await http.post('/quotes').send({ text: 'Anything' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 7, text: 'Less is more.' });
    expect(res.headers.location).toBe('/quotes/7');
    expect(res.headers['x-mock']).toBe('example');
    expectValid('createQuote', 201, res.body);
  });

  it('when a response has named examples only, then the first one answers, and Prefer: example= picks another', async () => {
    const first = await http.get('/quotes/5');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: 1, text: 'Be brief.' });
    expect(first.headers['x-mock']).toBe('example=short');
    const long = await http.get('/quotes/5').set('Prefer', 'example=long');
    expect(long.status).toBe(200);
    expect(long.body).toEqual({ id: 2, text: 'A long quote, for those who like them long.' });
    expect(long.headers['x-mock']).toBe('example=long');
    expectValid('getQuote', 200, long.body);
  });

  it('when Prefer: code= names a declared status, then that response answers, combinable with example=', async () => {
    const missing = await http.get('/quotes/5').set('Prefer', 'code=404');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Quote 42 not found' });
    const gone = await http.get('/quotes/5').set('Prefer', 'code=404, example=gone');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'Quote 42 was deleted' });
    expect(gone.headers['x-mock']).toBe('example=gone');
    expectValid('getQuote', 404, gone.body);
  });

  it('when the preference names a status or example the spec does not declare, then a 400 in the JSON format says what it declares', async () => {
    const code = await http.get('/quotes/5').set('Prefer', 'code=418');
    expect(code.status).toBe(400);
    expect(code.body.error).toBe('Mocked operation getQuote cannot answer Prefer: code=418: openapi.yaml declares 200, 400, 404');
    const example = await http.get('/quotes/5').set('Prefer', 'example=medium');
    expect(example.status).toBe(400);
    expect(example.body.error).toBe('Mocked operation getQuote has no example "medium" for 200: openapi.yaml names short, long');
  });

  it('when a response has no example, then the body is generated from its schema and is valid against it', async () => {
    const res = await http.get('/quote-stats');
    expect(res.status).toBe(200);
    expect(res.headers['x-mock']).toBe('schema');
    expect(res.body).toMatchObject({ count: 3, status: 'ready', tags: ['short', 'long'] });
    expect(res.body.code).toMatch(/^[A-Z]{3}-\d{4}$/);
    expect(res.body.label.length).toBeGreaterThanOrEqual(12);
    expectValid('getQuoteStats', 200, res.body);
  });

  it.each([
    ['/quote-stats', 'getQuoteStats', 'JsonNotFound', 'Book 42 not found'],
    ['/motto', 'getMotto', 'TextNotFound', 'Item 42 not found'],
  ])('when %s answers Prefer: code=404 from a response other operations share (%s, %s), then the body comes from the schema, never the other resource\'s example', async (path, operationId, _shared, othersExample) => {
    const res = await http.get(path).set('Prefer', 'code=404');
    expect(res.status).toBe(404);
    expect(res.headers['x-mock']).toBe('schema');
    expect(res.text).not.toContain(othersExample);
    expectValid(operationId, 404, path === '/motto' ? res.text : res.body);
  });

  it('when a shared response\'s example is asked for by name, then it answers (the client chose it); unnamed, the body comes from the schema', async () => {
    const named = await http.get('/quote-stats').set('Prefer', 'code=503, example=busy');
    expect(named.status).toBe(503);
    expect(named.body).toEqual({ error: 'Server busy, retry later' });
    expect(named.headers['x-mock']).toBe('example=busy');
    const unnamed = await http.get('/quote-stats').set('Prefer', 'code=503');
    expect(unnamed.headers['x-mock']).toBe('schema');
    expectValid('getQuoteStats', 503, unnamed.body);
  });

  it('when a text/plain operation is mocked, then it answers text, and its refusals are text/plain too', async () => {
    const res = await http.get('/motto');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['x-mock']).toBe('schema');
    expect(res.text.length).toBeGreaterThanOrEqual(3);
    const refused = await http.get('/motto').set('Prefer', 'code=500');
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.text).toContain('getMotto cannot answer Prefer: code=500');
  });

  it('when a request to a mocked operation breaks the spec, then it is refused as usual, before any mock', async () => {
    const badBody = await http.post('/quotes').send({ text: 'ok', extra: 1 });
    expect(badBody.status).toBe(400);
    expect(badBody.headers['x-mock']).toBeUndefined();
    const noBody = await http.post('/quotes').set('Content-Type', 'text/plain').send('hello');
    expect(noBody.status).toBe(415);
    const badId = await http.get('/quotes/abc');
    expect(badId.status).toBe(400);
    const method = await http.delete('/quotes/5');
    expect(method.status).toBe(405);
    expect(method.headers.allow).toBe('GET');
  });

  it('when a mocked GET is asked with HEAD, then it answers the same status and headers without a body', async () => {
    const res = await http.head('/quotes/5');
    expect(res.status).toBe(200);
    expect(res.headers['x-mock']).toBe('example=short');
    expect(res.text).toBeUndefined();
  });

  it('when a cross-origin script reads a mocked answer, then the mock header is exposed, and Prefer may be sent', async () => {
    const res = await http.get('/quotes/5').set('Origin', 'https://app.example');
    expect(res.headers['access-control-expose-headers'].toLowerCase().split(/,\s*/)).toContain('x-mock');
    const preflight = await http.options('/quotes/5').set('Origin', 'https://app.example').set('Access-Control-Request-Method', 'GET').set('Access-Control-Request-Headers', 'prefer');
    expect(preflight.headers['access-control-allow-headers'].toLowerCase().split(/,\s*/)).toContain('prefer');
  });

  it('when an operation has its handler, then it answers from the store, not from the spec', async () => {
    const res = await http.get('/books/1');
    expect(res.status).toBe(200);
    expect(res.headers['x-mock']).toBeUndefined();
    expect(res.body).toEqual({ id: 1, title: expect.any(String), pages: expect.any(Number) });
  });
});

describe('without MOCK_UNIMPLEMENTED, half a contract is refused', () => {
  it('when the spec has operations with no handler, then createApp throws the one-line ContractError naming them', () => {
    let error: unknown;
    try {
      buildApp({ openapi });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toBe(
      'Contract not fully implemented: openapi.yaml operations without a handler: createQuote (POST /quotes), getQuote (GET /quotes/{id}), getQuoteStats (GET /quote-stats), getMotto (GET /motto)',
    );
  });

  it('when MOCK_UNIMPLEMENTED is on and everything is implemented, then nothing answers as a mock', async () => {
    const { http, logs } = buildApp({ config: { mockUnimplemented: true } });
    expect(logs.some((line) => line.msg === 'MOCK_UNIMPLEMENTED: everything is implemented, nothing is mocked')).toBe(true);
    const res = await http.get('/books');
    expect(res.status).toBe(200);
    expect(res.headers['x-mock']).toBeUndefined();
  });
});
