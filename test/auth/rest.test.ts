import { SignJWT } from 'jose';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { makeApp, snapshot } from '../support/app';
import { useRealClock, useTestClock } from '../support/clock';
import { hs256, keyPair, scopedOperations, SECRET, token, unsecured, type SpecOperation } from './support';

const operations = scopedOperations();
const writes = operations.filter((op) => op.scope.endsWith(':write'));
const reads = operations.filter((op) => op.scope.endsWith(':read'));

function call(http: ReturnType<typeof request>, op: SpecOperation, authorization?: string) {
  let req = http[op.method.toLowerCase() as 'get'](op.path);
  if (authorization !== undefined) req = req.set('Authorization', authorization);
  if (op.body !== undefined) req = req.set('Content-Type', op.contentType!).send(JSON.stringify(op.body));
  return req;
}

/** The error's message, in the operation's family format. */
function messageOf(op: SpecOperation, res: request.Response): string {
  if (op.errorFormat === 'text') {
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    return res.text;
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.body.error as string;
}

describe('auth on (AUTH_JWT_SECRET): every operation that writes', () => {
  it('the spec gives every collection a write and a read scope', () => {
    expect(new Set(writes.map((op) => op.scope))).toEqual(new Set(['books:write', 'todos:write', 'notes:write', 'items:write', 'tasks:write']));
    expect(new Set(reads.map((op) => op.scope))).toEqual(new Set(['books:read', 'todos:read', 'notes:read', 'items:read', 'tasks:read']));
  });

  const badTokens: [string, (op: SpecOperation) => Promise<string>][] = [
    ['a malformed token', async () => 'Bearer not.a.jwt'],
    ['a token that is not a JWT at all', async () => 'Bearer %%%'],
    ['a bad signature', async (op) => `Bearer ${await token(op.scope, {}, { secret: 'another-secret-that-is-at-least-32-bytes' })}`],
    ['alg none', async (op) => `Bearer ${unsecured(op.scope)}`],
    ['another algorithm (HS512)', async (op) => `Bearer ${await new SignJWT({ scope: op.scope }).setProtectedHeader({ alg: 'HS512' }).setSubject('alice').setExpirationTime('5m').sign(new TextEncoder().encode(SECRET))}`],
    ['an expired token (beyond the clock tolerance)', async (op) => `Bearer ${await token(op.scope, {}, { expires: Math.floor(Date.now() / 1000) - 120 })}`],
    ['a token not valid yet', async (op) => `Bearer ${await token(op.scope, { nbf: Math.floor(Date.now() / 1000) + 120 })}`],
  ];

  it.each(writes.map((op) => [op.operationId, op] as const))('%s: no token is a 401 with WWW-Authenticate: Bearer, and nothing is stored', async (_id, op) => {
    const { http, store } = makeApp({ config: { auth: hs256() } });
    const before = await snapshot(store);
    const res = await call(http, op).expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(messageOf(op, res)).toMatch(/^Unauthorized/);
    expect(await snapshot(store)).toEqual(before);
  });

  it.each(writes.map((op) => [op.operationId, op] as const))('%s: every bad token is a 401 invalid_token, and nothing is stored', async (_id, op) => {
    const { http, store } = makeApp({ config: { auth: hs256() } });
    const before = await snapshot(store);
    for (const [, make] of badTokens) {
      const res = await call(http, op, await make(op)).expect(401);
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(messageOf(op, res)).toMatch(/^Unauthorized/);
    }
    expect(await snapshot(store)).toEqual(before);
  });

  it.each(writes.map((op) => [op.operationId, op] as const))('%s: a token without the scope is a 403 insufficient_scope naming it', async (_id, op) => {
    const { http, store } = makeApp({ config: { auth: hs256() } });
    const before = await snapshot(store);
    const other = op.scope.replace(':write', ':read') + ' unrelated:write';
    const res = await call(http, op, `Bearer ${await token(other)}`).expect(403);
    expect(res.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${op.scope}"`);
    expect(messageOf(op, res)).toMatch(/^Forbidden/);
    expect(await snapshot(store)).toEqual(before);
  });

  it.each(writes.map((op) => [op.operationId, op] as const))('%s: a token with the scope gets the normal answer', async (_id, op) => {
    const { http } = makeApp({ config: { auth: hs256() } });
    const res = await call(http, op, `Bearer ${await token(`other:read ${op.scope}`)}`);
    expect(res.status).toBeLessThan(300);
  });

  it('a token expired within the clock tolerance (30 s) is still accepted', async () => {
    const { http } = makeApp({ config: { auth: hs256() } });
    const op = writes.find((w) => w.operationId === 'createBook')!;
    await call(http, op, `Bearer ${await token(op.scope, {}, { expires: Math.floor(Date.now() / 1000) - 10 })}`).expect(201);
  });

  it('AUTH_JWT_ISSUER and AUTH_JWT_AUDIENCE are checked when set', async () => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_JWT_ISSUER: 'https://issuer.example', AUTH_JWT_AUDIENCE: 'books-api' }) } });
    const op = writes.find((w) => w.operationId === 'createBook')!;
    for (const claims of [{}, { iss: 'https://other.example', aud: 'books-api' }, { iss: 'https://issuer.example', aud: 'other' }]) {
      const res = await call(http, op, `Bearer ${await token(op.scope, claims)}`).expect(401);
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
    await call(http, op, `Bearer ${await token(op.scope, { iss: 'https://issuer.example', aud: 'books-api' })}`).expect(201);
  });
});

describe('auth on: reads', () => {
  it.each(reads.map((op) => [op.operationId, op] as const))('%s: open with AUTH_READS=public (the default)', async (_id, op) => {
    const { http } = makeApp({ config: { auth: hs256() } });
    expect((await call(http, op)).status).toBe(200);
  });

  it.each(reads.map((op) => [op.operationId, op] as const))('%s: with AUTH_READS=token needs its read scope', async (_id, op) => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    expect((await call(http, op).expect(401)).headers['www-authenticate']).toBe('Bearer');
    const denied = await call(http, op, `Bearer ${await token(op.scope.replace(':read', ':write'))}`).expect(403);
    expect(denied.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${op.scope}"`);
    expect((await call(http, op, `Bearer ${await token(op.scope)}`)).status).toBe(200);
  });

  it('the health probes and the greeting stay open', async () => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    for (const path of ['/health', '/health/live', '/health/ready', '/greet/en']) expect((await http.get(path)).status).toBe(200);
  });
});

describe('auth on: public keys', () => {
  it.each([['RS256', 'rsa'], ['ES256', 'ec']] as const)('%s: a token signed with the key pair is accepted; HS256 with the PEM as secret is not', async (alg, type) => {
    const { file, privateKey } = keyPair(type);
    const settings = loadConfig({ AUTH_JWT_PUBLIC_KEY_FILE: file }).auth!;
    expect(settings.algorithm).toBe(alg);
    const { http } = makeApp({ config: { auth: settings } });
    const good = await new SignJWT({ scope: 'books:write' }).setProtectedHeader({ alg }).setSubject('alice').setExpirationTime('5m').sign(privateKey);
    await http.post('/books').set('Authorization', `Bearer ${good}`).send({ title: 'Signed' }).expect(201);
    // Algorithm confusion: the public key's PEM text used as an HMAC secret.
    const confused = await new SignJWT({ scope: 'books:write' }).setProtectedHeader({ alg: 'HS256' }).setSubject('mallory').setExpirationTime('5m').sign(new TextEncoder().encode(settings.key));
    const res = await http.post('/books').set('Authorization', `Bearer ${confused}`).send({ title: 'Forged' }).expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });
});

describe('auth on: principals', () => {
  it('an Idempotency-Key belongs to the principal that sent it', async () => {
    const { http, store } = makeApp({ config: { auth: hs256() } });
    const alice = `Bearer ${await token('books:write', { sub: 'alice' })}`;
    const bob = `Bearer ${await token('books:write', { sub: 'bob' })}`;
    const first = await http.post('/books').set('Authorization', alice).set('Idempotency-Key', 'shared-key').send({ title: 'Alice' }).expect(201);
    const replay = await http.post('/books').set('Authorization', alice).set('Idempotency-Key', 'shared-key').send({ title: 'Alice' }).expect(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const other = await http.post('/books').set('Authorization', bob).set('Idempotency-Key', 'shared-key').send({ title: 'Alice' }).expect(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.id).not.toBe(first.body.id);
    expect((await snapshot(store)).books).toHaveLength(7);
  });

  it("the request log line carries the principal's sub", async () => {
    const { http, logs } = makeApp({ config: { auth: hs256() } });
    await http.post('/books').set('Authorization', `Bearer ${await token('books:write', { sub: 'carol' })}`).send({ title: 'Logged' }).expect(201);
    await new Promise((resolve) => setImmediate(resolve));
    const line = logs.find((l) => l.msg === 'request' && l.path === '/books');
    expect(line?.sub).toBe('carol');
  });

  it('the rate limit counts per principal', async () => {
    // The window stands still (the test's clock): the third request is over the limit however slow the machine.
    useTestClock(Date.now());
    try {
      const { http } = makeApp({ config: { auth: hs256(), rateLimit: 2 } });
      const alice = `Bearer ${await token('books:write', { sub: 'alice' })}`;
      const bob = `Bearer ${await token('books:write', { sub: 'bob' })}`;
      for (let i = 0; i < 2; i++) await http.post('/books').set('Authorization', alice).send({ title: `A${i}` }).expect(201);
      await http.post('/books').set('Authorization', alice).send({ title: 'A3' }).expect(429);
      await http.post('/books').set('Authorization', bob).send({ title: 'B' }).expect(201);
    } finally {
      useRealClock();
    }
  });
});

describe('auth on: metrics, CORS, the served spec', () => {
  it('/metrics needs metrics:read, and counts refusals by operation', async () => {
    const { http } = makeApp({ config: { auth: hs256() } });
    await http.post('/books').send({ title: 'x' }).expect(401);
    await http.post('/books').set('Authorization', `Bearer ${await token('todos:write')}`).send({ title: 'x' }).expect(403);
    expect((await http.get('/metrics').expect(401)).headers['www-authenticate']).toBe('Bearer');
    await http.get('/metrics').set('Authorization', `Bearer ${await token('books:read')}`).expect(403);
    const res = await http.get('/metrics').set('Authorization', `Bearer ${await token('metrics:read')}`).expect(200);
    expect(res.text).toMatch(/http_auth_refusals_total\{operation="createBook",status="401"\} 1/);
    expect(res.text).toMatch(/http_auth_refusals_total\{operation="createBook",status="403"\} 1/);
    expect(res.text).not.toMatch(/alice/);
  });

  it('a CORS preflight allows Authorization, and answers expose WWW-Authenticate', async () => {
    const { http } = makeApp({ config: { auth: hs256(), corsOrigins: ['https://app.example'] } });
    const preflight = await http
      .options('/books')
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type')
      .expect(204);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/(^|, )Authorization(,|$)/);
    const refused = await http.post('/books').set('Origin', 'https://app.example').send({ title: 'x' }).expect(401);
    expect(refused.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(refused.headers['access-control-expose-headers']).toMatch(/WWW-Authenticate/);
  });

});

describe('auth off (no setting): the open contract', () => {
  it('every operation answers without a token, and so do the metrics', async () => {
    const { http } = makeApp();
    for (const op of writes.filter((w) => w.method === 'POST')) expect((await call(http, op)).status).toBe(201);
    await http.get('/metrics').expect(200);
  });

  it('a token is not read: even a bad one is ignored', async () => {
    const { http } = makeApp();
    await http.post('/books').set('Authorization', 'Bearer not.a.jwt').send({ title: 'x' }).expect(201);
  });
});
