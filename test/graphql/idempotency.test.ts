import { StorageUnavailableError } from '../../src/store/errors';
import { makeApp, makeStore, snapshot } from '../support/app';
import { failingFirst } from '../support/idempotency';

const KEY = 'Idempotency-Key';
const ADD = 'mutation Add($title: String!) { addTodo(title: $title) { id title done } }';

describe('POST /graphql with an Idempotency-Key', () => {
  it('when the same mutation is sent twice with one key, then the second answers the first response again and creates nothing', async () => {
    const { http, store } = makeApp();
    const before = (await store.todos.list()).total;
    const first = await http.post('/graphql').set(KEY, 'g-1').send({ query: ADD, variables: { title: 'Water' } }).expect(200);
    expect(first.body).toEqual({ data: { addTodo: { id: String(before + 1), title: 'Water', done: false } } });
    // Same query, variables and operation name, written in another order: the same request.
    const again = await http
      .post('/graphql')
      .set(KEY, 'g-1')
      .type('application/json')
      .send(JSON.stringify({ variables: { title: 'Water' }, query: ADD }))
      .expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await store.todos.list()).items.filter((t) => t.text === 'Water')).toHaveLength(1);
    expect((await store.todos.list()).total).toBe(before + 1);
  });

  it('when the key is empty, then it is no key: each mutation runs, none is replayed (as a blank optional REST header)', async () => {
    const { http, store } = makeApp();
    const before = (await store.todos.list()).total;
    for (const blank of ['', '  ']) {
      const res = await http.post('/graphql').set(KEY, blank).send({ query: ADD, variables: { title: 'Blank' } }).expect(200);
      expect(res.body.data.addTodo.title).toBe('Blank');
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect((await store.todos.list()).total).toBe(before + 2);
  });

  it('when the key is reused with other variables, then 422 IDEMPOTENCY_KEY_REUSED and nothing is created', async () => {
    const { http, store } = makeApp();
    await http.post('/graphql').set(KEY, 'g-2').send({ query: ADD, variables: { title: 'Water' } }).expect(200);
    const before = await snapshot(store);
    const res = await http.post('/graphql').set(KEY, 'g-2').send({ query: ADD, variables: { title: 'Weed' } }).expect(422);
    expect(res.body).toEqual({
      errors: [{ message: 'Idempotency-Key was already used for a different request; nothing was created', extensions: { code: 'IDEMPOTENCY_KEY_REUSED' } }],
    });
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the mutation fails (BAD_USER_INPUT), then nothing is kept and the key may carry the corrected request', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const bad = await http.post('/graphql').set(KEY, 'g-3').send({ query: 'mutation { createUser(name: " ", email: "a@b.co") { id } }' }).expect(200);
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(await snapshot(store)).toEqual(before);
    const good = await http.post('/graphql').set(KEY, 'g-3').send({ query: 'mutation { createUser(name: "Ann", email: "a@b.co") { name } }' }).expect(200);
    expect(good.body).toEqual({ data: { createUser: { name: 'Ann' } } });
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('when storage fails during the mutation, then nothing is kept and a retry with the key creates the record once', async () => {
    const store = failingFirst(makeStore(), 1, () => new StorageUnavailableError());
    const { http } = makeApp({ store });
    const before = await snapshot(store);
    const failed = await http.post('/graphql').set(KEY, 'g-4').send({ query: ADD, variables: { title: 'Water' } }).expect(503);
    expect(failed.headers['retry-after']).toBe('1');
    expect(failed.body).toEqual({ errors: [{ message: 'Service unavailable: storage is unreachable; retry later.', extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
    expect(await snapshot(store)).toEqual(before);
    await http.post('/graphql').set(KEY, 'g-4').send({ query: ADD, variables: { title: 'Water' } }).expect(200);
    await http.post('/graphql').set(KEY, 'g-4').send({ query: ADD, variables: { title: 'Water' } }).expect(200).expect('Idempotent-Replayed', 'true');
    expect((await store.todos.list()).items.filter((t) => t.text === 'Water')).toHaveLength(1);
  });

  it('when a mutation COMMIT got no answer (outcome unknown), then the error says so instead of "retry later"', async () => {
    const store = makeStore();
    store.todos.create = async () => {
      throw new StorageUnavailableError('COMMIT sent, no answer', { outcomeUnknown: true });
    };
    const { http } = makeApp({ store });
    const res = await http.post('/graphql').send({ query: ADD, variables: { title: 'Water' } }).expect(200);
    expect(res.body.errors).toEqual([
      {
        message: 'Service unavailable: the outcome of this write is unknown; retry with the same Idempotency-Key',
        locations: [{ line: 1, column: 33 }],
        path: ['addTodo'],
        extensions: { code: 'SERVICE_UNAVAILABLE' },
      },
    ]);
  });

  it('when the key is malformed, then 400 and nothing is executed', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await http.post('/graphql').set(KEY, 'x'.repeat(256)).send({ query: ADD, variables: { title: 'Water' } }).expect(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(await snapshot(store)).toEqual(before);
  });

  it.each([
    ['a key of 255 characters', 'k'.repeat(255), true],
    ['a key of 256 characters', 'k'.repeat(256), false],
    ['a key with a space and punctuation', 'order 42: retry #1', true],
    ['a key with a non-ASCII character', 'clé-1', false],
  ])('when %s is sent, then GraphQL takes it exactly when REST does (openapi.yaml\'s one rule)', async (_name, key, accepted) => {
    // Two apps: one key store holds REST's and GraphQL's keys alike, so one key in both would be a reuse.
    const rest = await makeApp().http.post('/books').set(KEY, key).send({ title: 'Keyed' });
    const graphql = await makeApp().http.post('/graphql').set(KEY, key).send({ query: ADD, variables: { title: 'Keyed' } });
    expect(rest.status).toBe(accepted ? 201 : 400);
    expect(graphql.status).toBe(accepted ? 200 : 400);
    if (!accepted) expect(graphql.body.errors[0]).toMatchObject({ message: 'Idempotency-Key must be 1 to 255 characters matching ^[ -~]+$', extensions: { code: 'BAD_REQUEST' } });
  });

  it('when a query carries a key, then the key is ignored (queries change nothing)', async () => {
    const { http } = makeApp();
    const first = await http.post('/graphql').set(KEY, 'g-5').send({ query: '{ todos { id } }' }).expect(200);
    await http.post('/graphql').set(KEY, 'g-5').send({ query: '{ books { id } }' }).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
  });

  it('when mutations carry no key, then each creates its own record', async () => {
    const { http, store } = makeApp();
    const before = (await store.todos.list()).total;
    await http.post('/graphql').send({ query: ADD, variables: { title: 'Water' } }).expect(200);
    await http.post('/graphql').send({ query: ADD, variables: { title: 'Water' } }).expect(200);
    expect((await store.todos.list()).total).toBe(before + 2);
  });
  it('when a keyed mutation is refused before it runs (Accept not served, body not JSON, invalid document), then nothing is stored and the key is still free', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    await http.post('/graphql').set(KEY, 'g-6').set('Accept', 'application/xml').send({ query: ADD, variables: { title: 'Water' } }).expect(406);
    await http.post('/graphql').set(KEY, 'g-6').set('Content-Type', 'text/plain').send(JSON.stringify({ query: ADD, variables: { title: 'Water' } })).expect(415);
    expect((await http.post('/graphql').set(KEY, 'g-6').set('Content-Type', 'application/json').send('{"query": ').expect(400)).body).toEqual({ errors: [{ message: 'Unparsable JSON body' }] });
    expect((await http.post('/graphql').set(KEY, 'g-6').send({ variables: {} }).expect(400)).body).toEqual({ errors: [{ message: 'Missing query' }] });
    const invalid = await http.post('/graphql').set(KEY, 'g-6').set('Accept', 'application/graphql-response+json').send({ query: 'mutation { addTodo(title: "x") { nope } }' }).expect(400);
    expect(invalid.body.errors[0].message).toMatch(/^Cannot query field "nope" on type "Todo"/);
    expect(await snapshot(store)).toEqual(before);
    const first = await http.post('/graphql').set(KEY, 'g-6').send({ query: ADD, variables: { title: 'Water' } }).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect((await store.todos.list()).items.filter((t) => t.text === 'Water')).toHaveLength(1);
  });

  it('when a keyed mutation is answered, then its answer is the one a mutation without a key gets (status, media type, body)', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const keyed = await makeApp().http.post('/graphql').set(KEY, 'g-7').set('Accept', accept).send({ query: ADD, variables: { title: 'Water' } });
      const plain = await makeApp().http.post('/graphql').set('Accept', accept).send({ query: ADD, variables: { title: 'Water' } });
      expect(keyed.status).toBe(plain.status);
      expect(keyed.headers['content-type']).toBe(plain.headers['content-type']);
      expect(keyed.text).toBe(plain.text);
    }
  });
});
