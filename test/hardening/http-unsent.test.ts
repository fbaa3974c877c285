import { connect, type Socket } from 'node:net';
import express from 'express';
import { makeApp, makeService } from '../support/app';
import { listen, type Listening } from './support/http';

/** About 4 MiB of books: more than the loopback connection's kernel buffers take from a client that does not read. */
async function bigCollection(store: ReturnType<typeof makeApp>['store']): Promise<void> {
  for (let i = 0; i < 4000; i++) await store.books.create({ title: `${i} ${'x'.repeat(990)}`, pages: i });
}

/**
 * The first `count` server-side sockets, so a test can wait for the server to close them (the client
 * never reads, so it cannot tell).
 */
function serverSockets(server: Listening, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  return new Promise((resolve) => {
    server.server.on('connection', (socket: Socket) => {
      if (sockets.push(socket) === count) resolve([...sockets]);
    });
  });
}

/** Resolves once `count` of `sockets` have closed, with a function that tells how many have closed by then. */
async function countClosed(sockets: Socket[], count: number): Promise<() => number> {
  let n = 0;
  await new Promise<void>((resolve) => sockets.forEach((s) => closed(s).then(() => ++n === count && resolve())));
  return () => sockets.filter((s) => s.destroyed).length;
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

/** Opens a connection, asks for `path` (the whole collection) and never reads the answer. */
function nonReadingClient(port: number, path = '/books'): Socket {
  const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

/** Reads one whole answer to GET /books (Content-Length bytes of body). */
async function readWholeList(server: Listening): Promise<{ status: number; books: number }> {
  const answer = await server.send({ method: 'GET', path: '/books' });
  return { status: answer.status, books: (JSON.parse(answer.text) as unknown[]).length };
}

describe('responses that clients do not read', () => {
  const clients: Socket[] = [];
  afterEach(() => clients.splice(0).forEach((s) => s.destroy()));

  it('when a client does not read its answer for RESPONSE_WRITE_TIMEOUT_MS, then the server closes that connection and serves others', async () => {
    const made = makeApp({ config: { responseWriteTimeoutMs: 200 } });
    await bigCollection(made.store);
    const server = await listen(made.app, { responseWriteTimeoutMs: 200 });
    try {
      const sockets = serverSockets(server, 1);
      clients.push(nonReadingClient(server.port));
      // Nothing else would ever close it: the answer is not finished, so no keep-alive or request timeout applies.
      await closed((await sockets)[0]);
      expect(await readWholeList(server)).toEqual({ status: 200, books: (await made.store.books.list()).total });
    } finally {
      await server.close();
    }
  });

  it('when non-reading clients together hold more than MAX_UNSENT_BYTES, then connections are closed until they hold less, and a reading client is served', async () => {
    // Lists are written a chunk at a time (src/http/json-stream.ts), so a non-reader pins about one chunk of
    // them; the byte bound is the net under answers written whole. A route of the app's user writes one,
    // in an app of theirs with the service after it (docs/extending.md).
    const limits = { responseWriteTimeoutMs: 600_000, maxUnsentBytes: 5 * 1024 * 1024 };
    const { service } = makeService({ config: limits });
    const blob = Buffer.alloc(4 * 1024 * 1024, 'x');
    const app = express();
    app.get('/blob', (_req, res) => {
      res.setHeader('Content-Type', 'text/plain');
      res.end(blob);
    });
    app.use(service.handler, service.errors);
    const server = await listen(app, limits);
    try {
      const sockets = serverSockets(server, 3);
      for (let i = 0; i < 3; i++) clients.push(nonReadingClient(server.port, '/blob'));
      // The write timeout is 10 minutes: only the byte bound can close them within the test's time.
      const closedCount = await countClosed(await sockets, 2);
      expect(closedCount()).toBe(2);
      // And the service still serves a client that reads.
      const read = await server.send({ method: 'GET', path: '/blob' });
      expect({ status: read.status, length: read.text.length }).toEqual({ status: 200, length: blob.length });
    } finally {
      await server.close();
    }
  });
});
