import { buildSchema as buildSdlSchema, getIntrospectionQuery, type GraphQLError } from 'graphql';
import { documentPreparer } from '../../src/graphql/document-cache';
import { depthLimit } from '../../src/graphql/limits';
import { limits, makeGqlApp } from './support';

const QUERIES: [string, Record<string, unknown> | undefined][] = [
  ['{ users { name posts { title comments { body } } } }', undefined],
  ['query($id: ID!) { book(id: $id) { title pages } }', { id: '3' }],
  ['query($id: ID!) { book(id: $id) { title pages } }', { id: 'nope' }],
  ['{ todos { id title done } }', undefined],
  [getIntrospectionQuery(), undefined],
];

describe('GraphQL document cache', () => {
  it('when the same documents are sent with and without the cache, then every response is identical', async () => {
    const cached = makeGqlApp({ config: limits({ documentCacheSize: 100 }) });
    const uncached = makeGqlApp({ config: limits({ documentCacheSize: 0 }) });
    for (let round = 0; round < 3; round += 1) {
      for (const [query, variables] of QUERIES) {
        const [a, b] = await Promise.all([cached.gql(query, variables), uncached.gql(query, variables)]);
        expect(a.status).toBe(b.status);
        expect(a.body).toEqual(b.body);
      }
    }
  });

  it('when an invalid document is sent again and again, then it is rejected every time, cache or not', async () => {
    const { gql } = makeGqlApp({ config: limits({ documentCacheSize: 100, maxDepth: 2 }) });
    for (let round = 0; round < 3; round += 1) {
      expect((await gql('{ books { nope } }')).body.errors?.[0].message).toBe('Cannot query field "nope" on type "Book".');
      expect((await gql('{ users { posts { id } } }')).body.errors?.[0].extensions?.code).toBe('QUERY_TOO_DEEP');
      expect((await gql('{ books { id }')).status).toBe(400);
    }
  });

  it('when a cached document is sent with bad variables, then variables are still checked on every request', async () => {
    const { gql } = makeGqlApp();
    const query = 'query($id: ID!) { book(id: $id) { id } }';
    expect((await gql(query, { id: '1' })).body).toEqual({ data: { book: { id: '1' } } });
    expect((await gql(query, { id: null })).status).toBe(400);
    expect((await gql(query, { id: '1' })).body).toEqual({ data: { book: { id: '1' } } });
  });
});

describe('documentPreparer', () => {
  const schema = buildSdlSchema('type Query { a: A } type A { a: A, n: Int }');

  it('when a valid document is prepared twice, then the second time returns the very same parsed document', () => {
    const preparer = documentPreparer(schema, [], { maxTokens: 100, maxNesting: 20, cacheSize: 10 });
    const first = preparer.prepare('{ a { n } }');
    expect(preparer.prepare('{ a { n } }')).toBe(first);
    expect(preparer.cache.size).toBe(1);
  });

  it('when documents fail parsing, validation or a limit rule, then none is kept', () => {
    const preparer = documentPreparer(schema, [depthLimit(2)], { maxTokens: 100, maxNesting: 20, cacheSize: 10 });
    for (const query of ['{ a { n }', '{ b }', '{ a { a { n } } }']) {
      const result = preparer.prepare(query) as readonly GraphQLError[];
      expect(result.length).toBeGreaterThan(0);
    }
    expect(preparer.cache.size).toBe(0);
  });

  it('when the cache size is 0, then nothing is kept and documents are still served', () => {
    const preparer = documentPreparer(schema, [], { maxTokens: 100, maxNesting: 20, cacheSize: 0 });
    expect(preparer.prepare('{ a { n } }')).toHaveProperty('kind', 'Document');
    expect(preparer.cache.size).toBe(0);
  });
});

describe('the document cache (lru-cache)', () => {
  it('when more documents than its capacity are kept, then the least recently used one is evicted', () => {
    const schema = buildSdlSchema('type Query { a: Int }');
    const { cache, prepare } = documentPreparer(schema, [], { maxTokens: 100, maxNesting: 20, cacheSize: 2 });
    const [a, b, c] = ['{ a }', 'query B { a }', 'query C { a }'];
    prepare(a);
    prepare(b);
    expect(cache.get(a)).toHaveProperty('kind', 'Document');
    prepare(c);
    expect(cache.get(b)).toBeUndefined();
    expect(cache.get(a)).toHaveProperty('kind', 'Document');
    expect(cache.get(c)).toHaveProperty('kind', 'Document');
    expect(cache.size).toBe(2);
  });
});
