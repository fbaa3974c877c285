import { StorageUnavailableError } from '../../src/store/errors';
import { makeApp, makeStore, snapshot } from '../support/app';
import { failingFirst, gated } from '../support/idempotency';
import { expectJsonError, expectTextError } from '../support/rest-expect';

type Family = { path: string; format: 'json' | 'text'; body: Record<string, unknown>; other: Record<string, unknown>; location: boolean };
const FAMILIES: Family[] = [
  { path: '/books', format: 'json', body: { title: 'Emma', pages: 3 }, other: { title: 'Ubik' }, location: true },
  { path: '/todos', format: 'json', body: { text: 'Call mum' }, other: { text: 'Call dad' }, location: false },
  { path: '/items', format: 'text', body: { name: 'Saw' }, other: { name: 'Drill' }, location: true },
  { path: '/tasks', format: 'json', body: { title: 'Plan' }, other: { title: 'Act' }, location: true },
];
const KEY = 'Idempotency-Key';

describe('POST with an Idempotency-Key', () => {
  for (const family of FAMILIES) {
    describe(`${family.path} (${family.format} errors)`, () => {
      it('when the same request is sent twice with one key, then the second answers the first answer again and creates nothing', async () => {
        const { http, store } = makeApp();
        const before = (await http.get(family.path).expect(200)).body.length;
        const first = await http.post(family.path).set(KEY, 'k-1').send(family.body).expect(201);
        // The same JSON with other spacing and key order is the same request.
        const reordered = JSON.stringify(Object.fromEntries(Object.entries(family.body).reverse()), null, 2);
        const again = await http.post(family.path).set(KEY, 'k-1').type('application/json').send(reordered).expect(201);
        expect(again.body).toEqual(first.body);
        expect(again.headers['content-type']).toBe(first.headers['content-type']);
        expect(again.headers.location).toBe(family.location ? `${family.path}/${first.body.id}` : undefined);
        expect(again.headers.location).toBe(first.headers.location);
        expect(first.headers['idempotent-replayed']).toBeUndefined();
        expect(again.headers['idempotent-replayed']).toBe('true');
        const after = (await http.get(family.path).expect(200)).body;
        expect(after).toHaveLength(before + 1);
        expect(after.filter((r: { id: number }) => r.id === first.body.id)).toEqual([first.body]);
        expect((await store[family.path.slice(1) as 'books'].list()).total).toBe(before + 1);
      });

      it('when the key is reused with another body, then 422 in the family format and nothing is created', async () => {
        const { http, store } = makeApp();
        await http.post(family.path).set(KEY, 'k-2').send(family.body).expect(201);
        const before = await snapshot(store);
        const res = await http.post(family.path).set(KEY, 'k-2').send(family.other);
        const message = family.format === 'json' ? expectJsonError(res, 422).error : expectTextError(res, 422);
        expect(message).toBe('Idempotency-Key was already used for a different request; nothing was created');
        expect(await snapshot(store)).toEqual(before);
      });

      it('when the key is malformed, then 400 in the family format and nothing is created', async () => {
        const { http, store } = makeApp();
        const before = await snapshot(store);
        for (const bad of ['x'.repeat(256), 'clé']) {
          const res = await http.post(family.path).set(KEY, bad).send(family.body);
          if (family.format === 'json') expect(expectJsonError(res, 400).error).toMatch(/^Invalid request: headers\/idempotency-key /);
          else expect(expectTextError(res, 400)).toMatch(/^Invalid request: headers\/idempotency-key /);
        }
        expect(await snapshot(store)).toEqual(before);
      });
    });
  }

  it('when two requests differ only in their key, then each creates its own record', async () => {
    const { http } = makeApp();
    const a = await http.post('/books').set(KEY, 'a').send({ title: 'Emma' }).expect(201);
    const b = await http.post('/books').set(KEY, 'b').send({ title: 'Emma' }).expect(201);
    expect(b.body.id).toBe(a.body.id + 1);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });

  it('when a key used on /books is sent to /tasks with the same body, then 422 (the path is part of the request)', async () => {
    const { http, store } = makeApp();
    await http.post('/books').set(KEY, 'k-3').send({ title: 'Plan' }).expect(201);
    const before = await snapshot(store);
    expectJsonError(await http.post('/tasks').set(KEY, 'k-3').send({ title: 'Plan' }), 422);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when a request with the key is still running, then another with that key is a 409 and the first still succeeds once', async () => {
    const { store, release, started } = gated(makeStore());
    const { http } = makeApp({ store });
    const before = (await store.books.list()).total;
    const first = http.post('/books').set(KEY, 'k-4').send({ title: 'Emma' }).then((res) => res);
    await started;
    const second = await http.post('/books').set(KEY, 'k-4').send({ title: 'Emma' });
    expect(expectJsonError(second, 409).error).toBe('A request with this Idempotency-Key is still in progress; retry when it has finished');
    release();
    expect((await first).status).toBe(201);
    const third = await http.post('/books').set(KEY, 'k-4').send({ title: 'Emma' }).expect(201);
    expect(third.body).toEqual((await first).body);
    expect((await store.books.list()).total).toBe(before + 1);
  });

  it('when the first attempt fails (storage unreachable), then nothing is kept and a retry with the key creates the record once', async () => {
    const store = failingFirst(makeStore(), 1, () => new StorageUnavailableError());
    const { http } = makeApp({ store });
    const before = await snapshot(store);
    const failed = await http.post('/books').set(KEY, 'k-5').send({ title: 'Emma' });
    expect(expectJsonError(failed, 503).error).toBe('Service unavailable');
    expect(await snapshot(store)).toEqual(before);
    const retried = await http.post('/books').set(KEY, 'k-5').send({ title: 'Emma' }).expect(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect((await store.books.list()).items.filter((b) => b.title === 'Emma')).toEqual([retried.body]);
  });

  it('when COMMIT got no answer (outcome unknown), then the 503 says so in the family format, and the key makes the retry safe', async () => {
    const store = failingFirst(makeStore(), 2, () => new StorageUnavailableError('COMMIT sent, no answer', { outcomeUnknown: true }));
    const { http } = makeApp({ store });
    const unknown = 'Service unavailable: the outcome of this write is unknown; retry with the same Idempotency-Key';
    const json = await http.post('/books').set(KEY, 'k-8').send({ title: 'Emma' });
    expect([expectJsonError(json, 503).error, json.headers['retry-after']]).toEqual([unknown, '1']);
    expect(expectTextError(await http.post('/items').set(KEY, 'k-9').send({ name: 'Saw' }), 503)).toBe(unknown);
    const retried = await http.post('/books').set(KEY, 'k-8').send({ title: 'Emma' }).expect(201);
    expect((await store.books.list()).items.filter((b) => b.title === 'Emma')).toEqual([retried.body]);
  });

  it('when the key has expired (IDEMPOTENCY_TTL_MS), then the same request creates a new record', async () => {
    const { http } = makeApp({ config: { idempotencyTtlMs: 1000 } });
    const first = await http.post('/books').set(KEY, 'k-6').send({ title: 'Emma' }).expect(201);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const later = await http.post('/books').set(KEY, 'k-6').send({ title: 'Emma' }).expect(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.id).toBe(first.body.id + 1);
  });

  it('when a GET carries an Idempotency-Key, then it is ignored', async () => {
    const { http } = makeApp();
    await http.get('/books').set(KEY, 'k-7').expect(200);
  });
});

describe('ids are never consumed by a rejected create', () => {
  it('when a POST is rejected (400), then the next create still gets the previous largest + 1', async () => {
    const { http } = makeApp();
    const largest = Math.max(...(await http.get('/books')).body.map((b: { id: number }) => b.id));
    expectJsonError(await http.post('/books').send({ title: ' ' }), 400);
    expect((await http.post('/books').send({ title: 'Emma' }).expect(201)).body.id).toBe(largest + 1);
  });
});
