import { hs256, token } from '../auth/support';
import { rawExchange, serveForRawTests, type RawResult } from './support/raw';

/**
 * docs/contract.md §14.5 and §15.5: the HTTP/1.1 message rules run before the token check, for everyone. A
 * request that cannot be framed or targeted gets the same answer whether the instance checks tokens or not,
 * and closes its connection: a request pipelined behind it is never served (the request-smuggling guard).
 */

const LIMITS = { bodyLimit: 64 * 1024, headersTimeoutMs: 2000, requestTimeoutMs: 10_000 };

const head = (result: RawResult) => result.text.split('\r\n\r\n')[0];
const headerOf = (result: RawResult, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head(result))?.[1];
const statuses = (result: RawResult) => [...result.text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((m) => Number(m[1]));
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;

/** Requests HTTP/1.1 says a server must not serve, each with the status it gets; none carries a token. */
const CASES: [string, string, number][] = [
  ['HTTP/1.0 with Transfer-Encoding: chunked', `POST /books HTTP/1.0\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk('{"title":"Smuggled"}')}`, 400],
  ['two Host headers', 'POST /books HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"title":"Smuggled"}', 400],
  ['no Host', 'POST /books HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"title":"Smuggled"}', 400],
  ['an invalid Host', 'POST /books HTTP/1.1\r\nHost: local host/x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"title":"Smuggled"}', 400],
  ['Transfer-Encoding: gzip, chunked', `POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${chunk('{"title":"Smuggled"}')}`, 501],
  ['a target that is neither a path nor a URL', 'POST ftp://localhost/books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"title":"Smuggled"}', 400],
  ['a GraphQL mutation with two Host headers', 'POST /graphql HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: 47\r\n\r\n{"query":"mutation { addTodo(title: \\"x\\") { id } }"}'.replace('47', String(Buffer.byteLength('{"query":"mutation { addTodo(title: \\"x\\") { id } }"}'))), 400],
];

/** A create that would be served (and stored) if it were read as a request: with the token it needs when tokens are checked. */
const pipelined = (authorization: string | undefined) => {
  const body = '{"title":"Pipelined"}';
  return `POST /books HTTP/1.1\r\nHost: localhost\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
};

describe.each([
  ['auth off', undefined],
  ['auth on (AUTH_JWT_SECRET), no token sent', hs256()],
  ['auth on, reads need a token too', hs256({ AUTH_READS: 'token' })],
])('HTTP/1.1 message rules with %s', (_name, auth) => {
  const server = serveForRawTests({ ...LIMITS, auth });

  it.each(CASES)('when a request has %s, then it is refused with the same status, the connection closes, and the request pipelined behind it is never served', async (_case, request, status) => {
    const before = await server.counts();
    const writer = auth ? `Bearer ${await token('books:write books:read')}` : undefined;
    const result = await rawExchange(server.port, [request + pipelined(writer)]);
    expect(statuses(result)).toEqual([status]);
    expect(headerOf(result, 'connection')).toBe('close');
    expect(headerOf(result, 'www-authenticate')).toBeUndefined();
    expect(result.closed).toBe(true);
    expect(await server.counts()).toEqual(before);
    expect((await server.send({ method: 'GET', path: '/health/live' })).status).toBe(200);
  });

  it('when the pipelined create is sent alone, then it is served (the guard above is not a refusal of every create)', async () => {
    const before = await server.counts();
    const writer = auth ? `Bearer ${await token('books:write books:read')}` : undefined;
    const result = await rawExchange(server.port, [pipelined(writer).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')]);
    expect(statuses(result)).toEqual([201]);
    expect(await server.counts()).toEqual({ ...before, books: before.books + 1 });
  });
});

describe('a refusal for the token, on a connection that goes on', () => {
  const server = serveForRawTests({ ...LIMITS, auth: hs256({ AUTH_READS: 'token' }) });
  const get = (authorization?: string) => `GET /books/1 HTTP/1.1\r\nHost: localhost\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}\r\n`;

  it('when a read without a body is refused (401), then the connection stays open and the request pipelined behind it is answered', async () => {
    const reader = `Bearer ${await token('books:read')}`;
    const result = await rawExchange(server.port, [get() + get(reader).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')]);
    expect(statuses(result)).toEqual([401, 200]);
  });

  it('when a create is refused (401) before its body was read, then the answer says Connection: close and nothing pipelined behind it is served', async () => {
    const before = await server.counts();
    const writer = `Bearer ${await token('books:write books:read')}`;
    const result = await rawExchange(server.port, [pipelined(undefined) + pipelined(writer)]);
    expect(statuses(result)).toEqual([401]);
    expect(headerOf(result, 'connection')).toBe('close');
    expect(result.closed).toBe(true);
    expect(await server.counts()).toEqual(before);
  });
});
