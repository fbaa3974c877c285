import type { Collection, Store } from '../../src/store/types';
import { makeApp, snapshot } from '../support/app';
import { expectJsonError, expectTextError } from '../support/rest-expect';

/**
 * Conditional requests (RFC 9110 section 13) through HTTP: ETag on record and list answers, 304 for
 * If-None-Match, 412 for If-Match, with the stored data checked before and after. Runs on the memory
 * store, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
const ETAG = /^"[A-Za-z0-9_-]{27}"$/;
const RECORDS = ['/books/1', '/notes/1', '/items/1', '/tasks/1'];
const LISTS = ['/books', '/todos', '/notes', '/items', '/tasks', '/books?limit=2&offset=1'];
const PRECONDITION_FAILED = 'Precondition failed: the current record does not match If-Match / If-None-Match';

/** A record path's family error assertion: items answer plain text, the others JSON. */
function expect412(res: Parameters<typeof expectJsonError>[0], path: string): void {
  if (path.startsWith('/items')) expect(expectTextError(res, 412)).toBe(PRECONDITION_FAILED);
  else expect(expectJsonError(res, 412)).toEqual({ error: PRECONDITION_FAILED });
  expect(res.headers.etag).toBeUndefined();
}

describe('ETag', () => {
  it.each([...RECORDS, ...LISTS])('when GET %s, then the answer carries a strong ETag; HEAD and a second GET carry the same', async (path) => {
    const { http } = makeApp();
    const first = await http.get(path).expect(200);
    expect(first.headers.etag).toMatch(ETAG);
    expect((await http.get(path).expect(200)).headers.etag).toBe(first.headers.etag);
    const head = await http.head(path).expect(200);
    expect(head.headers.etag).toBe(first.headers.etag);
    expect(head.text).toBeUndefined();
  });

  it('when a record changes, then its ETag and its list ETag change, and the PUT answer carries the new ETag GET gives', async () => {
    const { http } = makeApp();
    const before = (await http.get('/books/1')).headers.etag;
    const listBefore = (await http.get('/books')).headers.etag;
    const put = await http.put('/books/1').send({ title: 'The Hobbit, revised' }).expect(200);
    expect(put.headers.etag).toMatch(ETAG);
    expect(put.headers.etag).not.toBe(before);
    expect((await http.get('/books/1')).headers.etag).toBe(put.headers.etag);
    expect((await http.get('/books')).headers.etag).not.toBe(listBefore);
  });

  it('when two records or two pages differ, then their ETags differ', async () => {
    const { http } = makeApp();
    const tags = await Promise.all(['/books/1', '/books/2', '/books', '/books?limit=1', '/books?limit=1&offset=1'].map(async (p) => (await http.get(p)).headers.etag));
    expect(new Set(tags).size).toBe(5);
  });

  it('when a write is refused or the record is unknown, then the answer carries no ETag', async () => {
    const { http } = makeApp();
    expect((await http.get('/books/99').expect(404)).headers.etag).toBeUndefined();
    expect((await http.put('/books/1').send({ title: ' ' }).expect(400)).headers.etag).toBeUndefined();
    expect((await http.post('/books').send({ title: 'New' }).expect(201)).headers.etag).toBeUndefined();
  });
});

describe('If-None-Match on GET and HEAD', () => {
  it.each([...RECORDS, ...LISTS])('when GET %s sends the current ETag, then 304 with the ETag, no body and no Content-Type', async (path) => {
    const { http } = makeApp();
    const etag = (await http.get(path)).headers.etag;
    for (const res of [await http.get(path).set('If-None-Match', etag), await http.head(path).set('If-None-Match', etag)]) {
      expect(res.status).toBe(304);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers['x-total-count']).toBeUndefined();
      expect(res.text ?? '').toBe('');
    }
  });

  it('when the header lists several tags, a weak form of the current one, or *, then 304 (weak comparison)', async () => {
    const { http } = makeApp();
    const etag = (await http.get('/tasks/1')).headers.etag;
    for (const header of [`"nope", ${etag}`, `W/${etag}`, `"a",W/${etag} , "b"`, '*']) {
      const res = await http.get('/tasks/1').set('If-None-Match', header);
      expect({ header, status: res.status }).toEqual({ header, status: 304 });
    }
  });

  it('when the tag is old, unknown or malformed, then 200 with the current body and ETag', async () => {
    const { http } = makeApp();
    const old = (await http.get('/books/1')).headers.etag;
    await http.put('/books/1').send({ title: 'Changed' }).expect(200);
    for (const header of [old, '"unknown"', 'garbage', '']) {
      const res = await http.get('/books/1').set('If-None-Match', header);
      expect({ header, status: res.status, body: res.body }).toEqual({ header, status: 200, body: { id: 1, title: 'Changed', pages: 310 } });
    }
  });

  it('when the id is unknown, then 404 whatever the precondition', async () => {
    const { http } = makeApp();
    expectJsonError(await http.get('/books/99').set('If-None-Match', '*'), 404);
    expectTextError(await http.get('/items/99').set('If-Match', '"x"'), 404);
  });
});

describe('If-Match on GET', () => {
  it('when the tag matches, then 200; when not, then 412 in the family format', async () => {
    const { http } = makeApp();
    const etag = (await http.get('/items/1')).headers.etag;
    expect((await http.get('/items/1').set('If-Match', etag).expect(200)).body).toEqual({ id: 1, name: 'Hammer' });
    expect412(await http.get('/items/1').set('If-Match', '"old"'), '/items/1');
    expect412(await http.get('/books').set('If-Match', '"old"'), '/books');
  });

  it('when If-Match fails and If-None-Match matches, then 412: If-Match is evaluated first (RFC 9110 13.2.2)', async () => {
    const { http } = makeApp();
    const etag = (await http.get('/books/1')).headers.etag;
    expect412(await http.get('/books/1').set('If-Match', '"old"').set('If-None-Match', etag), '/books/1');
  });
});

/** Each conditional write, with a body that changes the record, and the record path to read back. */
const WRITES = [
  { name: 'PUT /books/1', path: '/books/1', send: (http: ReturnType<typeof makeApp>['http']) => http.put('/books/1').send({ title: 'New title' }) },
  { name: 'PUT /notes/1', path: '/notes/1', send: (http: ReturnType<typeof makeApp>['http']) => http.put('/notes/1').send({ body: 'New body' }) },
  { name: 'PUT /tasks/1', path: '/tasks/1', send: (http: ReturnType<typeof makeApp>['http']) => http.put('/tasks/1').send({ done: true }) },
  { name: 'DELETE /books/1', path: '/books/1', send: (http: ReturnType<typeof makeApp>['http']) => http.delete('/books/1') },
  { name: 'DELETE /notes/1', path: '/notes/1', send: (http: ReturnType<typeof makeApp>['http']) => http.delete('/notes/1') },
  { name: 'DELETE /items/1', path: '/items/1', send: (http: ReturnType<typeof makeApp>['http']) => http.delete('/items/1') },
  { name: 'DELETE /tasks/1', path: '/tasks/1', send: (http: ReturnType<typeof makeApp>['http']) => http.delete('/tasks/1') },
];

describe('If-Match and If-None-Match on PUT and DELETE', () => {
  it.each(WRITES)('when $name sends the ETag GET gave, then it succeeds and the record changes', async ({ path, send }) => {
    const { http, store } = makeApp();
    const read = await http.get(path);
    const before = await snapshot(store);
    const res = await send(http).set('If-Match', read.headers.etag);
    expect([200, 204]).toContain(res.status);
    expect(await snapshot(store)).not.toEqual(before);
  });

  it.each(WRITES)('when $name sends an ETag the record no longer has, then 412 and nothing changes', async ({ path, send }) => {
    const { http, store } = makeApp();
    const stale = (await http.get(path)).headers.etag;
    await changeBehind(store, path);
    const before = await snapshot(store);
    expect412(await send(http).set('If-Match', stale), path);
    expect(await snapshot(store)).toEqual(before);
  });

  it.each(WRITES)('when $name sends a weak form of the current ETag, then 412 (If-Match compares strongly)', async ({ path, send }) => {
    const { http, store } = makeApp();
    const etag = (await http.get(path)).headers.etag;
    const before = await snapshot(store);
    expect412(await send(http).set('If-Match', `W/${etag}`), path);
    expect(await snapshot(store)).toEqual(before);
  });

  it.each(WRITES)('when $name sends If-None-Match: *, then 412 (the record exists) and nothing changes', async ({ path, send }) => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    expect412(await send(http).set('If-None-Match', '*'), path);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when If-Match is * or lists the current tag among others, then the write succeeds', async () => {
    const { http } = makeApp();
    expect((await http.put('/books/1').set('If-Match', '*').send({ title: 'Star' }).expect(200)).body).toEqual({ id: 1, title: 'Star', pages: 310 });
    const etag = (await http.get('/books/1')).headers.etag;
    await http.put('/books/1').set('If-Match', `"other", ${etag}`).send({ title: 'Listed' }).expect(200);
    expect((await http.get('/books/1')).body).toEqual({ id: 1, title: 'Listed', pages: 310 });
  });

  it('when a PUT /tasks with {} (a no-op) is conditional, then it is checked too', async () => {
    const { http } = makeApp();
    const etag = (await http.get('/tasks/1')).headers.etag;
    expect((await http.put('/tasks/1').set('If-Match', etag).send({}).expect(200)).headers.etag).toBe(etag);
    expect412(await http.put('/tasks/1').set('If-Match', '"old"').send({}), '/tasks/1');
  });

  it('when the id is unknown, then 404 stays 404 with If-Match (RFC 9110 13.2.1), and nothing is created', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    expectJsonError(await http.put('/books/99').set('If-Match', '*').send({ title: 'x' }), 404);
    expectJsonError(await http.delete('/notes/99').set('If-Match', '"x"'), 404);
    expectTextError(await http.delete('/items/99').set('If-Match', '"x"'), 404);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the request is invalid and its If-Match stale, then 400: preconditions come after validation', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    expectJsonError(await http.put('/books/1').set('If-Match', '"old"').send({ title: '' }), 400);
    expectJsonError(await http.put('/books/0').set('If-Match', '"old"').send({ title: 'x' }), 400);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when two clients edit after reading the same ETag, then the second is refused instead of overwriting the first', async () => {
    const { http } = makeApp();
    const etag = (await http.get('/books/2')).headers.etag;
    await http.put('/books/2').set('If-Match', etag).send({ title: 'Dune', pages: 413 }).expect(200);
    expect412(await http.put('/books/2').set('If-Match', etag).send({ title: 'Dune', pages: 500 }), '/books/2');
    expect((await http.get('/books/2')).body).toEqual({ id: 2, title: 'Dune', pages: 413 });
  });

  it('when 8 clients send conditional writes with the same ETag at once, then exactly one succeeds', async () => {
    const { http } = makeApp();
    const etag = (await http.get('/books/2')).headers.etag;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => http.put('/books/2').set('If-Match', etag).send({ title: 'Dune', pages: 1000 + i })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = answers.find((res) => res.status === 200)!;
    expect((await http.get('/books/2')).body).toEqual(winner.body);
  });

  it('when 5 clients each add 1 to pages by read, then PUT with If-Match, retrying on 412, then no increment is lost', async () => {
    const { http } = makeApp();
    const increment = async () => {
      for (;;) {
        const read = await http.get('/books/2');
        const res = await http.put('/books/2').set('If-Match', read.headers.etag).send({ title: read.body.title, pages: read.body.pages + 1 });
        if (res.status === 200) return;
        expect(res.status).toBe(412);
      }
    };
    await Promise.all(Array.from({ length: 5 }, increment));
    expect((await http.get('/books/2')).body).toEqual({ id: 2, title: 'Dune', pages: 417 });
  });
});

/** Another writer's change to the record at `path` (through the store: items have no PUT). */
async function changeBehind(store: Store, path: string): Promise<void> {
  const [, family, id] = path.split('/');
  const patches: Record<string, object> = { books: { title: 'Changed' }, notes: { body: 'Changed' }, items: { name: 'Changed' }, tasks: { title: 'Changed' } };
  const collection = store[family as 'books'] as unknown as Collection<{ id: number }>;
  expect(await collection.update(Number(id), patches[family])).toBeDefined();
}

describe('conditional requests from a browser on another origin (CORS)', () => {
  it('when a preflight from an allowed origin asks for If-Match, then it is allowed, and a cross-origin script may read the ETag', async () => {
    const { http } = makeApp({ config: { corsOrigins: ['https://app.example'] } });
    const preflight = await http
      .options('/books/1')
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'if-match, content-type')
      .expect(204);
    expect(preflight.headers['access-control-allow-headers'].split(', ')).toEqual(expect.arrayContaining(['If-Match', 'If-None-Match']));
    const res = await http.get('/books/1').set('Origin', 'https://app.example').expect(200);
    expect(res.headers['access-control-expose-headers'].split(', ')).toContain('ETag');
  });
});
