import { SignJWT } from 'jose';
import { makeGqlApp } from '../graphql/support';
import { makeApp, snapshot } from '../support/app';
import { hs256, SECRET, token } from './support';

/** A token signed with the test secret, with exactly `claims` (no `exp` unless given). */
const signed = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(SECRET));

describe('tokens without exp (RFC 8725: no token lives forever)', () => {
  it('when a token has no exp, then a write is a 401 invalid_token that says so, and nothing is stored', async () => {
    const { http, store } = makeApp({ config: { auth: hs256() } });
    const before = await snapshot(store);
    const res = await http.post('/books').set('Authorization', `Bearer ${await signed({ sub: 'alice', scope: 'books:write' })}`).send({ title: 'Forever' }).expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(res.body).toEqual({ error: 'Unauthorized: the token has no exp claim' });
    expect(await snapshot(store)).toEqual(before);
  });

  it('when a GraphQL mutation comes with a token that has no exp, then it is the same 401', async () => {
    const { http } = makeGqlApp({ config: { auth: hs256() } });
    const res = await http.post('/graphql').set('Authorization', `Bearer ${await signed({ sub: 'alice', scope: 'todos:write todos:read' })}`).send({ query: 'mutation { addTodo(title: "x") { id } }' }).expect(401);
    expect(res.body).toEqual({ errors: [{ message: 'Unauthorized: the token has no exp claim', extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it('when the same token has an exp, then it is accepted', async () => {
    const { http } = makeApp({ config: { auth: hs256() } });
    await http.post('/books').set('Authorization', `Bearer ${await signed({ sub: 'alice', scope: 'books:write', exp: Math.floor(Date.now() / 1000) + 60 })}`).send({ title: 'Timed' }).expect(201);
  });
});

describe('a bad token gets the same answer over REST and GraphQL, even on a public read (RFC 6750 §3.1)', () => {
  const bad = [
    ['a malformed token', 'Bearer not.a.jwt'],
    ['a token signed with another key', async () => `Bearer ${await token('books:read', {}, { secret: 'another-secret-that-is-at-least-32-bytes' })}`],
    ['an expired token', async () => `Bearer ${await token('books:read', {}, { expires: Math.floor(Date.now() / 1000) - 120 })}`],
  ] as const;

  it.each(bad)('when %s is sent to a public read, then REST and GraphQL both answer 401 invalid_token with the same message', async (_what, make) => {
    const authorization = typeof make === 'string' ? make : await make();
    const { http } = makeApp({ config: { auth: hs256() } });
    const rest = await http.get('/books/1').set('Authorization', authorization).expect(401);
    const graphql = await http.post('/graphql').set('Authorization', authorization).send({ query: '{ book(id: "1") { title } }' }).expect(401);
    expect(rest.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(graphql.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(rest.body.error).toMatch(/^Unauthorized: /);
    expect(graphql.body).toEqual({ errors: [{ message: rest.body.error, extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it('when no token is sent to a public read, then both answer it', async () => {
    const { http } = makeApp({ config: { auth: hs256() } });
    await http.get('/books/1').expect(200);
    expect((await http.post('/graphql').send({ query: '{ book(id: "1") { title } }' }).expect(200)).body.data.book.title).toEqual(expect.any(String));
  });

  it('when a valid token is sent to a public read, then both answer it', async () => {
    const { http } = makeApp({ config: { auth: hs256() } });
    const authorization = `Bearer ${await token('todos:write')}`;
    await http.get('/books/1').set('Authorization', authorization).expect(200);
    await http.post('/graphql').set('Authorization', authorization).send({ query: '{ book(id: "1") { title } }' }).expect(200);
  });

  it('when a bad token is sent to the health probes or the greeting, which declare no bearer scheme, then it is not read', async () => {
    const { http } = makeApp({ config: { auth: hs256() } });
    for (const path of ['/health', '/health/live', '/greet/en']) await http.get(path).set('Authorization', 'Bearer not.a.jwt').expect(200);
  });
});

describe('another scheme than Bearer (Authorization: Basic ...) is no bearer token (RFC 6750 §3.1)', () => {
  const basic = `Basic ${Buffer.from('alice:secret').toString('base64')}`;

  it('when it comes with a GraphQL mutation, then the 401 asks for a bearer token, without an error code', async () => {
    const { http } = makeGqlApp({ config: { auth: hs256() } });
    const res = await http.post('/graphql').set('Authorization', basic).send({ query: 'mutation { addTodo(title: "x") { id } }' }).expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual({ errors: [{ message: 'Unauthorized: a bearer token is required', extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it('when it comes with a GraphQL query that needs no scope, then the query runs', async () => {
    const { http } = makeGqlApp({ config: { auth: hs256() } });
    const res = await http.post('/graphql').set('Authorization', basic).send({ query: '{ books { id } }' }).expect(200);
    expect(res.body.errors).toBeUndefined();
  });

  it('when it comes with a REST write, then the answer is the same as with no token', async () => {
    const { http } = makeApp({ config: { auth: hs256() } });
    const res = await http.post('/books').set('Authorization', basic).send({ title: 'x' }).expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual({ error: 'Unauthorized: a bearer token is required' });
  });
});

describe('OPTIONS needs no token (a browser sends no credential with its preflight)', () => {
  it('when a preflight asks for GET /metrics with Authorization, then it is a 204 with the CORS headers, not a 401', async () => {
    const { http } = makeApp({ config: { auth: hs256(), corsOrigins: ['https://dashboard.example'] } });
    const res = await http
      .options('/metrics')
      .set('Origin', 'https://dashboard.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://dashboard.example');
    expect(res.headers['access-control-allow-headers']).toMatch(/(^|, )Authorization(,|$)/);
    expect(res.headers.allow).toBe('GET, HEAD');
    await http.get('/metrics').expect(401);
  });

  it.each(['/books', '/books/1', '/graphql', '/items'])('when OPTIONS %s comes with no token on an instance whose reads need one, then it is a 204 with Allow', async (path) => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    const res = await http.options(path).expect(204);
    expect(res.headers.allow).toEqual(expect.any(String));
  });
});

describe("the request log shows a token's sub as it was sent, never as a terminal would render it", () => {
  it.each([
    ['a right-to-left override (U+202E)', 'alice\u202Egpj.exe', 'alice\\u202egpj.exe'],
    ['a newline and a carriage return', 'alice\n{"level":"info","sub":"admin"}\r', 'alice\\u000a{"level":"info","sub":"admin"}\\u000d'],
    ['a zero-width space and an escape character', 'ad\u200Bmin\u001b[31m', 'ad\\u200bmin\\u001b[31m'],
    ['a backslash that could fake an escape', 'alice\\u202e', 'alice\\\\u202e'],
    ['letters of any script, and emoji', 'Zoë 東京 🙂', 'Zoë 東京 🙂'],
  ])('when the sub has %s, then the log line carries it with only what a terminal would render differently escaped', async (_what, sub, logged) => {
    const { http, logs } = makeApp({ config: { auth: hs256() } });
    await http.post('/books').set('Authorization', `Bearer ${await token('books:write', { sub })}`).send({ title: 'Logged' }).expect(201);
    await new Promise((resolve) => setImmediate(resolve));
    const line = logs.find((l) => l.msg === 'request' && l.path === '/books');
    expect(line?.sub).toBe(logged);
  });
});
