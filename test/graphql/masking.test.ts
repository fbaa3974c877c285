import { makeGqlApp, seededStore } from './support';

const SECRET = 'connect ECONNREFUSED 10.0.0.7:5432 at /srv/app/internal/db.ts';

describe('GraphQL error masking', () => {
  it('when a store call fails unexpectedly, then the client sees "Unexpected error." and the log has the full error with the request id', async () => {
    const store = seededStore();
    const failing = { ...store, books: { ...store.books, list: async () => Promise.reject(new Error(SECRET)) } };
    const { http, logs } = makeGqlApp({ store: failing });
    const res = await http.post('/graphql').set('X-Request-Id', 'req-mask-1').send({ query: '{ todos { id } books { id } }' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: null,
      errors: [{ message: 'Unexpected error.', locations: [{ line: 1, column: 16 }], path: ['books'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
    expect(res.text).not.toContain('ECONNREFUSED');
    const logged = logs.find((line) => line.msg === 'graphql resolver failed');
    expect(logged).toMatchObject({ level: 'error', requestId: 'req-mask-1', path: 'books', error: { message: SECRET, stack: expect.stringContaining('Error:') } });
  });

  it('when a batched child load fails, then the nested field is masked, and the nullable parent keeps the other fields', async () => {
    const store = seededStore();
    const failing = { ...store, posts: Object.assign(Object.create(store.posts), { listByParents: async () => Promise.reject(new Error(SECRET)) }) };
    const { gql } = makeGqlApp({ store: failing });
    const res = await gql('{ user(id: "1") { name posts { id } } }');
    expect(res.body).toEqual({
      data: { user: null },
      errors: [{ message: 'Unexpected error.', locations: [{ line: 1, column: 24 }], path: ['user', 'posts'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
  });

  it('when a resolver throws a deliberate GraphQL error, then it passes unmasked', async () => {
    const { gql } = makeGqlApp();
    const res = await gql('mutation { addTodo(title: "") { id } }');
    expect(res.body.errors?.[0]).toMatchObject({ message: 'title must not be blank.', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('when a resolver error only reads like graphql-js\'s non-null error (it names another field), then it is masked', async () => {
    const store = seededStore();
    const failing = { ...store, books: { ...store.books, list: async () => Promise.reject(new Error('Cannot return null for non-nullable field Book.title.')) } };
    const { gql } = makeGqlApp({ store: failing });
    const res = await gql('{ books { id } }');
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Unexpected error.', path: ['books'], extensions: { code: 'INTERNAL_SERVER_ERROR' } })]);
  });
});
