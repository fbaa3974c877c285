import type { Config } from '../../src/config';
import { countingStore, makeGqlApp as makeDefaultGqlApp } from '../graphql/support';
import { makeStore } from '../support/app';

/**
 * An app whose store records every call: "refused before execution" is asserted as "no storage call
 * was made", not with a clock (timed assertions fail on busy machines and prove less).
 */
function makeGqlApp(options: { config?: Partial<Config> } = {}) {
  const { store, calls } = countingStore(makeStore());
  return { ...makeDefaultGqlApp({ ...options, store }), calls };
}

/** Runs one request and hands back its answer with the storage calls it cost. */
const counted = async <T>(run: () => Promise<T>, calls: string[]): Promise<{ res: T; storageCalls: string[] }> => {
  const before = calls.length;
  const res = await run();
  return { res, storageCalls: calls.slice(before) };
};

describe('GraphQL abuse is refused before execution', () => {
  it('when a query nests deeper than GRAPHQL_MAX_DEPTH, then it is refused with QUERY_TOO_DEEP and nothing runs', async () => {
    const { gql, calls } = makeGqlApp({ config: { graphql: { maxDepth: 2 } as never } });
    const { res, storageCalls } = await counted(() => gql('{ users { posts { comments { id } } } }'), calls);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/maximum query depth is 2/), extensions: { code: 'QUERY_TOO_DEEP' } });
    expect(storageCalls).toEqual([]);
  });

  it('when a document floods aliases of a mutation, then it is refused and no todo is stored', async () => {
    const { gql, store, calls } = makeGqlApp();
    const before = (await store.todos.list()).total;
    const fields = Array.from({ length: 31 }, (_, i) => `a${i}: addTodo(title: "x") { id }`).join(' ');
    const { res, storageCalls } = await counted(() => gql(`mutation { ${fields} }`), calls);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.message).toMatch(/31 aliases; the maximum is 30/);
    expect((await store.todos.list()).total).toBe(before);
    expect(storageCalls).toEqual([]);
  });

  it('when a field is repeated thousands of times, then the token limit refuses it and nothing runs', async () => {
    const { gql, store, calls } = makeGqlApp();
    const before = (await store.todos.list()).total;
    const { res, storageCalls } = await counted(() => gql(`mutation { addTodo(title: "x") { ${'id '.repeat(6000)} } }`), calls);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.message).toMatch(/token/i);
    expect((await store.todos.list()).total).toBe(before);
    expect(storageCalls).toEqual([]);
  });

  it('when fragments spread each other in a cycle, then it is refused by validation and nothing runs', async () => {
    const { gql, store, calls } = makeGqlApp();
    const before = (await store.todos.list()).total;
    const query = 'mutation { addTodo(title: "x") { ...A } } fragment A on Todo { id ...B } fragment B on Todo { title ...A }';
    const { res, storageCalls } = await counted(() => gql(query), calls);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.message).toMatch(/Cannot spread fragment/);
    expect((await store.todos.list()).total).toBe(before);
    expect(storageCalls).toEqual([]);
  });

  it('when a huge fragment or 3000 levels of nesting are sent, then it is refused without executing', async () => {
    const { gql, calls } = makeGqlApp();
    const huge = `{ users { ...F } } fragment F on User { ${'name '.repeat(5000)} }`;
    const nested = `{ ${'users { posts { '.repeat(1500)}id${' }'.repeat(3000)} }`;
    for (const query of [huge, nested]) {
      const { res, storageCalls } = await counted(() => gql(query), calls);
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors?.length).toBeGreaterThan(0);
      expect(storageCalls).toEqual([]);
    }
  });

  it('when the variables are enormous, then the body limit refuses the request with 413', async () => {
    const { http, store, calls } = makeGqlApp();
    const before = (await store.todos.list()).total;
    const { res, storageCalls } = await counted(() =>
      http.post('/graphql').set('Accept', 'application/json').send({ query: 'mutation($t: String!) { addTodo(title: $t) { id } }', variables: { t: 'x'.repeat(300 * 1024) } }),
      calls,
    );
    expect(res.status).toBe(413);
    expect((await store.todos.list()).total).toBe(before);
    expect(storageCalls).toEqual([]);
  });

  it('when a batch (JSON array of operations) is posted, then it is refused and none of them runs', async () => {
    const { http, store, calls } = makeGqlApp();
    const before = (await store.todos.list()).total;
    const batch = Array.from({ length: 50 }, () => ({ query: 'mutation { addTodo(title: "batched") { id } }' }));
    const { res, storageCalls } = await counted(() => http.post('/graphql').set('Accept', 'application/json').send(batch), calls);
    expect(res.status).toBe(400);
    expect(storageCalls).toEqual([]);
    expect((await store.todos.list()).total).toBe(before);
  });

  it('when an introspection query nests ofType deeply, then it is answered or refused without touching storage, never 5xx', async () => {
    const { gql, calls } = makeGqlApp();
    const query = `{ __schema { types { fields { type { ${'ofType { '.repeat(200)}name${' }'.repeat(200)} } } } } }`;
    const { res, storageCalls } = await counted(() => gql(query), calls);
    expect(res.status).toBeLessThan(500);
    expect(storageCalls).toEqual([]);
  });
});
