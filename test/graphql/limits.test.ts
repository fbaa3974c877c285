import { getIntrospectionQuery } from 'graphql';
import { nestingError } from '../../src/graphql/limits';
import { snapshot } from '../support/app';
import { GRAPHQL_RESPONSE, limits, makeGqlApp, seededStore } from './support';

/** `{ users { posts { comments { body } } } }` is depth 4. */
const DEPTH_4 = '{ users { posts { comments { body } } } }';

describe('GraphQL limits: depth', () => {
  it('when an operation is exactly as deep as the limit, then it runs', async () => {
    const { gql } = makeGqlApp({ config: limits({ maxDepth: 4 }) });
    const res = await gql(DEPTH_4);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  });

  it('when an operation is deeper than the limit, then it is rejected before execution with a clear error', async () => {
    const { gql } = makeGqlApp({ config: limits({ maxDepth: 3 }) });
    const res = await gql(DEPTH_4);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ message: 'The operation is nested 4 levels deep; the maximum query depth is 3.', locations: [{ line: 1, column: 1 }], extensions: { code: 'QUERY_TOO_DEEP' } }],
    });
  });

  it('when the depth hides in fragments, then the fragments are counted too', async () => {
    const { gql } = makeGqlApp({ config: limits({ maxDepth: 3 }) });
    const res = await gql('query Deep { users { ...U } } fragment U on User { posts { ... on Post { comments { body } } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].message).toBe('Operation "Deep" is nested 4 levels deep; the maximum query depth is 3.');
  });

  it('when a mutation is too deep, then nothing is stored', async () => {
    const { gql, store } = makeGqlApp({ config: limits({ maxDepth: 2 }) });
    const before = await snapshot(store);
    const res = await gql('mutation { createUser(name: "A", email: "a@b.co") { posts { comments { id } } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].extensions?.code).toBe('QUERY_TOO_DEEP');
    expect(await snapshot(store)).toEqual(before);
  });

  it('when fragments form a cycle, then the standard cycle error answers (no endless counting)', async () => {
    const { gql } = makeGqlApp();
    const res = await gql('{ users { ...A } } fragment A on User { posts { ...B } } fragment B on Post { id ...C } fragment C on Post { ...B }');
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e: { message: string }) => e.message)).toContain('Cannot spread fragment "B" within itself via "C".');
  });

  it.each([
    ['the default introspection query', getIntrospectionQuery()],
    ['GraphiQL\'s introspection query (descriptions, deprecations, specifiedBy, repeatable)', getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true })],
  ])('when %s is sent with the default limits, then it is answered (introspection is not counted)', async (_case, query) => {
    const { gql } = makeGqlApp();
    const res = await gql(query);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect((res.body.data?.__schema as { queryType: { name: string } }).queryType.name).toBe('Query');
  });
});

describe('GraphQL limits: aliases', () => {
  const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `b${i}: books { id }`).join(' ')} }`;

  it('when a document uses as many aliases as allowed, then it runs', async () => {
    const { gql } = makeGqlApp({ config: limits({ maxAliases: 5 }) });
    const res = await gql(aliased(5));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data ?? {})).toHaveLength(5);
  });

  it('when a document uses more aliases than allowed, then it is rejected before execution', async () => {
    const { gql } = makeGqlApp({ config: limits({ maxAliases: 5 }) });
    const res = await gql(aliased(6));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: 'The document uses 6 aliases; the maximum is 5.', locations: [{ line: 1, column: 1 }], extensions: { code: 'TOO_MANY_ALIASES' } }] });
  });

  it('when the default limit (30) is passed, then the document is rejected', async () => {
    const { gql } = makeGqlApp();
    expect((await gql(aliased(30))).status).toBe(200);
    expect((await gql(aliased(31))).body.errors?.[0].message).toBe('The document uses 31 aliases; the maximum is 30.');
  });
});

describe('GraphQL limits: tokens', () => {
  it('when a document has more tokens than allowed, then parsing stops with a clear error and nothing runs', async () => {
    const { gql, store } = makeGqlApp({ config: limits({ maxTokens: 50 }) });
    const before = await snapshot(store);
    const res = await gql(`mutation { addTodo(title: "x") { ${'id '.repeat(60)} } }`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ message: 'The document has more than 50 tokens, the limit; it was not parsed further.', extensions: { code: 'TOO_MANY_TOKENS' } }],
    });
    expect(await snapshot(store)).toEqual(before);
  });

  it('when a document is within the token limit, then it runs', async () => {
    const { gql } = makeGqlApp({ config: limits({ maxTokens: 50 }) });
    expect((await gql('{ books { id title } }')).status).toBe(200);
  });
});

describe('GraphQL limits: nesting before parsing', () => {
  it('when thousands of levels are nested within the token limit, then it is a 400 QUERY_TOO_DEEP, not a stack overflow', async () => {
    const { gql } = makeGqlApp();
    const res = await gql(`{ ${'users { posts { '.repeat(1500)}id${' }'.repeat(3000)} }`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ message: 'The document nests braces, brackets or parentheses more than 30 levels deep; the query depth limit does not allow it.', extensions: { code: 'QUERY_TOO_DEEP' } }],
    });
  });

  it('when braces sit inside strings or comments, then they are not counted', () => {
    const query = `{ book(id: "${'{'.repeat(50)}") { id } } # ${'{'.repeat(50)}`;
    expect(nestingError(query, 5, 5000)).toBeUndefined();
    expect(nestingError('{ a { b { c } } }', 2, 5000)?.extensions.code).toBe('QUERY_TOO_DEEP');
    expect(nestingError('{ a { b } }', 2, 5000)).toBeUndefined();
  });
});

describe('GraphQL limits: records in a result (GRAPHQL_MAX_RESULT_ITEMS)', () => {
  it('when a second root list takes the result past the limit, then the answer is that refusal at its path, under either media type', async () => {
    const store = seededStore();
    const books = (await store.books.list()).total;
    const todos = (await store.todos.list()).total;
    for (const accept of [GRAPHQL_RESPONSE, 'application/json']) {
      const { gql } = makeGqlApp({ store, config: limits({ maxResultItems: books + todos - 1 }) });
      const res = await gql('{ b: books { id } t: todos { id } }', undefined, accept);
      expect(res.status).toBe(200);
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toEqual([
        {
          message: `The result would hold more than ${books + todos - 1} records (GRAPHQL_MAX_RESULT_ITEMS): ask for fewer fields with lists, or page through the REST collection with limit and offset.`,
          path: ['t'],
          extensions: { code: 'RESULT_TOO_LARGE' },
        },
      ]);
    }
  });

  it('when the lists fit exactly, then the result is answered', async () => {
    const store = seededStore();
    const total = (await store.books.list()).total + (await store.todos.list()).total;
    const { gql } = makeGqlApp({ store, config: limits({ maxResultItems: total }) });
    const res = await gql('{ books { id } todos { id } }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  });
});
