import { execute, graphql, parse } from 'graphql';
import { createContext } from '../../src/graphql/context';
import { createExecutor } from '../../src/graphql/execution';
import { LargeAnswers } from '../../src/graphql/large-answers';
import { resolvers } from '../../src/graphql/resolvers';
import { buildSchema } from '../../src/graphql/schema';
import { createLogger } from '../../src/logger';
import { fieldsToMock, mockUnimplemented } from '../../src/mock/graphql';
import { ContractError, missingResolvers } from '../../src/startup/contract-check';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { loadOpenApi } from '../../src/spec';
import { textLimits } from '../../src/text-rule';
import { buildApp, sdlWithUnimplemented } from './support';

const sdl = sdlWithUnimplemented();
const seededBooks = loadSeed('default').books;

describe('MOCK_UNIMPLEMENTED: GraphQL fields with no resolver answer mocked values', () => {
  const { http, logs } = buildApp({ sdl, config: { mockUnimplemented: true } });
  const gql = (query: string) => http.post('/graphql').set('Accept', 'application/graphql-response+json').send({ query });

  it('when the service starts, then one log line lists every mocked field as Type.field', () => {
    const lines = logs.filter((line) => String(line.msg).startsWith('MOCK_UNIMPLEMENTED'));
    expect(lines).toHaveLength(1);
    expect(lines[0].msg).toBe(
      'MOCK_UNIMPLEMENTED: mocking schema.graphql fields Query.quote, Query.featuredBook, Mutation.likeQuote, Book.isbn, Book.rating, Quote.text, Quote.likes',
    );
  });

  const query = '{ books { id title pages isbn } quote { text likes } }';

  it('when one query reads stored and mocked fields, then the stored ones come from the store and the mocked ones are filled in', async () => {
    const res = await gql(query);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const { books, quote } = res.body.data;
    expect(books.map(({ id, title, pages }: Record<string, unknown>) => ({ id: Number(id), title, pages }))).toEqual(seededBooks);
    for (const book of books) expect(typeof book.isbn).toBe('string');
    expect(quote).toEqual({ text: expect.any(String), likes: expect.any(Number) });
  });

  it('when the same query runs again (compiled by graphql-jit by then), then it answers the same', async () => {
    const first = await gql(query);
    const again = await gql(query);
    expect(again.body).toEqual(first.body);
    expect(logs.some((line) => line.msg === 'graphql operation compiled')).toBe(true);
  });

  it('when a stored record is read again, then its mocked fields answer the same values', async () => {
    const ratings = async () => (await gql('{ books { id rating } }')).body.data.books;
    const first = await ratings();
    expect(first).toHaveLength(seededBooks.length);
    for (const book of first) expect(Number.isInteger(book.rating)).toBe(true);
    expect(await ratings()).toEqual(first);
    expect(await ratings()).toEqual(first);
  });

  it('when a mocked field returns a stored type, then its fields are mocked too, and the store is not read for it', async () => {
    const res = await gql('{ featuredBook { id title pages isbn } book(id: "1") { title } }');
    expect(res.body.errors).toBeUndefined();
    const { featuredBook, book } = res.body.data;
    expect(featuredBook).toEqual({ id: expect.any(String), title: expect.any(String), pages: expect.any(Number), isbn: expect.any(String) });
    expect(seededBooks.map((b) => b.title)).not.toContain(featuredBook.title);
    expect(book).toEqual({ title: seededBooks[0].title });
  });

  it('when a mutation has no resolver, then it answers a mocked value, and implemented mutations still write to the store', async () => {
    const mocked = await http.post('/graphql').set('Accept', 'application/graphql-response+json').send({ query: 'mutation { likeQuote(times: 2) }' });
    expect(mocked.body).toEqual({ data: { likeQuote: expect.any(Number) } });
    const added = await http.post('/graphql').set('Accept', 'application/graphql-response+json').send({ query: 'mutation { addTodo(title: "Write the resolver") { id title done } }' });
    expect(added.body.data.addTodo).toMatchObject({ title: 'Write the resolver', done: false });
    const todos = await http.get('/todos');
    expect(todos.body.map((t: { text: string }) => t.text)).toContain('Write the resolver');
  });
});

describe('without MOCK_UNIMPLEMENTED, a schema with unimplemented fields is refused', () => {
  it('when schema.graphql has fields with no resolver, then createApp throws the ContractError naming them', () => {
    let error: unknown;
    try {
      buildApp({ sdl });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ContractError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Contract not fully implemented: schema\.graphql fields without a resolver: Query\.quote, Query\.featuredBook, Mutation\.likeQuote, Book\.isbn, Book\.rating, Quote\b/);
    expect(message).not.toContain('\n');
  });
});

describe('mocked abstract types', () => {
  it('when an interface has no __resolveType, then a mocked field of that interface answers a value of one of its types', async () => {
    const typeDefs = 'interface Node { id: ID! } type Thing implements Node { id: ID! name: String! } type Query { node: Node! count: Int! }';
    const schema = mockUnimplemented({ typeDefs, resolvers: { Query: { count: () => 3 } }, fields: ['Query.node', 'Node.__resolveType'] });
    const result = await graphql({ schema, source: '{ count node { __typename id ... on Thing { name } } }' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ count: 3, node: { __typename: 'Thing', id: expect.any(String), name: expect.any(String) } });
  });
});

describe('mocked fields through compiled execution', () => {
  it('when a query with mocked and stored fields is compiled (graphql-jit), then its compiled form answers it as graphql-js does, with no fallback', async () => {
    const schema = buildSchema(resolvers, { typeDefs: sdl, mock: fieldsToMock(sdl, missingResolvers(sdl, resolvers), resolvers) });
    const executor = createExecutor(schema, { cacheSize: 10, compileAfter: 0 });
    const answers = new LargeAnswers({ maxItems: 20000, slots: 4, waitMs: 1000 });
    const store = createMemoryStore(loadSeed('default'));
    const contextValue = () => createContext(store, createLogger('silent'), answers.budget(), textLimits(loadOpenApi()));
    const document = parse('{ books { id title isbn rating } quote { text likes } featuredBook { title rating } }');
    const reference = await execute({ schema, document, contextValue: contextValue() });
    const compiled = await executor.execute({ schema, document, contextValue: contextValue() });
    expect(compiled.errors).toBeUndefined();
    expect(compiled).toEqual(reference);
    expect(executor.stats).toMatchObject({ compiled: 1, compiledRuns: 1, fallbacks: 0 });
  });
});
