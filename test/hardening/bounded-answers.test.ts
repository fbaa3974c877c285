import { connect, type Socket } from 'node:net';
import { CHUNK_BYTES, TURN_BYTES } from '../../src/http/chunk-writer';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import type { ListQuery } from '../../src/store/query';
import { readAll, type BookRecord, type Collection, type ListResult, type Store } from '../../src/store/types';
import { makeApp, type TestApp } from '../support/app';
import { listen, type Listening } from './support/http';
import { rawExchange } from './support/raw';

/** About 1 KB of JSON per book. */
async function bigCollection(store: Store, count = 4000): Promise<void> {
  for (let i = 0; i < count; i++) await store.books.create({ title: `${i} ${'x'.repeat(990)}`, pages: i });
}

/**
 * Books enough that no machine's kernel buffers take the whole answer (10 GB of JSON), whatever its
 * socket settings (net.ipv4.tcp_rmem and tcp_wmem differ from machine to machine): a client that does not
 * read always leaves the service with more to write. Never held whole: made as they are read.
 */
const ENDLESS = 10_000_000;
/** A fabricated book of about 1 KB of JSON (at least BOOK_BYTES). */
const fabricated = (id: number): BookRecord => ({ id, title: `${id} ${'x'.repeat(990)}`, pages: id % 1000 });
const BOOK_BYTES = 1000;

/** What a collection's list reads were, for a store that reads lists in batches. */
interface Reads {
  /** Batches of `rest` handed out. */
  batches: number;
  /** Iterators of `rest` opened (the answer went past its first batch). */
  opened: number;
  /** Lists whose `rest` iterator was returned (closed) before its end. */
  returned: number;
  /** Set once a held list (see `hold`) is waiting to read its first batch of `rest`. */
  holding: boolean;
  /** Lists asked for (counted before the gate, see `gate`). */
  asked: number;
}

interface BatchOptions {
  /** After this many batches of `rest`, reading fails. */
  failAfter?: number;
  /** A list is read once this resolves. */
  gate?: Promise<void>;
  /** The first list's `rest` waits for this before its first batch: its request holds what it holds (a GraphQL turn) for as long as the test likes. */
  hold?: Promise<void>;
  /** The list is ENDLESS fabricated books (the store's own books are not read): see `fabricated`. */
  endless?: boolean;
}

/**
 * The memory store, with books listed the way a database store lists them: a first batch in `items`, the
 * rest in batches of `size` read as they are pulled.
 */
function batchedBooks(store: Store, size: number, options: BatchOptions = {}): { store: Store; reads: Reads } {
  const { failAfter = Infinity, gate, hold, endless = false } = options;
  const reads: Reads = { batches: 0, opened: 0, returned: 0, holding: false, asked: 0 };
  const books = store.books;
  let lists = 0;
  const list = async (page?: ListQuery): Promise<ListResult<BookRecord>> => {
    reads.asked += 1;
    await gate;
    const held = hold && lists++ === 0 ? hold : undefined;
    // Every record at once, whatever the store: a database store hands a long list out in batches itself.
    const stored = endless ? undefined : await books.list(page!);
    const whole: ListResult<BookRecord> = stored ? { ...stored, items: await readAll(stored), rest: undefined } : { items: [], total: ENDLESS, version: 'endless' };
    const count = endless ? ENDLESS : whole.items.length;
    const slice = (from: number, to: number) => (endless ? Array.from({ length: to - from }, (_, i) => fabricated(from + i + 1)) : whole.items.slice(from, to));
    if (count <= size) return whole;
    // Endless, the list is read only as it is pulled (as a database store reads a long one): no first items.
    const first = endless ? 0 : size;
    const rest = {
      [Symbol.asyncIterator]() {
        reads.opened += 1;
        let at = first;
        let served = 0;
        return {
          async next() {
            if (held && served === 0) {
              reads.holding = true;
              await held;
            }
            if (at >= count) return { done: true as const, value: undefined };
            if (served++ >= failAfter) throw new Error('storage failed while reading a batch');
            reads.batches += 1;
            const batch = slice(at, Math.min(count, (at += size)));
            return { done: false as const, value: batch };
          },
          async return() {
            reads.returned += 1;
            return { done: true as const, value: undefined };
          },
        };
      },
    };
    return { ...whole, items: slice(0, first), rest };
  };
  // Every other method is the memory collection's own, on the collection itself.
  const wrapped = new Proxy(books, {
    get: (target, name) => {
      if (name === 'list') return list;
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Collection<BookRecord>;
  return { store: { ...store, books: wrapped }, reads };
}

/** The memory store with ENDLESS books in one list, as the memory store answers one: whole in `items` (one record shared by every slot, so it costs only the array). */
function endlessInMemory(store: Store): Store {
  const book = Object.freeze(fabricated(1));
  const items = new Array<BookRecord>(ENDLESS).fill(book);
  const books = new Proxy(store.books, {
    get: (target, name) => {
      if (name === 'list') return async () => ({ items, total: ENDLESS, version: 'endless' });
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Collection<BookRecord>;
  return { ...store, books };
}

/** Opens a connection, asks for `path` and never reads the answer. */
function nonReadingClient(port: number, path: string, headers = ''): Socket {
  const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`));
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

/** The server side of the next connection. */
function nextServerSocket(server: Listening): Promise<Socket> {
  return new Promise((resolve) => server.server.once('connection', resolve));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds (polling). No deadline of its own: the test's timeout only guards against a hang. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(20);
}

/** Whether the app logged the end of a request for `path` whose client went away (the response's `close`, src/http/phases.ts). */
const leftEarly = (logs: Record<string, unknown>[], path: string) => logs.some((line) => line.msg === 'request' && line.path === path && line.aborted === true);

/**
 * Calls `check` every 25 ms, 40 times, while an answer is being written (the checks hold at every moment, however
 * fast the kernel takes the bytes), then resolves with how many checks ran.
 */
async function throughout(check: () => void): Promise<number> {
  let runs = 0;
  for (; runs < 40; runs++) {
    check();
    await sleep(25);
  }
  return runs;
}

/**
 * Most of an answer the service holds unsent for a client that does not read: what one turn builds (TURN_BYTES and
 * at most one slice past it, about a chunk: 16 records of 1 KB here) and the text below a chunk left before it.
 */
const HELD_AT_MOST = TURN_BYTES + 3 * CHUNK_BYTES;

describe('big list answers are written as they are read, with bounded work per request', () => {
  let made: TestApp;
  let server: Listening;
  const clients: Socket[] = [];
  afterEach(async () => {
    clients.splice(0).forEach((socket) => socket.destroy());
    await server?.close();
  });

  it('when a client does not read a list bigger than any socket buffer, then the process holds at most what one turn builds for it, and answers others meanwhile', async () => {
    made = makeApp({ store: endlessInMemory(makeApp().store) });
    server = await listen(made.app);
    const socket = nextServerSocket(server);
    clients.push(nonReadingClient(server.port, '/books'));
    const serverSide = await socket;
    // Whatever the kernel's buffers take, the service builds a turn's worth and waits for `drain` before the next.
    await throughout(() => expect(serverSide.writableLength).toBeLessThanOrEqual(HELD_AT_MOST));
    expect((await server.send({ method: 'GET', path: '/health' })).status).toBe(200);
  });

  it('when a list of 10,000 records is answered, then no single JSON.stringify serialises more than about one chunk, and the list is complete and in order', async () => {
    made = makeApp({ seed: { ...loadSeed('empty') } });
    for (let i = 0; i < 10000; i++) await made.store.items.create({ name: `item ${i}` });
    const sizes: number[] = [];
    const stringify = JSON.stringify;
    const spy = jest.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
      const text = stringify(...args);
      sizes.push(text?.length ?? 0);
      return text;
    });
    let answer;
    try {
      answer = await made.http.get('/items').expect(200);
    } finally {
      spy.mockRestore();
    }
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.body).toHaveLength(10000);
    expect(answer.body.map((item: { id: number }) => item.id)).toEqual(Array.from({ length: 10000 }, (_, i) => i + 1));
    expect(answer.headers['x-total-count']).toBe('10000');
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * CHUNK_BYTES);
  });

  it('when a small page is answered, then it is one write with Content-Length', async () => {
    made = makeApp();
    const page = await made.http.get('/books?limit=2').expect(200);
    expect(page.headers['content-length']).toBe(String(Buffer.byteLength(page.text)));
    expect(page.body).toHaveLength(2);
  });

  it('when a list holds 128 records, then it is one answer with Content-Length on every store; a longer one is chunked', async () => {
    made = makeApp({ seed: { ...loadSeed('empty') } });
    for (let i = 0; i < 128; i++) await made.store.items.create({ name: `item ${i}` });
    const whole = await made.http.get('/items').expect(200);
    expect(whole.headers['content-length']).toBe(String(Buffer.byteLength(whole.text)));
    expect(whole.body).toHaveLength(128);
    for (let i = 128; i < 300; i++) await made.store.items.create({ name: `item ${i}` });
    const chunked = await made.http.get('/items?offset=10').expect(200);
    expect(chunked.headers['transfer-encoding']).toBe('chunked');
    expect(chunked.body.map((item: { id: number }) => item.id)).toEqual(Array.from({ length: 290 }, (_, i) => i + 11));
  });

  it('when the store reads a list in batches, then each batch is read only as the client takes the answer, and a client that leaves stops the reading', async () => {
    const { store, reads } = batchedBooks(createMemoryStore(loadSeed('default')), 100, { endless: true });
    made = makeApp({ store });
    server = await listen(made.app);
    const socket = nextServerSocket(server);
    const client = nonReadingClient(server.port, '/books');
    clients.push(client);
    const serverSide = await socket;
    // At every moment the service has read what it handed to the socket and at most about a turn's worth ahead.
    const batchBytes = 100 * BOOK_BYTES;
    await throughout(() => expect(reads.batches).toBeLessThanOrEqual(Math.ceil((serverSide.bytesWritten + TURN_BYTES) / batchBytes) + 1));
    const readBeforeLeaving = reads.batches;
    client.destroy();
    await new Promise((resolve) => serverSide.once('close', resolve));
    // The reading stops: the list's iterator is returned (waited for, not given a time), and nothing is read after.
    await until(() => reads.returned === 1);
    expect(reads.opened).toBe(1);
    expect(reads.batches).toBeLessThanOrEqual(readBeforeLeaving + 1);
  });

  it('when a client leaves before its list is read from the store, then nothing of the list is serialised or written', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { store, reads } = batchedBooks(createMemoryStore(loadSeed('default')), 100, { gate });
    await bigCollection(store, 1000);
    made = makeApp({ store });
    server = await listen(made.app);
    const socket = nextServerSocket(server);
    const client = nonReadingClient(server.port, '/books');
    const serverSide = await socket;
    // The request has reached the store's read, which waits at the gate.
    await until(() => reads.asked === 1);
    client.destroy();
    await new Promise((resolve) => serverSide.once('close', resolve));
    const serialised: number[] = [];
    const stringify = JSON.stringify;
    const spy = jest.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
      const text = stringify(...args);
      if (Array.isArray(args[0])) serialised.push(args[0].length);
      return text;
    });
    try {
      open();
      await sleep(300);
    } finally {
      spy.mockRestore();
    }
    expect(serialised).toEqual([]);
    expect(reads.batches).toBe(0);
    expect(made.logs.filter((line) => line.level === 'error')).toEqual([]);
    expect((await server.send({ method: 'GET', path: '/books?limit=1' })).status).toBe(200);
  });

  it('when reading a list fails before its first bytes were sent, then the answer is the error alone, without the list headers', async () => {
    const { store } = batchedBooks(createMemoryStore(loadSeed('default')), 5, { failAfter: 0 });
    for (let i = 0; i < 20; i++) await store.books.create({ title: `book ${i}`, pages: i });
    made = makeApp({ store });
    const answer = await made.http.get('/books').expect(500);
    expect(answer.body).toEqual({ error: 'Unexpected error.' });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const name of ['etag', 'x-total-count', 'link', 'transfer-encoding']) expect(answer.headers[name]).toBeUndefined();
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
  });

  it('when reading a list fails after its first bytes were sent, then the connection ends without the last chunk, so the client never sees a complete list', async () => {
    const { store } = batchedBooks(createMemoryStore(loadSeed('default')), 100, { failAfter: 5 });
    await bigCollection(store, 2000);
    made = makeApp({ store });
    server = await listen(made.app);
    const result = await rawExchange(server.port, ['GET /books HTTP/1.1\r\nHost: localhost\r\n\r\n']);
    expect(result.status).toBe(200);
    expect(result.closed).toBe(true);
    expect(result.text).toMatch(/transfer-encoding: chunked/i);
    // A chunked message is complete only with its last (empty) chunk: this one never got it.
    expect(result.text.endsWith('\r\n0\r\n\r\n')).toBe(false);
    expect(made.logs.some((line) => line.msg === 'unexpected error')).toBe(true);
    expect((await server.send({ method: 'GET', path: '/books?limit=1' })).status).toBe(200);
  });

  it('when a big list is asked with HEAD, then the headers are those of GET, no body is written and no batch is read', async () => {
    const { store, reads } = batchedBooks(createMemoryStore(loadSeed('default')), 100);
    await bigCollection(store, 1000);
    made = makeApp({ store });
    const get = await made.http.get('/books').expect(200);
    const batchesForGet = reads.batches;
    const head = await made.http.head('/books').expect(200);
    expect(reads.batches).toBe(batchesForGet);
    for (const name of ['content-type', 'etag', 'x-total-count']) expect(head.headers[name]).toBe(get.headers[name]);
    expect(head.text ?? '').toBe('');
  });

  it("when a big list's ETag is sent back, then it answers 304 without reading a batch; after a write, 200 with a new tag", async () => {
    const { store, reads } = batchedBooks(createMemoryStore(loadSeed('default')), 100);
    await bigCollection(store, 1000);
    made = makeApp({ store });
    const first = await made.http.get('/books').expect(200);
    const tag = first.headers.etag;
    expect(tag).toMatch(/^"[^"]+"$/);
    const before = reads.batches;
    await made.http.get('/books').set('If-None-Match', tag).expect(304);
    expect(reads.batches).toBe(before);
    await made.http.put('/books/1').send({ title: 'Changed' }).expect(200);
    const after = await made.http.get('/books').set('If-None-Match', tag).expect(200);
    expect(after.headers.etag).not.toBe(tag);
    expect(after.body[0].title).toBe('Changed');
  });
});

describe('large GraphQL answers are bounded', () => {
  const BOOKS = '{ books { id title pages } }';
  let server: Listening | undefined;
  const clients: Socket[] = [];
  /** Lets a held list (batchedBooks `hold`) go on. */
  let release: (() => void) | undefined;
  afterEach(async () => {
    release?.();
    release = undefined;
    clients.splice(0).forEach((socket) => socket.destroy());
    await server?.close();
    server = undefined;
  });

  it('when a result holds more than 1000 records, then it is written in chunks, and is the same answer', async () => {
    const made = makeApp();
    await bigCollection(made.store, 3000);
    const answer = await made.http.post('/graphql').send({ query: BOOKS }).expect(200);
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    // Every record, whether the store answers the list in one batch or in several.
    const items = await readAll(await made.store.books.list());
    const total = items.length;
    expect(answer.body.data.books).toHaveLength(total);
    expect(answer.body.data.books[total - 1]).toEqual({ id: String(items[total - 1].id), title: items[total - 1].title, pages: items[total - 1].pages });
    // The nested query too, its lists walked (users with their posts and comments).
    const nested = await made.http.post('/graphql').send({ query: '{ users { name posts { title comments { body } } } books { id } }' }).expect(200);
    expect(nested.body.data.users.length).toBeGreaterThan(0);
    expect(nested.body.data.books).toHaveLength(total);
  });

  it('when a result would hold more records than GRAPHQL_MAX_RESULT_ITEMS, then it is a RESULT_TOO_LARGE error and no batch is read', async () => {
    const { store, reads } = batchedBooks(createMemoryStore(loadSeed('default')), 100);
    await bigCollection(store, 1500);
    const made = makeApp({ store, config: { graphql: { maxResultItems: 1000 } as never } });
    const answer = await made.http.post('/graphql').send({ query: BOOKS }).expect(200);
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: ['books'], extensions: { code: 'RESULT_TOO_LARGE' } })]);
    expect(answer.body.errors[0].message).toMatch(/more than 1000 records/);
    expect(reads.batches).toBe(0);
    // A smaller query still answers.
    await made.http.post('/graphql').send({ query: '{ todos { id } }' }).expect(200);
  });

  it('when nested lists would take a result past GRAPHQL_MAX_RESULT_ITEMS, then it is a RESULT_TOO_LARGE error on the nested field', async () => {
    const made = makeApp({ config: { graphql: { maxResultItems: 1000 } as never } });
    const [author] = (await made.store.users.list()).items;
    for (let i = 0; i < 1200; i++) await made.store.posts.create({ userId: author.id, title: `post ${i}`, body: 'b' });
    const answer = await made.http.post('/graphql').send({ query: '{ users { posts { id } } }' }).expect(200);
    expect(answer.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'RESULT_TOO_LARGE' } })]);
    expect(answer.body.errors[0].path).toEqual(['users', 0, 'posts']);
  });

  it('when more large answers are asked for than GRAPHQL_MAX_LARGE_ANSWERS, then one that waits too long is a 503 with Retry-After; small ones are served; a turn frees when its client leaves', async () => {
    const settings = { graphql: { maxLargeAnswers: 1, largeAnswerWaitMs: 200 } as never };
    const { store, reads } = batchedBooks(makeApp().store, 100, { hold: new Promise<void>((resolve) => (release = resolve)) });
    await bigCollection(store, 4000);
    const made = makeApp({ store, config: settings });
    server = await listen(made.app, settings);
    const body = JSON.stringify({ query: BOOKS });
    const hog = connect(server.port, '127.0.0.1', () =>
      hog.write(`POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
    );
    hog.on('error', () => undefined);
    clients.push(hog);
    // The hog's answer is being built (it holds the one turn): its list is being read, as slowly as the test likes.
    await until(() => reads.holding);
    const refused = await server.send({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.text)).toEqual({ errors: [{ message: 'Server busy, retry later', extensions: { code: 'SERVER_BUSY' } }] });
    const small = await server.send({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ book(id: "1") { title } }' }) });
    expect(small.status).toBe(200);
    // The hog leaves while its list is still being read: its turn is freed as its request ends (the log line and the
    // turn's release follow the same close of its response).
    hog.destroy();
    await until(() => leftEarly(made.logs, '/graphql'));
    const served = await server.send({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body });
    expect(served.status).toBe(200);
    expect(JSON.parse(served.text).data.books).toHaveLength((await made.store.books.list()).total);
  });

  it('when nested lists make an answer large while every turn is taken, then it is a 503 at once (no wait holding its records); once a turn is free, it is served', async () => {
    // A wait far longer than the test may take: a refusal can only come from not waiting at all.
    const settings = { graphql: { maxLargeAnswers: 1, largeAnswerWaitMs: 600000 } as never };
    const { store, reads } = batchedBooks(makeApp().store, 100, { hold: new Promise<void>((resolve) => (release = resolve)) });
    await bigCollection(store, 4000);
    const made = makeApp({ store, config: settings });
    const [author] = (await made.store.users.list()).items;
    for (let i = 0; i < 1200; i++) await made.store.posts.create({ userId: author.id, title: `post ${i}`, body: 'b' });
    server = await listen(made.app, settings);
    const hog = nonReadingClient(server.port, `/graphql?query=${encodeURIComponent(BOOKS)}`, 'Accept: application/json\r\n');
    clients.push(hog);
    await until(() => reads.holding);
    const nested = JSON.stringify({ query: '{ users { posts { id } } }' });
    // Twice: the second run is the compiled one (GRAPHQL_COMPILE_AFTER=1).
    for (let i = 0; i < 2; i++) {
      const refused = await server.send({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: nested });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
    }
    hog.destroy();
    await until(() => leftEarly(made.logs, '/graphql'));
    const served = await server.send({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: nested });
    expect(served.status).toBe(200);
    expect(served.headers['transfer-encoding']).toBe('chunked');
    const posts = (JSON.parse(served.text).data.users as { posts: unknown[] }[]).flatMap((user) => user.posts);
    expect(posts.length).toBeGreaterThan(1200);
  });
});

describe('the event loop delay is exported', () => {
  it('when the metrics are scraped, then they include the event loop delay (prom-client default metrics)', async () => {
    const { http } = makeApp();
    const text = (await http.get('/metrics').expect(200)).text;
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_max_seconds \d/m);
  });
});
