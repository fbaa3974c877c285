import fc from 'fast-check';
import { execute, getIntrospectionQuery, parse, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Resolvers } from '../../generated/graphql';
import { createContext } from '../../src/graphql/context';
import { LargeAnswers } from '../../src/graphql/large-answers';
import { createExecutor, type Executor } from '../../src/graphql/execution';
import { resolvers } from '../../src/graphql/resolvers';
import { buildSchema } from '../../src/graphql/schema';
import { createLogger } from '../../src/logger';
import { loadOpenApi } from '../../src/spec';
import type { Store } from '../../src/store/types';
import { textLimits } from '../../src/text-rule';
import { countingStore, seededStore, seedWithUsers } from './support';

const logger = createLogger('silent');
const answers = new LargeAnswers({ maxItems: 20000, slots: 4, waitMs: 1000 });
/** A fresh context for one operation, as the endpoint makes one per request. */
const text = textLimits(loadOpenApi());
const context = (store: Store) => createContext(store, logger, answers.budget(), text);

/** Runs `document` once with graphql-js and once through the executor, each with a fresh context. */
async function both(executor: Executor, schema: ReturnType<typeof buildSchema>, store: Store, document: DocumentNode, variableValues?: Record<string, unknown>) {
  const reference = (await execute({ schema, document, variableValues, contextValue: context(store) })) as ExecutionResult;
  const answer = await executor.execute({ schema, document, variableValues, contextValue: context(store) });
  // The wire form: what a client would see (messages, locations, paths, extensions, data).
  return { reference: JSON.stringify(reference), answer: JSON.stringify(answer) };
}

/** A schema, a seeded store and an executor that compiles every query at its first run. */
function setup(schemaResolvers: Resolvers = resolvers, compileAfter = 0) {
  const schema = buildSchema(schemaResolvers);
  const executor = createExecutor(schema, { cacheSize: 100, compileAfter });
  return { schema, executor, store: seededStore(seedWithUsers(3)) };
}

const QUERIES: [string, string, Record<string, unknown>?][] = [
  ['nested lists', '{ users { id name email posts { id title body comments { id body } } } }'],
  ['leaf lists of every type', '{ books { id title pages } todos { id title done } }'],
  ['one record by id, and an unknown id (null)', '{ a: user(id: "1") { name posts { title } } b: user(id: "999") { name } c: book(id: "01") { id title } d: book(id: "x") { id } }'],
  ['aliases, __typename and fragments', 'query Q { list: users { ...U, kind: __typename } } fragment U on User { who: name posts { ... on Post { title } } }'],
  ['@skip and @include with variables', 'query ($yes: Boolean!, $no: Boolean = false) { books @include(if: $yes) { id } todos @include(if: $no) { id } users @skip(if: $yes) { id } }', { yes: true }],
  ['ID variables given as a string and as an integer', 'query ($s: ID!, $n: ID!) { s: book(id: $s) { title } n: user(id: $n) { name } }', { s: '2', n: 3 }],
  ['a named operation among several', 'query A { books { id } } query B { todos { title } }'],
  ['introspection (what GraphiQL sends)', getIntrospectionQuery()],
];

describe('Compiled execution gives exactly the answers of graphql-js', () => {
  const cases = QUERIES.map(([name, query, variables]) => ({ name, query, variables }));
  it.each(cases)('when the query has $name, then the compiled answer equals graphql-js', async ({ query, variables }) => {
    const { schema, executor, store } = setup();
    const document = parse(query);
    const operationName = query.startsWith('query A') ? 'B' : undefined;
    const reference = JSON.stringify(await execute({ schema, document, operationName, variableValues: variables, contextValue: context(store) }));
    const answer = JSON.stringify(await executor.execute({ schema, document, operationName, variableValues: variables, contextValue: context(store) }));
    expect(answer).toBe(reference);
    expect(JSON.parse(answer).errors).toBeUndefined();
    expect(executor.stats).toMatchObject({ compiled: 1, compiledRuns: 1, fallbacks: 0 });
  });

  it('when a variable cannot be coerced, then the answer is graphql-js\'s error and nothing compiled runs', async () => {
    const { schema, executor, store } = setup();
    const { reference, answer } = await both(executor, schema, store, parse('query ($id: ID!) { book(id: $id) { title } }'), { id: 1.5 });
    expect(answer).toBe(reference);
    expect(JSON.parse(answer)).toEqual({ errors: [expect.objectContaining({ message: expect.stringContaining('ID cannot represent value: 1.5') })] });
    expect(executor.stats.compiledRuns).toBe(0);
  });

  it('when a resolver throws, then graphql-js runs the query again and its answer (message, path, locations) is sent', async () => {
    const broken = { ...resolvers, Post: { comments: () => { throw new Error('comments are down'); } } } as Resolvers;
    const { schema, executor, store } = setup(broken);
    const { reference, answer } = await both(executor, schema, store, parse('{ users { name posts { title comments { body } } } }'));
    expect(answer).toBe(reference);
    expect(JSON.parse(answer).errors[0]).toMatchObject({ message: 'comments are down', locations: [{ line: 1, column: 30 }] });
    expect(executor.stats).toMatchObject({ compiledRuns: 1, fallbacks: 1 });
  });

  it('when a resolver returns null for a non-null field, then the standard error and graphql-js\'s null propagation are sent', async () => {
    const broken = { ...resolvers, Todo: { title: () => null } } as unknown as Resolvers;
    const { schema, executor, store } = setup(broken);
    const { reference, answer } = await both(executor, schema, store, parse('{ books { id } todos { title } }'));
    expect(answer).toBe(reference);
    expect(JSON.parse(answer)).toMatchObject({ data: null, errors: [{ message: 'Cannot return null for non-nullable field Todo.title.', path: ['todos', 0, 'title'] }] });
    expect(executor.stats.fallbacks).toBe(1);
  });

  it('when the store fails in a compiled run, then the failed batch is reused by the second run: no second storage call', async () => {
    const { schema, executor } = setup();
    const { store, calls } = countingStore(seededStore());
    const failing = { ...store, posts: Object.assign(Object.create(store.posts), { listByParents: () => (calls.push('posts.listByParents'), Promise.reject(new Error('down'))) }) };
    const result = await executor.execute({ schema, document: parse('{ users { posts { id } } }'), contextValue: context(failing) });
    expect(result.errors?.[0].message).toBe('down');
    expect(executor.stats.fallbacks).toBe(1);
    expect(calls.filter((c) => c === 'posts.listByParents')).toHaveLength(1);
  });

  it('when a mutation runs many times, then it is never compiled (and never run twice)', async () => {
    const { schema, executor, store } = setup();
    const document = parse('mutation { addTodo(title: "Once") { id } }');
    const before = (await store.todos.list()).total;
    for (let i = 0; i < 3; i += 1) await executor.execute({ schema, document, contextValue: context(store) });
    expect((await store.todos.list()).total).toBe(before + 3);
    expect(executor.stats).toMatchObject({ compiled: 0, compiledRuns: 0 });
  });

  it('when a document has run fewer than compileAfter times, then graphql-js runs it; after that, the compiled form', async () => {
    const { schema, executor, store } = setup(resolvers, 2);
    const document = parse('{ books { id } }');
    const run = () => executor.execute({ schema, document, contextValue: context(store) });
    await run();
    await run();
    expect(executor.stats).toMatchObject({ compiled: 0, compiledRuns: 0 });
    await run();
    await run();
    expect(executor.stats).toMatchObject({ compiled: 1, compiledRuns: 2 });
  });

  it('when more documents are hot than the cache holds, then the least recently used is dropped (and compiled again on return)', async () => {
    const schema = buildSchema();
    const executor = createExecutor(schema, { cacheSize: 2, compileAfter: 0 });
    const store = seededStore();
    const docs = ['{ books { id } }', '{ todos { id } }', '{ users { id } }'].map((q) => parse(q));
    for (const document of [...docs, docs[0]]) await executor.execute({ schema, document, contextValue: context(store) });
    expect(executor.stats.compiled).toBe(4);
  });

  it('when the compiled cache size is 0, then everything runs with graphql-js', async () => {
    const schema = buildSchema();
    const executor = createExecutor(schema, { cacheSize: 0, compileAfter: 0 });
    const result = await executor.execute({ schema, document: parse('{ books { id } }'), contextValue: context(seededStore()) });
    expect(result.data?.books).toBeDefined();
    expect(executor.stats.compiledRuns).toBe(0);
  });

  it('when queries are generated at random from the schema, then every compiled answer equals graphql-js', async () => {
    const { schema, executor, store } = setup();
    const pick = (fields: string[]) => fc.subarray(fields, { minLength: 1 });
    const comment = pick(['id', 'body', '__typename']).map((f) => `{ ${f.join(' ')} }`);
    const post = fc.tuple(pick(['id', 'title', 'body']), fc.option(comment, { nil: undefined })).map(([f, c]) => `{ ${f.join(' ')} ${c ? `comments ${c}` : ''} }`);
    const user = fc.tuple(pick(['id', 'name', 'email']), fc.option(post, { nil: undefined })).map(([f, p]) => `{ ${f.join(' ')} ${p ? `posts ${p}` : ''} }`);
    const id = fc.oneof(fc.integer({ min: -1, max: 9 }).map(String), fc.constantFrom('01', 'abc', '1e0', ''));
    const root = fc.oneof(
      user.map((s) => `users ${s}`),
      fc.tuple(id, user).map(([i, s]) => `user(id: ${JSON.stringify(i)}) ${s}`),
      pick(['id', 'title', 'pages']).map((f) => `books { ${f.join(' ')} }`),
      fc.tuple(id, pick(['id', 'title', 'pages'])).map(([i, f]) => `book(id: ${JSON.stringify(i)}) { ${f.join(' ')} }`),
      pick(['id', 'title', 'done']).map((f) => `todos { ${f.join(' ')} }`),
    );
    const query = fc.array(root, { minLength: 1, maxLength: 4 }).map((fields) => `{ ${fields.map((f, i) => `f${i}: ${f}`).join(' ')} }`);
    await fc.assert(
      fc.asyncProperty(query, async (text) => {
        const { reference, answer } = await both(executor, schema, store, parse(text));
        expect(answer).toBe(reference);
      }),
      { numRuns: 150 },
    );
    expect(executor.stats.compiledRuns).toBe(150);
    expect(executor.stats.fallbacks).toBe(0);
  });
});
