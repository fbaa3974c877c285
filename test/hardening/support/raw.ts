import { connect, type Socket } from 'node:net';
import type { Config } from '../../../src/config';
import type { Store } from '../../../src/store/types';
import { makeApp } from '../../support/app';
import { listen, type Listening } from './http';

export interface RawResult {
  /** Everything the server wrote before it closed the connection (or before `until` held). */
  text: string;
  status: number | undefined;
  /** The server closed the connection (false: the exchange ended because `until` held). */
  closed: boolean;
  /** A write failed (EPIPE, ECONNRESET): the server closed the connection before it took the whole request. */
  writeFailed: boolean;
  /** How many of the chunks had been written when the first byte of the answer came (all of them when none came). */
  writtenBeforeAnswer: number;
}

export interface RawOptions {
  /** Time between two chunks, for a client that sends slowly. */
  gapMs?: number;
  /** Chunks to go on sending after `chunks`, one every `gapMs`, for as long as the connection stays open (a client that never finishes). */
  endless?: () => string | Buffer;
  /** Ends the exchange without waiting for the server to close, once what it wrote satisfies this (a kept-alive connection). */
  until?: (text: string) => boolean;
}

/**
 * Writes `chunks` to a raw TCP connection (each after `gapMs`) and collects what comes back until the server closes
 * the connection, or `until` holds. For requests no HTTP client would send. No time bound of its own: every
 * exchange ends on an event, and the test's timeout only guards against a hang.
 */
export function rawExchange(port: number, chunks: (string | Buffer)[], opts: RawOptions = {}): Promise<RawResult> {
  const { gapMs = 0, endless, until } = opts;
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    let writeFailed = false;
    let written = 0;
    let writtenBeforeAnswer: number | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ text, status: match ? Number(match[1]) : undefined, closed, writeFailed, writtenBeforeAnswer: writtenBeforeAnswer ?? written });
    };
    socket.on('data', (d) => {
      writtenBeforeAnswer ??= written;
      text += d.toString('latin1');
      if (until?.(text)) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.once('connect', async () => {
      const send = async (chunk: string | Buffer) => {
        socket.write(chunk, (err) => (writeFailed ||= err != null));
        written += 1;
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      };
      for (const chunk of chunks) {
        if (done || socket.destroyed) return;
        await send(chunk);
      }
      if (!endless) return;
      // `done` turns true from the socket's events, between two sends.
      for (;;) {
        if (done || socket.destroyed) return;
        await send(endless());
      }
    });
  });
}

/** A test app served on a free port to the raw-socket tests of one `describe`. */
export interface RawServer {
  readonly port: number;
  readonly store: Store;
  /** Every log line the app wrote, parsed (the request lines among them). */
  readonly logs: Record<string, unknown>[];
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
  let served: { server: Listening; store: Store; logs: Record<string, unknown>[] } | undefined;
  beforeAll(async () => {
    const made = makeApp({ config: limits });
    served = { store: made.store, logs: made.logs, server: await listen(made.app, limits) };
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
    get logs() {
      return current().logs;
    },
    send: (req) => current().server.send(req),
    counts: async () => {
      const { store } = current();
      return { books: (await store.books.list()).total, items: (await store.items.list()).total, todos: (await store.todos.list()).total };
    },
    stillServing: async () => expect((await current().server.send({ method: 'GET', path: '/books/1' })).status).toBe(200),
  };
}
