import { connect, type Socket } from 'node:net';
import { makeApp } from '../support/app';
import { listen } from './support/http';
import { rawExchange, serveForRawTests, type RawResult } from './support/raw';

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
  const server = serveForRawTests(LIMITS);
  const { counts, stillServing } = server;

  describe('a body over BODY_LIMIT, sent at once by a client that reads the answer afterwards', () => {
    it.each([
      ['/books', 'title', 'application/json; charset=utf-8', '{"error":"Request body is larger than 65536 bytes"}'],
      ['/items', 'name', 'text/plain; charset=utf-8', 'Request body is larger than 65536 bytes'],
    ])('when POST %s streams a chunked body of 8 MiB, then the client reads the 413 (not a reset) and nothing is stored', async (path, field, type, body) => {
      const before = await counts();
      const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const result = await rawExchange(server.port, [head + chunkedBody(field, 8 * 1024 * 1024)]);
      expect(result).toMatchObject({ status: 413, writeFailed: false });
      expect(header(result, 'content-type')).toBe(type);
      expect(header(result, 'connection')).toBe('close');
      expect(bodyOf(result)).toBe(body);
      expect(result.closed).toBe(true);
      expect(await counts()).toEqual(before);
      await stillServing();
    });

    it('when POST /books sends a Content-Length body of 8 MiB at once, then the client reads the 413 and nothing is stored', async () => {
      const before = await counts();
      const body = `{"title":"${'x'.repeat(8 * 1024 * 1024)}"}`;
      const head = `POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const result = await rawExchange(server.port, [head + body]);
      expect(result).toMatchObject({ status: 413, writeFailed: false });
      expect(bodyOf(result)).toBe('{"error":"Request body is larger than 65536 bytes"}');
      expect(await counts()).toEqual(before);
      await stillServing();
    });

    it('when POST /graphql streams a chunked body of 8 MiB, then the client reads the 413 in the GraphQL transport format and nothing runs', async () => {
      const before = await counts();
      const head = 'POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      const result = await rawExchange(server.port, [head + chunkedBody('query', 8 * 1024 * 1024)]);
      expect(result).toMatchObject({ status: 413, writeFailed: false });
      expect(JSON.parse(bodyOf(result))).toEqual({ error: 'Request body is larger than 65536 bytes', errors: [{ message: 'Request body is larger than 65536 bytes' }] });
      expect(await counts()).toEqual(before);
      await stillServing();
    });
  });
});

describe('HTTP/1.1 message rules (raw sockets)', () => {
  const server = serveForRawTests(LIMITS);
  const { counts } = server;
  const exchange = (request: string) => rawExchange(server.port, [request]);
  const post = (path: string, headers: string, body: string) =>
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;

  describe('transfer codings other than chunked', () => {
    it.each([
      ['/books', '{"title":"Zipped"}', 'application/json; charset=utf-8', '{"error":"Not implemented: transfer coding \\"gzip, chunked\\"; request bodies may only be sent as is or chunked"}'],
      ['/items', '{"name":"Zipped"}', 'text/plain; charset=utf-8', 'Not implemented: transfer coding "gzip, chunked"; request bodies may only be sent as is or chunked'],
    ])('when POST %s comes with Transfer-Encoding: gzip, chunked, then the answer is 501 in the family format, nothing is stored and the connection closes', async (path, body, type, answer) => {
      const before = await counts();
      const result = await exchange(post(path, 'Transfer-Encoding: gzip, chunked\r\n', chunk(body)));
      expect(result).toMatchObject({ status: 501, closed: true });
      expect(header(result, 'content-type')).toBe(type);
      expect(header(result, 'connection')).toBe('close');
      expect(bodyOf(result)).toBe(answer);
      expect(await counts()).toEqual(before);
    });

    it('when two Transfer-Encoding headers say gzip and chunked, then it is the same 501 and nothing is stored', async () => {
      const before = await counts();
      const result = await exchange(post('/books', 'Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n', chunk('{"title":"Zipped"}')));
      expect(result).toMatchObject({ status: 501, closed: true });
      expect(await counts()).toEqual(before);
    });

    it('when a GraphQL mutation comes with Transfer-Encoding: gzip, chunked, then the answer is 501 JSON and nothing runs', async () => {
      const before = await counts();
      const result = await exchange(post('/graphql', 'Transfer-Encoding: gzip, chunked\r\n', chunk('{"query":"mutation { addTodo(title: \\"Zipped\\") { id } }"}')));
      expect(result).toMatchObject({ status: 501, closed: true });
      expect(JSON.parse(bodyOf(result))).toEqual({ error: expect.stringMatching(/^Not implemented: transfer coding "gzip, chunked"/) });
      expect(await counts()).toEqual(before);
    });

    it.each(['identity', 'gzip', 'chunked, gzip'])('when the transfer codings are "%s" (chunked not last), then the answer is 501 (or 400 from Node\'s parser) and nothing is stored', async (codings) => {
      const before = await counts();
      const result = await exchange(post('/books', `Transfer-Encoding: ${codings}\r\n`, '{"title":"Framed"}'));
      expect(result.closed).toBe(true);
      expect([400, 501]).toContain(result.status);
      expect(await counts()).toEqual(before);
    });

    it('when an HTTP/1.0 request is chunked, then the answer is 400 (faulty framing) and nothing is stored', async () => {
      const before = await counts();
      const result = await exchange('POST /books HTTP/1.0\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' + chunk('{"title":"Old"}'));
      expect(result.text).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(result)).toBe('{"error":"Bad request: Transfer-Encoding is not allowed in an HTTP/1.0 request"}');
      expect(await counts()).toEqual(before);
    });

    it('when the body is plainly chunked, then it is read and stored as usual', async () => {
      const before = await counts();
      const result = await exchange(post('/books', 'Transfer-Encoding: chunked\r\nConnection: close\r\n', chunk('{"title":"Chunked"}')));
      expect(result.status).toBe(201);
      expect(await counts()).toEqual({ ...before, books: before.books + 1 });
    });

    it('when a body comes in chunks that split UTF-8 characters, then it is read whole and stored as sent', async () => {
      const title = 'Café ☕ au lait';
      const bytes = Buffer.from(JSON.stringify({ title }));
      // Node's parser hands each chunk of a chunked body to the reader on its own: cut inside "é" and inside "☕".
      const cuts = [bytes.indexOf(0xc3) + 1, bytes.indexOf(0xe2) + 2];
      const parts = [bytes.subarray(0, cuts[0]), bytes.subarray(cuts[0], cuts[1]), bytes.subarray(cuts[1])];
      const body = Buffer.concat([...parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
      const result = await rawExchange(server.port, [Buffer.concat([Buffer.from(post('/books', 'Transfer-Encoding: chunked\r\nConnection: close\r\n', '')), body])]);
      expect(result.status).toBe(201);
      expect(JSON.parse(Buffer.from(bodyOf(result), 'latin1').toString('utf8'))).toMatchObject({ title });
    });
  });

  describe('Host', () => {
    it.each([
      ['two Host headers', 'GET /books/1 HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n', 'Bad request: more than one Host header'],
      ['two Host headers in different cases', 'GET /books/1 HTTP/1.1\r\nHost: localhost\r\nhOST: localhost\r\n\r\n', 'Bad request: more than one Host header'],
      ['no Host header', 'GET /books/1 HTTP/1.1\r\n\r\n', 'Bad request: an HTTP/1.1 request needs a Host header'],
      ['an invalid Host', 'GET /books/1 HTTP/1.1\r\nHost: local host/x\r\n\r\n', 'Bad request: invalid Host header'],
    ])('when an HTTP/1.1 request has %s, then the answer is a JSON 400 and the connection closes', async (_case, request, message) => {
      const result = await exchange(request);
      expect(result).toMatchObject({ status: 400, closed: true });
      expect(header(result, 'content-type')).toBe('application/json; charset=utf-8');
      expect(JSON.parse(bodyOf(result))).toEqual({ error: message });
    });

    it('when a HEAD request has two Host headers, then the 400 comes as headers alone and the connection closes', async () => {
      const result = await exchange('HEAD /books/1 HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n');
      expect(result).toMatchObject({ status: 400, closed: true });
      expect(header(result, 'connection')).toBe('close');
      expect(Number(header(result, 'content-length'))).toBeGreaterThan(0);
      expect(bodyOf(result)).toBe('');
    });

    it('when a POST has two Host headers, then nothing is stored', async () => {
      const before = await counts();
      const result = await exchange(post('/books', 'Host: other\r\nContent-Length: 18\r\n', '{"title":"Twice"}'.padEnd(18)));
      expect(result.status).toBe(400);
      expect(await counts()).toEqual(before);
    });

    it('when the items family gets two Host headers, then the 400 is its one-line text', async () => {
      const result = await exchange('GET /items/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n');
      expect(result.status).toBe(400);
      expect(header(result, 'content-type')).toBe('text/plain; charset=utf-8');
      expect(bodyOf(result)).toBe('Bad request: more than one Host header');
    });

    it('when an HTTP/1.0 request has no Host, then it is served', async () => {
      const result = await exchange('GET /books/1 HTTP/1.0\r\n\r\n');
      expect(result.text).toMatch(/^HTTP\/1\.1 200 /);
      expect(JSON.parse(bodyOf(result))).toMatchObject({ id: 1 });
    });
  });

  describe('pipelined requests', () => {
    const create = (title: string, extra = '') => {
      const body = JSON.stringify({ title });
      return `POST /books HTTP/1.1\r\nHost: localhost\r\n${extra}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const statuses = (result: RawResult) => [...result.text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((m) => Number(m[1]));

    it.each([
      ['a body over the limit (413)', create('x'.repeat(70 * 1024)), 413],
      ['two Host headers (400)', create('Twice', 'Host: other\r\n'), 400],
      ['Transfer-Encoding: gzip, chunked (501)', post('/books', 'Transfer-Encoding: gzip, chunked\r\n', chunk('{"title":"Zipped"}')), 501],
    ])('when a valid request is pipelined behind one refused for %s, then only the refusal is answered and nothing is stored', async (_case, refused, status) => {
      const before = await counts();
      const result = await exchange(refused + create('Pipelined') + create('Pipelined too'));
      expect(statuses(result)).toEqual([status]);
      expect(result.closed).toBe(true);
      expect(await counts()).toEqual(before);
    });

    it('when valid requests are pipelined, then each is answered, in order, and stored once', async () => {
      const before = await counts();
      const result = await exchange(create('First') + create('Second') + 'GET /books/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(statuses(result)).toEqual([201, 201, 200]);
      const [first, second] = [...result.text.matchAll(/"title":"(First|Second)"/g)].map((m) => m[1]);
      expect([first, second]).toEqual(['First', 'Second']);
      expect(await counts()).toEqual({ ...before, books: before.books + 2 });
    });
  });

  describe('request targets', () => {
    it('when the target is in absolute form, then it is served as its path (and query)', async () => {
      const result = await exchange('GET http://localhost:3000/books?limit=1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(result.status).toBe(200);
      expect(header(result, 'x-total-count')).toBe(String((await server.store.books.list()).total));
      expect(JSON.parse(bodyOf(result))).toEqual([expect.objectContaining({ id: 1 })]);
    });

    it('when the absolute-form target names another host than Host, then it is served as its path too', async () => {
      const result = await exchange('GET HTTP://Other.Example/books/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(result.status).toBe(200);
      expect(JSON.parse(bodyOf(result))).toMatchObject({ id: 1 });
    });

    it('when a POST has an absolute-form target, then the record is created once, with a path Location', async () => {
      const before = await counts();
      const result = await exchange(`POST http://localhost/books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{"title":"Proxy"}`);
      expect(result.status).toBe(201);
      expect(header(result, 'location')).toBe(`/books/${JSON.parse(bodyOf(result)).id}`);
      expect(await counts()).toEqual({ ...before, books: before.books + 1 });
    });

    it('when the absolute-form target is the GraphQL endpoint, then the query runs', async () => {
      const result = await exchange('GET http://localhost/graphql?query=%7Bbook(id:%221%22)%7Bid%7D%7D HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nConnection: close\r\n\r\n');
      expect(result.status).toBe(200);
      expect(JSON.parse(bodyOf(result))).toEqual({ data: { book: { id: '1' } } });
    });

    it('when the target is neither a path nor an http(s) URL, then the answer is a JSON 400', async () => {
      const result = await exchange('GET ftp://localhost/books HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(result).toMatchObject({ status: 400, closed: true });
      expect(JSON.parse(bodyOf(result))).toEqual({ error: 'Bad request: the request target must be a path or an http(s) URL' });
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
      const serverSide = new Promise<Socket>((resolve) => server.server.once('connection', resolve));
      const head = 'POST /books HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      const result = await rawExchange(server.port, [head + chunkedBody('title', 8 * 1024 * 1024)]);
      expect(result.closed).toBe(true);
      // The service stopped reading soon after the limit (what the client managed to send depends on the kernel's buffers).
      expect((await serverSide).bytesRead).toBeLessThan(limits.bodyDrainLimit + 1024 * 1024);
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
