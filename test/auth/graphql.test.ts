import { buildSchema, getNamedType, isNonNullType, isObjectType, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { loadGraphqlSdl } from '../../src/spec';
import { snapshot } from '../support/app';
import { makeGqlApp } from '../graphql/support';
import { hs256, token, unsecured } from './support';

const schema = buildSchema(loadGraphqlSdl());

interface ScopedField {
  root: 'query' | 'mutation';
  name: string;
  scope: string;
  /** A document selecting the field, with arguments of its types. */
  document: string;
}

/** A literal of an argument's type: ids 1, an address for `email`, a word for other strings. */
function literal(name: string, type: string): string {
  if (type === 'ID') return '"1"';
  if (name === 'email') return '"reader@example.com"';
  return '"A title"';
}

/** Every root field schema.graphql gives @requiresScopes, and a document that selects it (its required arguments given). */
function scopedFields(): ScopedField[] {
  const out: ScopedField[] = [];
  for (const [root, type] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]] as [ScopedField['root'], GraphQLObjectType][]) {
    for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
      const directive = field.astNode?.directives?.find((d) => d.name.value === 'requiresScopes');
      if (!directive) continue;
      const value = directive.arguments![0].value;
      const scope = value.kind === 'ListValue' && value.values[0].kind === 'StringValue' ? value.values[0].value : '';
      const args = field.args.filter((a) => isNonNullType(a.type)).map((a) => `${a.name}: ${literal(a.name, getNamedType(a.type).name)}`).join(', ');
      const selection = field.name.endsWith('Connection') ? ' { edges { node { id } } }' : isObjectType(getNamedType(field.type)) ? ' { id }' : '';
      out.push({ root, name: field.name, scope, document: `${root} { ${field.name}${args ? `(${args})` : ''}${selection} }` });
    }
  }
  return out;
}

const fields = scopedFields();
const mutations = fields.filter((f) => f.root === 'mutation');
const queries = fields.filter((f) => f.root === 'query');

describe('GraphQL with auth on', () => {
  it('schema.graphql declares the scopes the issue names', () => {
    expect(Object.fromEntries(fields.map((f) => [f.name, f.scope]))).toEqual({
      user: 'users:read',
      users: 'users:read',
      usersConnection: 'users:read',
      book: 'books:read',
      books: 'books:read',
      booksConnection: 'books:read',
      todos: 'todos:read',
      todosConnection: 'todos:read',
      createUser: 'users:write',
      addTodo: 'todos:write',
    });
  });

  it.each(mutations.map((f) => [f.name, f] as const))('%s: no token is a 401 UNAUTHENTICATED, a bad one too, and nothing is stored', async (_name, f) => {
    const { http, store } = makeGqlApp({ config: { auth: hs256() } });
    const before = await snapshot(store);
    const none = await http.post('/graphql').send({ query: f.document }).expect(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.body).toEqual({ errors: [{ message: expect.stringMatching(/^Unauthorized/), extensions: { code: 'UNAUTHENTICATED' } }] });
    for (const bad of ['Bearer not.a.jwt', `Bearer ${unsecured(f.scope)}`, `Bearer ${await token(f.scope, {}, { secret: 'another-secret-that-is-at-least-32-bytes' })}`, `Bearer ${await token(f.scope, {}, { expires: Math.floor(Date.now() / 1000) - 120 })}`]) {
      const res = await http.post('/graphql').set('Authorization', bad).send({ query: f.document }).expect(401);
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    expect(await snapshot(store)).toEqual(before);
  });

  it.each(mutations.map((f) => [f.name, f] as const))('%s: a token without the scope is a 403 FORBIDDEN, and nothing is stored; with it, it runs', async (_name, f) => {
    const { http, store } = makeGqlApp({ config: { auth: hs256() } });
    const before = await snapshot(store);
    const res = await http.post('/graphql').set('Authorization', `Bearer ${await token('books:write')}`).send({ query: f.document }).expect(403);
    expect(res.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${f.scope}"`);
    expect(res.body).toEqual({ errors: [{ message: expect.stringMatching(/^Forbidden/), extensions: { code: 'FORBIDDEN' } }] });
    expect(await snapshot(store)).toEqual(before);
    const ok = await http.post('/graphql').set('Authorization', `Bearer ${await token(f.scope)}`).send({ query: f.document }).expect(200);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data[f.name]).toBeTruthy();
  });

  it('a mutation hidden behind an alias, an inline fragment or a named fragment is refused all the same', async () => {
    const { http, store } = makeGqlApp({ config: { auth: hs256() } });
    const before = await snapshot(store);
    const documents = [
      'mutation { sneaky: addTodo(title: "x") { id } }',
      'mutation { ... on Mutation { addTodo(title: "x") { id } } }',
      'mutation { ...M } fragment M on Mutation { addTodo(title: "x") { id } }',
      'mutation { ...A } fragment A on Mutation { ...B } fragment B on Mutation { createUser(name: "x", email: "x@example.com") { id } }',
    ];
    for (const query of documents) {
      const res = await http.post('/graphql').set('Authorization', `Bearer ${await token('books:write')}`).send({ query }).expect(403);
      expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
    expect(await snapshot(store)).toEqual(before);
  });

  it('an operation needs every scope its fields name: one missing is a 403 naming it', async () => {
    const { http } = makeGqlApp({ config: { auth: hs256() } });
    const query = 'mutation { addTodo(title: "x") { id } createUser(name: "x", email: "x@example.com") { id } }';
    const res = await http.post('/graphql').set('Authorization', `Bearer ${await token('todos:write')}`).send({ query }).expect(403);
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="users:write"');
    await http.post('/graphql').set('Authorization', `Bearer ${await token('todos:write users:write')}`).send({ query }).expect(200);
  });

  it.each(queries.map((f) => [f.name, f] as const))('%s: open with AUTH_READS=public; needs its scope with AUTH_READS=token', async (_name, f) => {
    const open = makeGqlApp({ config: { auth: hs256() } });
    expect((await open.http.post('/graphql').send({ query: f.document }).expect(200)).body.errors).toBeUndefined();
    const closed = makeGqlApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    expect((await closed.http.post('/graphql').send({ query: f.document }).expect(401)).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await closed.http.get('/graphql').query({ query: f.document }).expect(401)).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const forbidden = await closed.http.post('/graphql').set('Authorization', `Bearer ${await token('metrics:read')}`).send({ query: f.document }).expect(403);
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    await closed.http.post('/graphql').set('Authorization', `Bearer ${await token(f.scope)}`).send({ query: f.document }).expect(200);
  });

  it('an Idempotency-Key on a mutation belongs to the principal that sent it', async () => {
    const { http } = makeGqlApp({ config: { auth: hs256() } });
    const query = 'mutation { addTodo(title: "Shared") { id } }';
    const send = async (sub: string) => http.post('/graphql').set('Authorization', `Bearer ${await token('todos:write', { sub })}`).set('Idempotency-Key', 'gql-shared').send({ query }).expect(200);
    const first = await send('alice');
    const again = await send('alice');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await send('bob');
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.data.addTodo.id).not.toBe(first.body.data.addTodo.id);
  });
});

describe('GraphQL with auth off', () => {
  it('every field runs without a token', async () => {
    const { http } = makeGqlApp();
    for (const f of fields) expect((await http.post('/graphql').send({ query: f.document }).expect(200)).body.errors).toBeUndefined();
  });
});
