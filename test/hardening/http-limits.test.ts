import { connect } from 'node:net';
import { rawExchange, serveForRawTests } from './support/raw';

const LIMITS = { maxHeaderSize: 8 * 1024, headersTimeoutMs: 600, requestTimeoutMs: 1200, keepAliveTimeoutMs: 500 };
const request = (head: string) => `${head}\r\nHost: localhost\r\n`;

describe('HTTP-level limits (short timeouts in this test config)', () => {
  const server = serveForRawTests(LIMITS);
  const { stillServing } = server;

  it('when the request headers are larger than MAX_HEADER_SIZE, then the answer is 431 and the connection closes', async () => {
    const result = await rawExchange(server.port, [request('GET /books HTTP/1.1') + `X-Big: ${'a'.repeat(9 * 1024)}\r\n\r\n`]);
    expect(result.status).toBe(431);
    expect(result.closed).toBe(true);
    await stillServing();
  });

  it('when a body declares 50 MB but sends little, then the answer is 413 at once, without waiting for the body', async () => {
    const head = request('POST /books HTTP/1.1') + `Content-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`;
    const result = await rawExchange(server.port, [head, '{"title":"' + 'x'.repeat(1000)], { waitMs: 3000 });
    expect(result.status).toBe(413);
    expect(result.text).toMatch(/"error":"Request body is larger than \d+ bytes"/);
    expect(result.ms).toBeLessThan(1000);
    await stillServing();
  });

  it('when a chunked body grows past the limit, then the answer is 413 before the client has sent it all', async () => {
    const head = request('POST /items HTTP/1.1') + 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = 'x'.repeat(16 * 1024);
    const chunks = [head, `${(chunk.length + 9).toString(16)}\r\n{"name":"${chunk}\r\n`];
    for (let i = 0; i < 200; i++) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const result = await rawExchange(server.port, chunks, { gapMs: 2, waitMs: 5000 });
    expect(result.status).toBe(413);
    expect(result.text).toMatch(/text\/plain/);
    expect(result.ms).toBeLessThan(400 * 1.5 + 1000);
    await stillServing();
  });

  it('when a client sends its headers too slowly, then the server answers 408 and closes it after HEADERS_TIMEOUT_MS', async () => {
    const drip = Array.from({ length: 30 }, (_, i) => `X-Drip-${i}: 1\r\n`);
    const result = await rawExchange(server.port, [request('GET /books HTTP/1.1'), ...drip], { gapMs: 100, waitMs: 5000 });
    expect(result.closed).toBe(true);
    expect([408, undefined]).toContain(result.status);
    expect(result.ms).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
    expect(result.ms).toBeLessThan(LIMITS.headersTimeoutMs + 1500);
  });

  it('when a client sends its body too slowly, then the connection is closed after REQUEST_TIMEOUT_MS and nothing is stored', async () => {
    const before = await server.store.books.list();
    const head = request('POST /books HTTP/1.1') + 'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n';
    const body = '{"title":"slow"'.split('');
    const result = await rawExchange(server.port, [head, ...body], { gapMs: 150, waitMs: 5000 });
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(LIMITS.requestTimeoutMs + 1500);
    expect((await server.store.books.list()).total).toBe(before.total);
  });

  it('when many connections open and stay idle, then other clients are served and the idle ones are closed', async () => {
    const sockets = Array.from({ length: 100 }, () => connect(server.port, '127.0.0.1'));
    const closed = sockets.map((s) => new Promise<void>((resolve) => s.on('close', () => resolve())));
    sockets.forEach((s) => s.on('error', () => undefined));
    await stillServing();
    const started = Date.now();
    await Promise.all(closed);
    expect(Date.now() - started).toBeLessThan(LIMITS.headersTimeoutMs + 1500);
    await stillServing();
  });

  it('when a client disconnects in the middle of a request body, then nothing is stored and the server keeps serving', async () => {
    const before = await server.store.books.list();
    const head = request('POST /books HTTP/1.1') + 'Content-Type: application/json\r\nContent-Length: 40\r\n\r\n';
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(head + '{"title":"half');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    await new Promise((r) => setTimeout(r, 100));
    expect((await server.store.books.list()).total).toBe(before.total);
    await stillServing();
  });

  it('when a keep-alive connection stays idle after a response, then the server closes it after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const result = await rawExchange(server.port, [request('GET /health HTTP/1.1') + '\r\n'], { waitMs: 4000 });
    expect(result.status).toBe(200);
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(LIMITS.keepAliveTimeoutMs + 1500);
  });
});
