import { connect, type Socket } from 'node:net';
import { makeApp } from '../support/app';
import { listen, type Listening } from './support/http';
import { rawExchange, type RawResult } from './support/raw';

const LIMITS = { bodyLimit: 64 * 1024, headersTimeoutMs: 2000, requestTimeoutMs: 10_000 };

/** The body of a raw HTTP/1.1 answer (after the head), de-chunked when the answer is chunked. */
function bodyOf(result: RawResult): string {
  const [head, ...rest] = result.text.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  if (!/transfer-encoding: chunked/i.test(head)) return body;
  let out = '';
  for (let at = 0; ; ) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, eol), 16);
    if (!size) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

const header = (result: RawResult, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(result.text.split('\r\n\r\n')[0])?.[1];

/** A chunked body of `total` bytes, in 16 KiB chunks, that starts as a JSON object with `field`. */
function chunkedBody(field: string, total: number): string {
  const start = `{"${field}":"`;
  const chunks = [`${start.length.toString(16)}\r\n${start}\r\n`];
  const chunk = 'x'.repeat(16 * 1024);
  for (let sent = 0; sent < total; sent += chunk.length) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
  return chunks.join('') + '0\r\n\r\n';
}

describe('HTTP/1.1 edge cases (raw sockets)', () => {
  let server: Listening;
  let store: ReturnType<typeof makeApp>['store'];
  beforeAll(async () => {
    const made = makeApp({ config: LIMITS });
    store = made.store;
    server = await listen(made.app, LIMITS);
  });
  afterAll(() => server.close());
  const counts = async () => ({ books: (await store.books.list()).total, items: (await store.items.list()).total, todos: (await store.todos.list()).total });
  const stillServing = async () => expect((await server.send({ method: 'GET', path: '/books/1' })).status).toBe(200);

  describe('a body over BODY_LIMIT, sent at once by a client that reads the answer afterwards', () => {
    it.each([
      ['/books', 'title', 'application/json; charset=utf-8', '{"error":"Request body is larger than 65536 bytes"}'],
      ['/items', 'name', 'text/plain; charset=utf-8', 'Request body is larger than 65536 bytes'],
    ])('when POST %s streams a chunked body of 8 MiB, then the client reads the 413 (not a reset) and nothing is stored', async (path, field, type, body) => {
      const before = await counts();
      const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const result = await rawExchange(server.port, [head + chunkedBody(field, 8 * 1024 * 1024)], { waitMs: 8000 });
      expect(result).toMatchObject({ status: 413, writeFailed: false });
      expect(header(result, 'content-type')).toBe(type);
      expect(bodyOf(result)).toBe(body);
      expect(result.closed).toBe(true);
      expect(await counts()).toEqual(before);
      await stillServing();
    });

    it('when POST /books sends a Content-Length body of 8 MiB at once, then the client reads the 413 and nothing is stored', async () => {
      const before = await counts();
      const body = `{"title":"${'x'.repeat(8 * 1024 * 1024)}"}`;
      const head = `POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const result = await rawExchange(server.port, [head + body], { waitMs: 8000 });
      expect(result).toMatchObject({ status: 413, writeFailed: false });
      expect(bodyOf(result)).toBe('{"error":"Request body is larger than 65536 bytes"}');
      expect(await counts()).toEqual(before);
      await stillServing();
    });

    it('when POST /graphql streams a chunked body of 8 MiB, then the client reads the 413 in the GraphQL transport format and nothing runs', async () => {
      const before = await counts();
      const head = 'POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      const result = await rawExchange(server.port, [head + chunkedBody('query', 8 * 1024 * 1024)], { waitMs: 8000 });
      expect(result).toMatchObject({ status: 413, writeFailed: false });
      expect(JSON.parse(bodyOf(result))).toEqual({ error: 'Request body is larger than 65536 bytes', errors: [{ message: 'Request body is larger than 65536 bytes' }] });
      expect(await counts()).toEqual(before);
      await stillServing();
    });
  });
});


describe('the bounds on discarding a refused body', () => {
  it('when a refused body goes on past BODY_DRAIN_LIMIT, then the connection is cut and nothing is stored', async () => {
    const limits = { ...LIMITS, bodyDrainLimit: 256 * 1024 };
    const made = makeApp({ config: limits });
    const server = await listen(made.app, limits);
    try {
      const before = (await made.store.books.list()).total;
      const head = 'POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      const result = await rawExchange(server.port, [head + chunkedBody('title', 8 * 1024 * 1024)], { waitMs: 8000 });
      expect(result).toMatchObject({ closed: true, writeFailed: true });
      expect((await made.store.books.list()).total).toBe(before);
      expect((await server.send({ method: 'GET', path: '/books/1' })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('when a client stops sending in the middle of a refused body and never closes, then the server closes the connection', async () => {
    const limits = { ...LIMITS, headersTimeoutMs: 500, requestTimeoutMs: 1000, keepAliveTimeoutMs: 500 };
    const made = makeApp({ config: limits });
    const server = await listen(made.app, limits);
    const client = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    try {
      const serverSide = new Promise<Socket>((resolve) => server.server.once('connection', resolve));
      let answer = '';
      client.on('data', (d: Buffer) => (answer += d.toString('latin1')));
      client.on('error', () => undefined);
      client.write(`POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n`);
      client.write(`{"title":"${'x'.repeat(100 * 1024)}`);
      const socket = await serverSide;
      // Bounded by the server's own timeouts: the test's timeout is the only other way out.
      await new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    } finally {
      client.destroy();
      await server.close();
    }
  });
});
