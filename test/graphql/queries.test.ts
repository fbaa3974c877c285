import { limits, makeGqlApp as makeDefaultGqlApp, seededStore } from './support';

/**
 * Every test runs twice: as a document's first run (graphql-js executes it) and as a hot document
 * (compiled by graphql-jit from its first run; src/graphql/execution.ts). The answers must be the same.
 */
const MODES = [
  { mode: 'first run: graphql-js', compileAfter: 1 },
  { mode: 'hot: compiled', compileAfter: 0 },
];

describe.each(MODES)('$mode', ({ compileAfter }) => {
  const makeGqlApp = (options: Omit<Parameters<typeof makeDefaultGqlApp>[0], 'config'> = {}) => makeDefaultGqlApp({ ...options, config: limits({ compileAfter }) });

  describe('GraphQL queries: field selection', () => {
    it('when a query selects some fields, then data mirrors exactly that selection and nothing more', async () => {
      const { gql } = makeGqlApp();
      const res = await gql('{ book(id: "1") { title } todos { id title } }');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          book: { title: 'The Hobbit' },
          todos: [
            { id: '1', title: 'Buy milk' },
            { id: '2', title: 'Renew the passport' },
            { id: '3', title: 'Book the dentist' },
          ],
        },
      });
    });

    it('when a query nests selections, then each child list sits inside its parent, in id order', async () => {
      const { gql } = makeGqlApp();
      const res = await gql('{ user(id: "1") { name posts { id title comments { id body } } } }');
      expect(res.body).toEqual({
        data: {
          user: {
            name: 'Ada Lovelace',
            posts: [
              {
                id: '1',
                title: 'Notes on the Analytical Engine',
                comments: [
                  { id: '1', body: 'Beautifully put.' },
                  { id: '2', body: 'The first program, really.' },
                ],
              },
              { id: '2', title: 'On Bernoulli numbers', comments: [{ id: '3', body: 'Table A is a gem.' }] },
            ],
          },
        },
      });
    });

    it('when aliases and fragments are used, then the response keys follow the aliases', async () => {
      const { gql } = makeGqlApp();
      const res = await gql('{ first: book(id: "1") { ...B } second: book(id: "2") { ...B } } fragment B on Book { id pages }');
      expect(res.body).toEqual({ data: { first: { id: '1', pages: 310 }, second: { id: '2', pages: expect.any(Number) } } });
    });

    it('when ids are sent, then they come back as strings (ID on the wire)', async () => {
      const { gql } = makeGqlApp();
      const res = await gql('{ users { id } books { id } }');
      expect(res.body.data?.users).toEqual([{ id: '1' }, { id: '2' }, { id: '3' }]);
      expect(res.body.data?.books).toEqual(['1', '2', '3', '4', '5'].map((id) => ({ id })));
    });
  });

  describe('GraphQL queries: unknown ids', () => {
    it('when book(id: "01") is asked, then the id is compared as a number and it is book 1 (as REST /books/01)', async () => {
      const { gql } = makeGqlApp();
      const res = await gql('{ book(id: "01") { id title } }');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { book: { id: '1', title: 'The Hobbit' } } });
    });

    it.each(['999', 'abc', '0', '-1', '1.5', '1e0', ''])('when book(id: "%s") names no record, then it is null without an error', async (id) => {
      const { gql } = makeGqlApp();
      const res = await gql('query($id: ID!) { book(id: $id) { id } user(id: $id) { id } }', { id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { book: null, user: null } });
    });

    it('when an id is given as a number literal, then ID accepts it and finds the record', async () => {
      const { gql } = makeGqlApp();
      const res = await gql('{ book(id: 2) { id } }');
      expect(res.body).toEqual({ data: { book: { id: '2' } } });
    });
  });

  describe('GraphQL queries: validation before execution', () => {
    it('when a field is not in the schema, then the standard "Cannot query field" error comes back without data', async () => {
      const { gql } = makeGqlApp();
      const res = await gql('{ books { id isbn } }');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ message: 'Cannot query field "isbn" on type "Book".', locations: [{ line: 1, column: 14 }] }],
      });
    });

    it('when a resolver yields null for a non-null field, then the standard error names it and the nullable parent becomes null', async () => {
      const store = seededStore();
      const broken = { ...store, users: { ...store.users, get: async () => ({ id: 1, email: 'ada@example.com' }) as never } };
      const { gql } = makeGqlApp({ store: broken });
      const res = await gql('{ user(id: "1") { id name } books { id } }');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ user: null, books: ['1', '2', '3', '4', '5'].map((id) => ({ id })) });
      expect(res.body.errors).toEqual([
        { message: 'Cannot return null for non-nullable field User.name.', locations: [{ line: 1, column: 22 }], path: ['user', 'name'] },
      ]);
    });

    it('when a null reaches a non-null list item, then the null propagates up to data', async () => {
      const store = seededStore();
      const broken = { ...store, users: { ...store.users, list: async () => ({ items: [{ id: 1, email: 'a@b.c' }] as never, total: 1 }) } };
      const { gql } = makeGqlApp({ store: broken });
      const res = await gql('{ users { name } }');
      expect(res.body).toEqual({
        data: null,
        errors: [{ message: 'Cannot return null for non-nullable field User.name.', locations: [{ line: 1, column: 11 }], path: ['users', 0, 'name'] }],
      });
    });
  });

  describe('GET /graphql', () => {
    it('when a query comes in the URL, then it is executed like a POST', async () => {
      const { http } = makeGqlApp();
      const res = await http.get('/graphql').query({ query: 'query B($id: ID!) { book(id: $id) { title } }', variables: '{"id":"1"}', operationName: 'B' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ data: { book: { title: 'The Hobbit' } } });
    });
  });
});
