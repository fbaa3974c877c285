import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { hs256, token } from '../auth/support';
import { makeApp } from '../support/app';
import { countingStore, limits, makeGqlApp, type Gql } from './support';

/** docs/contract.md §7 and §12: lists as clients query them, over GraphQL. */

const idsOf = (list: unknown) => (list as { id: string }[]).map((r) => r.id);

describe('Query.books(where, orderBy, limit, offset)', () => {
  it('when where gives conditions on two fields, then only the books meeting both answer, in id order', async () => {
    const { gql } = makeGqlApp();
    const res = await gql('{ books(where: { pages: { gte: 300, lt: 400 }, title: { ne: "Beloved" } }) { id } }');
    expect(res.body).toEqual({ data: { books: [{ id: '1' }, { id: '3' }] } });
  });

  it('when contains, startsWith and in are given, then they mean what they mean over REST', async () => {
    const { gql, http } = makeGqlApp();
    const res = await gql('{ a: books(where: { title: { contains: "DARK" } }) { id } b: books(where: { title: { startsWith: "the " } }) { id } c: books(where: { pages: { in: [271, 324] } }) { id } }');
    expect([idsOf(res.body.data!.a), idsOf(res.body.data!.b), idsOf(res.body.data!.c)]).toEqual([['3'], ['1', '3'], ['4', '5']]);
    const rest = await http.get('/books?title[startsWith]=the%20').expect(200);
    expect(rest.body.map((b: { id: number }) => String(b.id))).toEqual(idsOf(res.body.data!.b));
  });

  it('when orderBy lists two keys and limit and offset are given, then the page follows the order, as REST sort does', async () => {
    const { gql, http } = makeGqlApp();
    const res = await gql('{ books(orderBy: [{ pages: DESC }, { title: ASC }], limit: 2, offset: 1) { id pages } }');
    expect(res.body).toEqual({ data: { books: [{ id: '5', pages: 324 }, { id: '1', pages: 310 }] } });
    const rest = await http.get('/books?sort=-pages,title&limit=2&offset=1').expect(200);
    expect(rest.body.map((b: { id: number }) => String(b.id))).toEqual(['5', '1']);
  });

  it('when nothing meets where, then the list is empty', async () => {
    const { gql } = makeGqlApp();
    expect((await gql('{ books(where: { pages: { gt: 100000 } }) { id } }')).body).toEqual({ data: { books: [] } });
  });
});

describe('Query.todos and Query.users with where and orderBy', () => {
  it('when todos are filtered and sorted by title, then the stored text is what is compared (Todo.title is REST text)', async () => {
    const { gql } = makeGqlApp();
    const res = await gql('{ todos(where: { title: { contains: "THE" }, done: { eq: false } }, orderBy: [{ title: DESC }]) { id title } }');
    expect(res.body).toEqual({ data: { todos: [{ id: '3', title: 'Book the dentist' }] } });
    const sorted = await gql('{ todos(orderBy: [{ done: DESC }, { title: ASC }]) { id } }');
    expect(idsOf(sorted.body.data!.todos)).toEqual(['2', '3', '1']);
  });

  it('when users are filtered, then their posts still load with their siblings\', in one storage call per level', async () => {
    const { store, calls } = countingStore(createMemoryStore(loadSeed('default')));
    const { http } = makeApp({ store });
    const res = await http.post('/graphql').send({ query: '{ users(where: { name: { startsWith: "a" } }, orderBy: [{ name: DESC }]) { name posts { title comments { body } } } }' }).expect(200);
    expect(res.body.data.users.map((u: { name: string }) => u.name)).toEqual(['Alan Turing', 'Ada Lovelace']);
    expect(res.body.data.users[1].posts).toHaveLength(2);
    expect(calls).toEqual(['users.list', 'posts.listByParents', 'comments.listByParents']);
  });
});

describe('Query.booksConnection (Relay cursor connection)', () => {
  /** Every page of a connection, following endCursor while hasNextPage. */
  async function walk(gql: Gql, args: string, first: number): Promise<string[]> {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i += 1) {
      const res = await gql(`query ($after: String) { booksConnection(${args} first: ${first}, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`, { after });
      const page = res.body.data!.booksConnection as { edges: { cursor: string; node: { id: string } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null } };
      seen.push(...page.edges.map((e) => e.node.id));
      expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
      expect(page.pageInfo.hasPreviousPage).toBe(false);
      if (!page.pageInfo.hasNextPage) return seen;
      after = page.pageInfo.endCursor;
    }
    throw new Error('no last page');
  }

  it('when the pages of a filtered, ordered connection are followed, then every book is seen once, in order', async () => {
    const { gql } = makeGqlApp();
    expect(await walk(gql, 'where: { pages: { gte: 280 } }, orderBy: [{ pages: DESC }],', 2)).toEqual(['2', '5', '1', '3']);
    expect(await walk(gql, '', 3)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('when first is left out, then one page holds every book and has no next', async () => {
    const { gql } = makeGqlApp();
    const res = await gql('{ booksConnection { edges { node { id } } pageInfo { hasNextPage } } }');
    expect(res.body.data!.booksConnection).toEqual({ edges: ['1', '2', '3', '4', '5'].map((id) => ({ node: { id } })), pageInfo: { hasNextPage: false } });
  });

  it('when the rest of a list after a cursor (no first) holds more than GRAPHQL_MAX_RESULT_ITEMS, then the answer is RESULT_TOO_LARGE', async () => {
    const { gql } = makeGqlApp({ config: limits({ maxResultItems: 3 }) });
    const first = await gql('{ booksConnection(first: 1) { pageInfo { endCursor } } }');
    const after = (first.body.data!.booksConnection as { pageInfo: { endCursor: string } }).pageInfo.endCursor;
    const rest = await gql('query ($after: String) { booksConnection(after: $after) { edges { node { id } } } }', { after });
    expect(rest.body.errors?.[0].extensions?.code).toBe('RESULT_TOO_LARGE');
    const two = await gql('query ($after: String) { booksConnection(first: 2, after: $after) { edges { node { id } } } }', { after });
    expect(two.body).toEqual({ data: { booksConnection: { edges: [{ node: { id: '2' } }, { node: { id: '3' } }] } } });
  });

  it('when a cursor of another list or order is given, then it is a BAD_USER_INPUT naming after, and no book is answered', async () => {
    const { gql } = makeGqlApp();
    const todos = await gql('{ todosConnection(first: 1) { pageInfo { endCursor } } }');
    const foreign = (todos.body.data!.todosConnection as { pageInfo: { endCursor: string } }).pageInfo.endCursor;
    const res = await gql('query ($after: String) { booksConnection(first: 1, after: $after) { edges { node { id } } } }', { after: foreign });
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['booksConnection'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'after' } })]);
  });
});

describe('bad list arguments are refused before anything runs', () => {
  it.each([
    ['an undeclared field', '{ books(where: { isbn: { eq: "x" } }) { id } }'],
    ['an operator the field does not take', '{ books(where: { pages: { contains: "3" } }) { id } }'],
    ['a value of the wrong type', '{ books(where: { pages: { gte: "many" } }) { id } }'],
    ['a sort key that is not sortable', '{ books(orderBy: [{ id: ASC }]) { id } }'],
    ['two fields in one orderBy element', '{ books(orderBy: [{ pages: DESC, title: ASC }]) { id } }'],
    ['a cursor the service did not make', '{ booksConnection(first: 1, after: "bm90IGEgY3Vyc29y.abc") { edges { node { id } } } }'],
  ])('when %s is given, then the request is a validation error (400) and no storage is called', async (_, query) => {
    const { store, calls } = countingStore(createMemoryStore(loadSeed('default')));
    const { gql } = makeGqlApp({ store });
    const res = await gql(query);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.length).toBeGreaterThan(0);
    expect(calls).toEqual([]);
  });

  it('when a variable (declared String, as Relay clients declare it) holds a changed cursor, then the request fails before it runs, naming the variable', async () => {
    const { store, calls } = countingStore(createMemoryStore(loadSeed('default')));
    const { gql } = makeGqlApp({ store });
    const first = await gql('{ booksConnection(first: 1) { pageInfo { endCursor } } }');
    const cursor = (first.body.data!.booksConnection as { pageInfo: { endCursor: string } }).pageInfo.endCursor;
    calls.length = 0;
    const res = await gql('query ($after: String) { books { id } booksConnection(first: 1, after: $after) { edges { node { id } } } }', { after: `x${cursor.slice(1)}` });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Variable "\$after": not a cursor this service made/), extensions: { code: 'BAD_USER_INPUT' } })]);
    expect(calls).toEqual([]);
  });

  it('when limit or first is out of 1..1000, or an in list is over QUERY_MAX_IN_VALUES, then it is a BAD_USER_INPUT naming the argument, and nothing is read', async () => {
    const { store, calls } = countingStore(createMemoryStore(loadSeed('default'), undefined, { inValues: 2, filters: 10 }));
    const { gql } = makeGqlApp({ store });
    const limit = await gql('{ books(limit: 5000) { id } }');
    expect(limit.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'limit' } })]);
    const first = await gql('{ booksConnection(first: 0) { edges { cursor } } }');
    expect(first.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'first' } })]);
    expect(calls).toEqual([]);
    const values = await gql('{ books(where: { pages: { in: [1, 2, 3] } }) { id } }');
    expect(values.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/QUERY_MAX_IN_VALUES/), extensions: { code: 'BAD_USER_INPUT', argumentName: 'where' } })]);
  });
});

describe('a list under its read scope (AUTH_READS=token)', () => {
  it('when a filtered list or connection is asked without books:read, then it is refused; with it, it answers', async () => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    const query = '{ booksConnection(where: { pages: { gte: 400 } }, first: 1) { edges { node { id } } } }';
    await http.post('/graphql').send({ query }).expect(401);
    const other = await http.post('/graphql').set('Authorization', `Bearer ${await token('todos:read')}`).send({ query });
    expect(other.status).toBe(403);
    const ok = await http.post('/graphql').set('Authorization', `Bearer ${await token('books:read')}`).send({ query }).expect(200);
    expect(ok.body).toEqual({ data: { booksConnection: { edges: [{ node: { id: '2' } }] } } });
  });
});
