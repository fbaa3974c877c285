import { countingStore, makeGqlApp, seededStore, seedWithUsers } from './support';

const NESTED = '{ users { posts { comments { body } } } }';

async function callsFor(extraUsers: number): Promise<{ calls: string[]; users: number }> {
  const { store, calls } = countingStore(seededStore(seedWithUsers(extraUsers)));
  const { gql } = makeGqlApp({ store });
  const res = await gql(NESTED);
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return { calls, users: (res.body.data?.users as unknown[]).length };
}

describe('GraphQL batching of nested lists', () => {
  it('when users, their posts and the posts\' comments are selected, then each level costs one storage call', async () => {
    const { calls, users } = await callsFor(0);
    expect(users).toBe(3);
    expect(calls).toEqual(['users.list', 'posts.listByParents', 'comments.listByParents']);
  });

  it('when there are ten times more users, then the number of storage calls stays the same', async () => {
    const few = await callsFor(2);
    const many = await callsFor(50);
    expect(many.users).toBe(53);
    expect(many.calls).toEqual(few.calls);
  });

  it('when the users are selected twice under aliases, then their posts and comments still cost one call per level', async () => {
    const { store, calls } = countingStore(seededStore(seedWithUsers(2)));
    const { gql } = makeGqlApp({ store });
    const res = await gql('{ a: users { id posts { id comments { id } } } b: users { id posts { id comments { id } } } }');
    expect(res.body.errors).toBeUndefined();
    expect(calls.filter((c) => c !== 'users.list')).toEqual(['posts.listByParents', 'comments.listByParents']);
    const { a, b } = res.body.data as Record<string, { posts: unknown[] }[]>;
    expect(b).toEqual(a);
    expect(a.flatMap((u) => u.posts)).toHaveLength((await store.posts.list()).total);
  });

  it('when each user is resolved, then each sees only their own posts', async () => {
    const { gql } = makeGqlApp({ store: seededStore(seedWithUsers(2)) });
    const res = await gql('{ users { id posts { id comments { id } } } }');
    const users = res.body.data?.users as { id: string; posts: { id: string; comments: { id: string }[] }[] }[];
    expect(users[3]).toEqual({ id: '4', posts: [{ id: '5', comments: [{ id: '6' }, { id: '7' }] }, { id: '6', comments: [{ id: '8' }, { id: '9' }] }] });
    expect(users[0].posts.map((p) => p.id)).toEqual(['1', '2']);
  });

  it('when two requests run, then each has its own loaders (a change between them is seen)', async () => {
    const { store, calls } = countingStore(seededStore());
    const { gql } = makeGqlApp({ store });
    await gql('{ user(id: "3") { posts { id } } }');
    await store.posts.create({ userId: 3, title: 'New', body: 'Post' });
    const res = await gql('{ user(id: "3") { posts { title } } }');
    expect(res.body.data).toEqual({ user: { posts: [{ title: 'Finding the first bug' }, { title: 'New' }] } });
    expect(calls.filter((c) => c === 'posts.listByParents')).toHaveLength(2);
  });
});
