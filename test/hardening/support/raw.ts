import { connect, type Socket } from 'node:net';
import type { Config } from '../../../src/config';
import type { Store } from '../../../src/store/types';
import { makeApp } from '../../support/app';
import { listen, type Listening } from './http';

export interface RawResult {
  /** Everything the server wrote before it closed the connection (or before `waitMs`). */
  text: string;
  status: number | undefined;
  closed: boolean;
  ms: number;
  /** A write failed (EPIPE, ECONNRESET): the server closed the connection before it took the whole request. */
  writeFailed: boolean;
}

/**
 * Writes `chunks` to a raw TCP connection (each after `gapMs`) and collects what comes back until the
 * server closes the connection or `waitMs` passes. For requests no HTTP client would send.
 */
export function rawExchange(port: number, chunks: (string | Buffer)[], opts: { gapMs?: number; waitMs?: number } = {}): Promise<RawResult> {
  const { gapMs = 0, waitMs = 5000 } = opts;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    let writeFailed = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ text, status: match ? Number(match[1]) : undefined, closed, ms: Date.now() - started, writeFailed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.once('connect', async () => {
      for (const chunk of chunks) {
        if (done || socket.destroyed) return;
        socket.write(chunk, (err) => (writeFailed ||= err != null));
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

/** A test app served on a free port to the raw-socket tests of one `describe`. */
export interface RawServer {
  readonly port: number;
  readonly store: Store;
  send: Listening['send'];
  /** The number of records in each REST collection a raw request could create in: to show a refused one stored nothing. */
  counts(): Promise<{ books: number; items: number; todos: number }>;
  /** Asserts the server still answers an ordinary request after a raw exchange. */
  stillServing(): Promise<void>;
}

/**
 * Serves a fresh test app with `limits` (makeApp, then the production server factory) for the
 * enclosing `describe`: started in its beforeAll, closed in its afterAll. Call it in a describe body.
 */
export function serveForRawTests(limits: Partial<Config>): RawServer {
  let served: { server: Listening; store: Store } | undefined;
  beforeAll(async () => {
    const made = makeApp({ config: limits });
    served = { store: made.store, server: await listen(made.app, limits) };
  });
  afterAll(() => served?.server.close());
  const current = () => {
    if (!served) throw new Error('serveForRawTests: the server is used outside a test');
    return served;
  };
  return {
    get port() {
      return current().server.port;
    },
    get store() {
      return current().store;
    },
    send: (req) => current().server.send(req),
    counts: async () => {
      const { store } = current();
      return { books: (await store.books.list()).total, items: (await store.items.list()).total, todos: (await store.todos.list()).total };
    },
    stillServing: async () => expect((await current().server.send({ method: 'GET', path: '/books/1' })).status).toBe(200),
  };
}
