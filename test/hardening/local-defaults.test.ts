import { loadConfig } from '../../src/config';
import { makeApp, snapshot } from '../support/app';

/**
 * docs/settings.md ("Safe defaults"): with no setting, a web page the developer opens cannot write to a local
 * instance. The service listens on loopback only (HOST opens it), and CORS lets any origin read but none write
 * (CORS_ORIGINS lets chosen origins, or all, write). Every write needs a CORS preflight (a method other than GET,
 * HEAD and POST, or a JSON body): refused, the browser never sends the write.
 */

const EVIL = 'https://evil.example';

describe('defaults for a developer\'s instance', () => {
  it('when nothing is set, then the service listens on loopback and CORS is read-only', () => {
    expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', corsOrigins: 'read-only' });
    expect(loadConfig({ HOST: '0.0.0.0', CORS_ORIGINS: '*' })).toMatchObject({ host: '0.0.0.0', corsOrigins: '*' });
  });

  it.each([
    ['DELETE /books/1', 'DELETE', '/books/1', ''],
    ['PUT /books/1 with JSON', 'PUT', '/books/1', 'content-type'],
    ['POST /books with JSON', 'POST', '/books', 'content-type'],
    ['POST /graphql with JSON (a mutation could be in it)', 'POST', '/graphql', 'content-type'],
    ['POST /items with JSON', 'POST', '/items', 'content-type'],
  ])('when a page on another origin asks to %s, then the preflight gets no CORS headers (the browser sends nothing)', async (_what, method, path, headers) => {
    const { http } = makeApp();
    let preflight = http.options(path).set('Origin', EVIL).set('Access-Control-Request-Method', method);
    if (headers) preflight = preflight.set('Access-Control-Request-Headers', headers);
    const res = await preflight.expect(204);
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(res.headers.allow).toEqual(expect.any(String));
  });

  it('when a page on another origin sends a write that needs no preflight, then nothing is stored and it may not read the answer', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    // A form post: text/plain, no preflight. The service takes JSON only.
    const res = await http.post('/books').set('Origin', EVIL).set('Content-Type', 'text/plain').send('{"title":"Forged"}').expect(415);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(await snapshot(store)).toEqual(before);
  });

  it('when a page on another origin reads, then it may (GET and HEAD, and their preflights)', async () => {
    const { http } = makeApp();
    const read = await http.get('/books/1').set('Origin', EVIL).expect(200);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    expect(read.headers['access-control-expose-headers']).toMatch(/ETag/);
    const preflight = await http.options('/books/1').set('Origin', EVIL).set('Access-Control-Request-Method', 'GET').set('Access-Control-Request-Headers', 'if-none-match').expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    const graphql = await http.get('/graphql').query({ query: '{ books { id } }' }).set('Origin', EVIL).set('Accept', 'application/json').expect(200);
    expect(graphql.headers['access-control-allow-origin']).toBe('*');
  });

  it('when CORS_ORIGINS names an origin, then that origin may write, and the others still may not', async () => {
    const { http } = makeApp({ config: { corsOrigins: ['http://localhost:5173'] } });
    const allowed = await http.options('/books/1').set('Origin', 'http://localhost:5173').set('Access-Control-Request-Method', 'DELETE').expect(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(allowed.headers['access-control-allow-methods']).toMatch(/DELETE/);
    const other = await http.options('/books/1').set('Origin', EVIL).set('Access-Control-Request-Method', 'DELETE').expect(204);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('when CORS_ORIGINS=*, then any origin may write (an explicit choice)', async () => {
    const { http } = makeApp({ config: { corsOrigins: '*' } });
    const res = await http.options('/books/1').set('Origin', EVIL).set('Access-Control-Request-Method', 'DELETE').expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toMatch(/DELETE/);
  });
});
