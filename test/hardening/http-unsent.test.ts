import { connect, type Socket } from 'node:net';
import express from 'express';
import { makeService } from '../support/app';
import type { Config } from '../../src/config';
import { listen, type Listening } from './support/http';

// scripts/load/raw.js: the largest receive plus send buffers of a loopback connection, read from /proc.
const { kernelBufferBytes } = require('../../scripts/load/raw') as { kernelBufferBytes(): number };

/**
 * An answer longer than the kernel can buffer for one connection (net.ipv4.tcp_rmem and tcp_wmem differ from
 * machine to machine): a client that does not read it leaves the whole of it pending at the server, never done,
 * on any machine. An answer the kernel can take whole would be finished, and its idle connection closed by the
 * keep-alive timeout instead of the bound under test.
 */
const blob = Buffer.alloc(kernelBufferBytes() + 4 * 1024 * 1024, 'x');

/** The service after a route of the app's user that writes `blob` whole (docs/extending.md). */
function appWithBlob(config: Partial<Config>) {
  const made = makeService({ config });
  const app = express();
  app.get('/blob', (_req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end(blob);
  });
  app.use(made.service.handler, made.service.errors);
  return { app, store: made.store };
}

/** No idle connection is closed during a test: only the bound under test closes one. */
const noKeepAliveClose = { keepAliveTimeoutMs: 600_000 };

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
    const limits = { ...noKeepAliveClose, responseWriteTimeoutMs: 200 };
    const { app, store } = appWithBlob(limits);
    const server = await listen(app, limits);
    try {
      const sockets = serverSockets(server, 1);
      clients.push(nonReadingClient(server.port, '/blob'));
      // Nothing else closes it: its answer is never finished, and idle connections are kept for 10 minutes.
      await closed((await sockets)[0]);
      expect(await readWholeList(server)).toEqual({ status: 200, books: (await store.books.list()).total });
    } finally {
      await server.close();
    }
  });

  it('when non-reading clients together hold more than MAX_UNSENT_BYTES, then connections are closed until they hold less, and a reading client is served', async () => {
    // Lists are written a chunk at a time (src/http/json-stream.ts), so a non-reader pins about one chunk of
    // them; the byte bound is the net under answers written whole, like this route's. Each of the three
    // non-readers leaves all of `blob` pending: one fits under the bound, two do not.
    const limits = { ...noKeepAliveClose, responseWriteTimeoutMs: 600_000, maxUnsentBytes: Math.floor(1.5 * blob.length) };
    const { app } = appWithBlob(limits);
    const server = await listen(app, limits);
    try {
      const sockets = serverSockets(server, 3);
      for (let i = 0; i < 3; i++) clients.push(nonReadingClient(server.port, '/blob'));
      // The write timeout and keep-alive are 10 minutes: only the byte bound can close them within the test's time.
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
