import request from 'supertest';
import { buildSchema, getNamedType, isObjectType, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { loadGraphqlSdl } from '../../src/spec';
import { makeGqlApp } from '../graphql/support';
import { makeApp, snapshot } from '../support/app';
import { hs256, scopedOperations, token, type SpecOperation } from './support';

/**
 * docs/contract.md §15.4: where reads need a token (AUTH_READS=token), an answer that carries stored data needs
 * the read scope too. A write whose answer is a record (a create's 201, an update's 200) is refused to a token
 * that may only write, REST and GraphQL alike (a mutation's selection is a read), before anything is stored.
 */

const operations = scopedOperations();
/** The writes whose success answer carries a body: found from openapi.yaml's responses, not from their scopes. */
const recordWrites = operations.filter((op) => op.method !== 'GET' && op.answersRecord);
const bodilessWrites = operations.filter((op) => op.method !== 'GET' && !op.answersRecord);
const collection = (op: SpecOperation) => op.scope.split(':')[0];

function call(http: ReturnType<typeof request>, op: SpecOperation, authorization: string) {
  let req = http[op.method.toLowerCase() as 'get'](op.path).set('Authorization', authorization);
  if (op.body !== undefined) req = req.set('Content-Type', op.contentType!).send(JSON.stringify(op.body));
  return req;
}

describe('REST: writes that answer a stored record, with AUTH_READS=token', () => {
  it('the spec has such writes in every collection, the issue\'s PUT /tasks/{id} and PUT /books/{id} among them', () => {
    expect(recordWrites.map((op) => op.operationId)).toEqual(expect.arrayContaining(['createBook', 'updateBook', 'createTodo', 'updateNote', 'createItem', 'createTask', 'updateTask', 'patchBook', 'patchNote', 'patchTask']));
  });

  it.each(recordWrites.map((op) => [op.operationId, op] as const))('%s: a token that may only write is a 403 naming the read scope, and nothing is stored', async (_id, op) => {
    const { http, store } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    const before = await snapshot(store);
    const res = await call(http, op, `Bearer ${await token(op.scope)}`).expect(403);
    expect(res.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${collection(op)}:read"`);
    const message = op.errorFormat === 'text' ? res.text : res.body.error;
    expect(message).toBe(`Forbidden: the token lacks the scope ${collection(op)}:read`);
    expect(res.text).not.toMatch(/"id"|"title"|"text"|"body"|"name"/);
    expect(await snapshot(store)).toEqual(before);
  });

  it.each(recordWrites.map((op) => [op.operationId, op] as const))('%s: a token that may write and read gets the record', async (_id, op) => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    const res = await call(http, op, `Bearer ${await token(`${op.scope} ${collection(op)}:read`)}`);
    expect([200, 201]).toContain(res.status);
    expect(op.errorFormat === 'text' ? JSON.parse(res.text) : res.body).toMatchObject({ id: expect.any(Number) });
  });

  it.each(recordWrites.map((op) => [op.operationId, op] as const))('%s: with AUTH_READS=public (reads open to anyone) the write scope alone is enough', async (_id, op) => {
    const { http } = makeApp({ config: { auth: hs256() } });
    expect([200, 201]).toContain((await call(http, op, `Bearer ${await token(op.scope)}`)).status);
  });

  it.each(bodilessWrites.map((op) => [op.operationId, op] as const))('%s: answers no record (204), so the write scope alone is enough', async (_id, op) => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    await call(http, op, `Bearer ${await token(op.scope)}`).expect(204);
  });

  it('when a token has neither scope, then the 403 names both, as RFC 6750 lists scopes', async () => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    const res = await http.post('/books').set('Authorization', `Bearer ${await token('todos:write')}`).send({ title: 'x' }).expect(403);
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="books:write books:read"');
    expect(res.body).toEqual({ error: 'Forbidden: the token lacks the scopes books:write books:read' });
  });

  it('when the issue\'s loop runs (PUT /tasks/{id} with {} for each id), then no task is read', async () => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    const writer = `Bearer ${await token('tasks:write')}`;
    for (const id of [1, 2, 3]) {
      const res = await http.put(`/tasks/${id}`).set('Authorization', writer).send({}).expect(403);
      expect(res.body).toEqual({ error: 'Forbidden: the token lacks the scope tasks:read' });
    }
  });
});

const schema = buildSchema(loadGraphqlSdl());

/** A literal of an argument's type: an address for `email`, a word for other strings. */
const literal = (name: string) => (name === 'email' ? '"writer@example.com"' : '"A title"');

/** The scopes `@requiresScopes` gives a field or a type in schema.graphql. */
function declared(node: { astNode?: { directives?: readonly { name: { value: string }; arguments?: readonly { value: unknown }[] }[] } | null }): string[] {
  const directive = node.astNode?.directives?.find((d) => d.name.value === 'requiresScopes');
  const value = directive?.arguments?.[0]?.value as { kind: string; values: { value: string }[] } | undefined;
  return value?.kind === 'ListValue' ? value.values.map((v) => v.value) : [];
}

const mutations = Object.values((schema.getMutationType() as GraphQLObjectType).getFields()) as GraphQLField<unknown, unknown>[];

describe('GraphQL: a mutation\'s selection is a read, with AUTH_READS=token', () => {
  it('every type that holds a stored record (it has an id) declares the scope that reads it', () => {
    const records = Object.values(schema.getTypeMap()).filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__') && 'id' in type.getFields());
    expect(records.map((type) => type.name)).toEqual(expect.arrayContaining(['Book', 'Todo', 'User', 'Post', 'Comment']));
    for (const type of records) expect({ type: type.name, scopes: declared(type).filter((scope) => scope.endsWith(':read')) }).toEqual({ type: type.name, scopes: [expect.any(String)] });
  });

  it.each(mutations.map((field) => [field.name, field] as const))('%s: a token that may only write is a 403 naming the read scope, whatever it selects, and nothing is stored', async (_name, field) => {
    const write = declared(field)[0];
    const read = declared(getNamedType(field.type) as GraphQLObjectType)[0];
    expect({ write, read }).toEqual({ write: expect.stringMatching(/:write$/), read: expect.stringMatching(/:read$/) });
    const { http, store } = makeGqlApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    const before = await snapshot(store);
    const args = field.args.map((a) => `${a.name}: ${literal(a.name)}`).join(', ');
    for (const selection of ['{ id }', '{ __typename }', '{ ... on ' + getNamedType(field.type).name + ' { id } }']) {
      const query = `mutation { ${field.name}(${args}) ${selection} }`;
      const res = await http.post('/graphql').set('Authorization', `Bearer ${await token(write)}`).send({ query }).expect(403);
      expect(res.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${read}"`);
      expect(res.body).toEqual({ errors: [{ message: `Forbidden: the token lacks the scope ${read}`, extensions: { code: 'FORBIDDEN' } }] });
    }
    expect(await snapshot(store)).toEqual(before);
    const ok = await http.post('/graphql').set('Authorization', `Bearer ${await token(`${write} ${read}`)}`).send({ query: `mutation { ${field.name}(${args}) { id } }` }).expect(200);
    expect(ok.body.data[field.name]).toEqual({ id: expect.any(String) });
  });

  it.each(mutations.map((field) => [field.name, field] as const))('%s: with AUTH_READS=public the write scope alone is enough', async (_name, field) => {
    const { http } = makeGqlApp({ config: { auth: hs256() } });
    const args = field.args.map((a) => `${a.name}: ${literal(a.name)}`).join(', ');
    const res = await http.post('/graphql').set('Authorization', `Bearer ${await token(declared(field)[0])}`).send({ query: `mutation { ${field.name}(${args}) { id } }` }).expect(200);
    expect(res.body.errors).toBeUndefined();
  });

  it('a record reached through a nested field needs its type\'s scope: users:read covers a user\'s posts and comments', async () => {
    const { http } = makeGqlApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    const query = '{ books { id } users { posts { comments { body } } } }';
    const res = await http.post('/graphql').set('Authorization', `Bearer ${await token('books:read')}`).send({ query }).expect(403);
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="users:read"');
    await http.post('/graphql').set('Authorization', `Bearer ${await token('books:read users:read')}`).send({ query }).expect(200);
  });
});
