import { connect } from 'node:net';
import { rawExchange, serveForRawTests } from './support/raw';

/** Polls until `check` holds; the test's timeout guards against a hang. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const LIMITS = { maxHeaderSize: 8 * 1024, headersTimeoutMs: 600, requestTimeoutMs: 1200, keepAliveTimeoutMs: 500 };
const request = (head: string) => `${head}\r\nHost: localhost\r\n`;

/**
 * The server's own limits, seen from raw sockets. Nothing here bounds how long the server takes: each test ends on an
 * event (the answer, the close), a client that must be cut off never stops sending by itself, and a timeout is
 * only checked to have come no earlier than its setting, measured from before the client connected.
 */
describe('HTTP-level limits (short timeouts in this test config)', () => {
  const server = serveForRawTests(LIMITS);
  const { stillServing } = server;

  it('when the request headers are larger than MAX_HEADER_SIZE, then the answer is 431 and the connection closes', async () => {
    const result = await rawExchange(server.port, [request('GET /books HTTP/1.1') + `X-Big: ${'a'.repeat(9 * 1024)}\r\n\r\n`]);
    expect(result.status).toBe(431);
    expect(result.closed).toBe(true);
    await stillServing();
  });

  it('when a body declares 50 MB but sends little and then nothing, then the answer is 413, without waiting for the body', async () => {
    const head = request('POST /books HTTP/1.1') + `Content-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`;
    // The client never sends the rest: an answer can only come from a server that does not wait for it.
    const result = await rawExchange(server.port, [head, '{"title":"' + 'x'.repeat(1000)], { until: (text) => text.includes('\r\n\r\n{') });
    expect(result.status).toBe(413);
    expect(result.text).toMatch(/"error":"Request body is larger than \d+ bytes"/);
    await stillServing();
  });

  it('when a chunked body grows past the limit and the client then stops without ending it, then the answer is 413', async () => {
    const head = request('POST /items HTTP/1.1') + 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = 'x'.repeat(16 * 1024);
    // 8 chunks of 16 KiB, past the 100 KiB limit, and never the last chunk: the answer comes before the body ends.
    const chunks = [head, `${(chunk.length + 9).toString(16)}\r\n{"name":"${chunk}\r\n`];
    for (let i = 0; i < 7; i++) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const result = await rawExchange(server.port, chunks, { until: (text) => /\r\n\r\n.+/s.test(text) });
    expect(result.status).toBe(413);
    expect(result.text).toMatch(/text\/plain/);
    await stillServing();
  });

  it('when a client sends its headers slowly and never ends them, then the server answers 408 (or nothing) and closes it, not before HEADERS_TIMEOUT_MS', async () => {
    let n = 0;
    const started = Date.now();
    const result = await rawExchange(server.port, [request('GET /books HTTP/1.1')], { gapMs: 100, endless: () => `X-Drip-${n++}: 1\r\n` });
    expect(result.closed).toBe(true);
    expect([408, undefined]).toContain(result.status);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs);
  });

  it('when a client sends its body slowly and never ends it, then the connection is closed, not before REQUEST_TIMEOUT_MS, and nothing is stored', async () => {
    const before = await server.store.books.list();
    const head = request('POST /books HTTP/1.1') + 'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"title":"slow';
    const started = Date.now();
    const result = await rawExchange(server.port, [head], { gapMs: 150, endless: () => 'w' });
    expect(result.closed).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs);
    expect((await server.store.books.list()).total).toBe(before.total);
  });

  it('when many connections open and stay idle, then other clients are served and the idle ones are closed', async () => {
    const sockets = Array.from({ length: 100 }, () => connect(server.port, '127.0.0.1'));
    const closed = sockets.map((s) => new Promise<void>((resolve) => s.on('close', () => resolve())));
    // Each reads what comes: Node's own headers-timeout check may answer 408 before the server closes the connection,
    // and a socket that leaves data unread never ends, so it would never close.
    sockets.forEach((s) => s.on('error', () => undefined).resume());
    await stillServing();
    await Promise.all(closed);
    await stillServing();
  });

  it('when a client disconnects in the middle of a request body, then the request ends as aborted, nothing is stored and the server keeps serving', async () => {
    const before = await server.store.books.list();
    const head = request('POST /books HTTP/1.1') + 'Content-Type: application/json\r\nContent-Length: 40\r\n\r\n';
    const logged = server.logs.length;
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(head + '{"title":"half', () => socket.destroy()));
      socket.on('close', () => resolve());
    });
    // The request's own log line says it is over (aborted): only then is "nothing stored" a fact, not a race.
    await until(() => server.logs.slice(logged).some((line) => line.method === 'POST' && line.aborted === true));
    expect((await server.store.books.list()).total).toBe(before.total);
    await stillServing();
  });

  it('when a keep-alive connection stays idle after a response, then the server closes it (KEEP_ALIVE_TIMEOUT_MS)', async () => {
    const result = await rawExchange(server.port, [request('GET /health HTTP/1.1') + '\r\n']);
    expect(result.status).toBe(200);
    expect(result.text).not.toMatch(/connection: close/i);
    expect(result.closed).toBe(true);
  });
});
