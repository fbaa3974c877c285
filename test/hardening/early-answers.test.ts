import type { Socket } from 'node:net';
import type { Config } from '../../src/config';
import { hs256, token } from '../auth/support';
import { makeApp, snapshot } from '../support/app';
import { listen } from './support/http';
import { rawExchange, type RawResult } from './support/raw';

/**
 * docs/contract.md §14.3: one rule for every answer given before its request's body was read (a refusal, a 404,
 * a 405, a 413, an operation that takes no body): the answer says `Connection: close`, the rest of the body is
 * read and thrown away up to BODY_DRAIN_LIMIT, then the connection closes. Bounds are asserted from the server's
 * side (the bytes it read), never from what the client managed to send: socket buffers differ between machines.
 */

const DRAIN = 256 * 1024;
const LIMITS = { bodyLimit: 64 * 1024, bodyDrainLimit: DRAIN, headersTimeoutMs: 2000, requestTimeoutMs: 20_000 };
/** Far larger than any socket buffer (32 MiB here): the server cannot be "still reading" what the kernel holds. */
const ENDLESS = 96 * 1024 * 1024;

/** A chunked body of `total` bytes in 64 KiB chunks (a JSON string that never ends). */
function chunkedBody(total: number): string[] {
  const chunk = 'x'.repeat(64 * 1024);
  const chunks = [`2\r\n{"\r\n`];
  for (let sent = 0; sent < total; sent += chunk.length) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
  return chunks;
}

interface Exchange {
  result: RawResult;
  /** Bytes the server read from the connection, request head included. */
  serverRead: number;
}

/** Sends `head` then `chunks` to a fresh app with `config`, and reports what came back and what the server read. */
async function exchange(config: Partial<Config>, head: string, chunks: string[], prepare?: (port: number) => Promise<void>): Promise<Exchange & { changed: boolean }> {
  const made = makeApp({ config: { ...LIMITS, ...config } });
  const server = await listen(made.app, { ...LIMITS, ...config });
  try {
    await prepare?.(server.port);
    const before = await snapshot(made.store);
    const socket = new Promise<Socket>((resolve) => server.server.once('connection', resolve));
    const result = await rawExchange(server.port, [head, ...chunks]);
    const serverSide = await socket;
    if (!serverSide.destroyed) await new Promise((resolve) => serverSide.once('close', resolve));
    return { result, serverRead: serverSide.bytesRead, changed: JSON.stringify(await snapshot(made.store)) !== JSON.stringify(before) };
  } finally {
    await server.close();
  }
}

const post = (path: string, extra = '', type = 'application/json') => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\n${extra}Transfer-Encoding: chunked\r\n\r\n`;

/** Every early answer, with how to get it. */
const EARLY: [string, number, () => Promise<{ config: Partial<Config>; head: string; prepare?: (port: number) => Promise<void> }>][] = [
  ['401, no token', 401, async () => ({ config: { auth: hs256() }, head: post('/books') })],
  ['401, a bad token on /graphql', 401, async () => ({ config: { auth: hs256() }, head: post('/graphql', 'Authorization: Bearer not.a.jwt\r\n') })],
  ['403, a token without the scope', 403, async () => ({ config: { auth: hs256() }, head: post('/books', `Authorization: Bearer ${await token('books:read')}\r\n`) })],
  ['404, an unknown path', 404, async () => ({ config: {}, head: post('/nowhere') })],
  ['405, a method the path does not declare', 405, async () => ({ config: {}, head: post('/notes') })],
  ['413, a body over BODY_LIMIT', 413, async () => ({ config: {}, head: post('/books') })],
  ['415, a body that is not JSON', 415, async () => ({ config: {}, head: post('/books', '', 'text/plain') })],
  [
    '429, over the rate limit',
    429,
    async () => ({
      config: { rateLimit: 1 },
      head: post('/books'),
      prepare: async (port) => void (await rawExchange(port, ['GET /books/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'])),
    }),
  ],
  ['204, DELETE (an operation that takes no body)', 204, async () => ({ config: {}, head: 'DELETE /books/2 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n' })],
];

describe('an answer given before the body was read, for a body that never ends', () => {
  it.each(EARLY)('when the answer is a %s, then the server reads at most BODY_DRAIN_LIMIT more and closes the connection', async (_what, _status, make) => {
    const { config, head, prepare } = await make();
    const { result, serverRead, changed } = await exchange(config, head, chunkedBody(ENDLESS), prepare);
    expect(result.closed).toBe(true);
    expect(serverRead).toBeLessThan(DRAIN + 2 * 1024 * 1024);
    expect(changed).toBe(_status === 204);
  });

  it('when a file is streamed to a GET that came with an endless body, then the rest is read up to BODY_DRAIN_LIMIT too', async () => {
    const { result, serverRead } = await exchange({}, 'GET /docs/assets/swagger-ui.css HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n', chunkedBody(ENDLESS));
    expect(result.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(result.closed).toBe(true);
    expect(serverRead).toBeLessThan(DRAIN + 2 * 1024 * 1024);
  });
});

describe('an answer given before the body was read, for a body the client sends whole before reading', () => {
  it.each(EARLY)('when the answer is a %s, then the client reads it, with Connection: close, and the connection closes', async (_what, status, make) => {
    const { config, head, prepare } = await make();
    const body = status === 413 ? chunkedBody(DRAIN / 2) : chunkedBody(32 * 1024);
    const { result } = await exchange(config, head, [...body, '0\r\n\r\n'], prepare);
    expect(result).toMatchObject({ status, closed: true, writeFailed: false });
    expect(result.text.split('\r\n\r\n')[0]).toMatch(/\r\nConnection: close\r\n/i);
  });
});
