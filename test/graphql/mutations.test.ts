import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { loadOpenApi } from '../../src/spec';
import { makeStore, snapshot } from '../support/app';
import { gqlClient, makeGqlApp } from './support';

describe('Mutation.createUser', () => {
  it('when name and email are valid, then it returns the selected fields of the new user, visible to later queries', async () => {
    const { gql } = makeGqlApp();
    const res = await gql('mutation($n: String!, $e: String!) { createUser(name: $n, email: $e) { id name } }', { n: 'Edsger Dijkstra', e: 'edsger@example.org' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { createUser: { id: '4', name: 'Edsger Dijkstra' } } });
    const after = await gql('{ user(id: "4") { name email posts { id } } users { id } }');
    expect(after.body).toEqual({
      data: { user: { name: 'Edsger Dijkstra', email: 'edsger@example.org', posts: [] }, users: [{ id: '1' }, { id: '2' }, { id: '3' }, { id: '4' }] },
    });
  });

  it.each([
    ['a blank name', '   ', 'x@example.com', 'name', 'name must not be blank.'],
    ['an empty name', '', 'x@example.com', 'name', 'name must not be blank.'],
    ['a name over 1000 characters', 'n'.repeat(1001), 'x@example.com', 'name', 'name must be at most 1000 characters.'],
    ['an e-mail without @', 'Ann', 'ann.example.com', 'email', 'email must be a plausible e-mail address.'],
    ['an e-mail without a domain dot', 'Ann', 'ann@localhost', 'email', 'email must be a plausible e-mail address.'],
    ['an e-mail with a space', 'Ann', 'ann smith@example.com', 'email', 'email must be a plausible e-mail address.'],
    ['a blank e-mail', 'Ann', ' ', 'email', 'email must be a plausible e-mail address.'],
  ])('when given %s, then it answers BAD_USER_INPUT and stores nothing', async (_case, name, email, argumentName, message) => {
    const { gql, store } = makeGqlApp();
    const before = await snapshot(store);
    const res = await gql('mutation($n: String!, $e: String!) { createUser(name: $n, email: $e) { id } }', { n: name, e: email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: null,
      errors: [{ message, locations: [{ line: 1, column: 38 }], path: ['createUser'], extensions: { code: 'BAD_USER_INPUT', argumentName } }],
    });
    expect(await snapshot(store)).toEqual(before);
  });
});

describe('Mutation.addTodo', () => {
  it('when the title is valid, then it returns the selected fields of a new, not-done todo', async () => {
    const { gql } = makeGqlApp();
    const res = await gql('mutation { addTodo(title: "Water the plants") { id title done } }');
    expect(res.body).toEqual({ data: { addTodo: { id: '4', title: 'Water the plants', done: false } } });
  });

  it('when only some fields are selected, then only those come back', async () => {
    const { gql } = makeGqlApp();
    const res = await gql('mutation { addTodo(title: "Call mum") { done } }');
    expect(res.body).toEqual({ data: { addTodo: { done: false } } });
  });

  it('when the title is 1000 emoji (1000 characters, 2000 UTF-16 units), then it is accepted, as REST accepts it for text', async () => {
    const { gql, store } = makeGqlApp();
    const title = '😀'.repeat(1000);
    const res = await gql('mutation($t: String!) { addTodo(title: $t) { id } }', { t: title });
    expect(res.body).toEqual({ data: { addTodo: { id: '4' } } });
    expect((await store.todos.get(4))?.text).toBe(title);
  });

  it.each([['blank', ' \t '], ['empty', ''], ['too long', 't'.repeat(1001)]])('when the title is %s, then it answers BAD_USER_INPUT and stores nothing', async (_case, title) => {
    const { gql, store } = makeGqlApp();
    const before = await snapshot(store);
    const res = await gql('mutation($t: String!) { addTodo(title: $t) { id } }', { t: title });
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', argumentName: 'title' });
    expect(await snapshot(store)).toEqual(before);
  });
});

describe('text arguments follow openapi.yaml', () => {
  /** The app on a copy of openapi.yaml whose `Text` allows at most `maxLength` characters. */
  function appWithTextLimit(maxLength: number) {
    const openapi = loadOpenApi();
    (openapi.components.schemas.Text as { maxLength: number }).maxLength = maxLength;
    const store = makeStore();
    const http = request(createApp({ store, config: testConfig(), logger: createLogger('silent'), openapi }));
    return { http, store, gql: gqlClient(http) };
  }

  it('when the spec lowers Text.maxLength to 12, then addTodo and createUser refuse 13 characters with that limit, as POST /todos does, and store nothing', async () => {
    const { http, store, gql } = appWithTextLimit(12);
    const before = await snapshot(store);
    const long = 'x'.repeat(13);
    const todo = await gql('mutation($t: String!) { addTodo(title: $t) { id } }', { t: long });
    expect(todo.body.errors?.[0]).toMatchObject({ message: 'title must be at most 12 characters.', extensions: { code: 'BAD_USER_INPUT', argumentName: 'title' } });
    const user = await gql('mutation($n: String!) { createUser(name: $n, email: "a@example.org") { id } }', { n: long });
    expect(user.body.errors?.[0]).toMatchObject({ message: 'name must be at most 12 characters.', extensions: { code: 'BAD_USER_INPUT', argumentName: 'name' } });
    expect((await http.post('/todos').send({ text: long })).status).toBe(400);
    expect(await snapshot(store)).toEqual(before);
    // 12 characters pass on both.
    expect((await gql('mutation($t: String!) { addTodo(title: $t) { id } }', { t: 'x'.repeat(12) })).body.data).toEqual({ addTodo: { id: '4' } });
  });
});

describe('Changes only through mutation', () => {
  it('when a mutation field is sent in a query operation, then validation rejects it and nothing is stored', async () => {
    const { gql, store } = makeGqlApp();
    const before = await snapshot(store);
    const res = await gql('query { addTodo(title: "sneaky") { id } }');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: 'Cannot query field "addTodo" on type "Query".', locations: [{ line: 1, column: 9 }] }] });
    expect(await snapshot(store)).toEqual(before);
  });

  it('when a mutation is sent over GET, then it answers 405 with Allow: POST and nothing is stored', async () => {
    const { http, store } = makeGqlApp();
    const before = await snapshot(store);
    const res = await http.get('/graphql').query({ query: 'mutation { addTodo(title: "via GET") { id } }' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    // The service's JSON error object (405 everywhere is JSON), with graphql-http's message as `errors` too.
    expect(res.body).toEqual({ error: 'Cannot perform mutations over GET', errors: [{ message: 'Cannot perform mutations over GET' }] });
    expect(await snapshot(store)).toEqual(before);
  });
});
