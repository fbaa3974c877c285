import { LargeAnswers } from '../../src/graphql/large-answers';
import { createLoaders } from '../../src/graphql/loaders';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import type { PostRecord, Store } from '../../src/store/types';
import { countingStore } from './support';

/** A budget of one request's result, large enough for the default seed. */
const budget = () => new LargeAnswers({ maxItems: 20000, slots: 1, waitMs: 0 }).budget();

function store(): { store: Store; calls: string[] } {
  return countingStore(createMemoryStore(loadSeed('default')));
}

describe('GraphQL loaders (sibling groups)', () => {
  it('when the store answers synchronously, then the nested lists are plain arrays, not promises, one storage call per level', async () => {
    const { store: counted, calls } = store();
    const loaders = createLoaders(counted, budget());
    const users = loaders.users((await counted.users.list()).items);
    const posts = users.map((user) => loaders.postsOf(user));
    expect(posts.every(Array.isArray)).toBe(true);
    const comments = (posts as PostRecord[][]).flat().map((post) => loaders.commentsOf(post));
    expect(comments.every(Array.isArray)).toBe(true);
    expect(calls).toEqual(['users.list', 'posts.listByParents', 'comments.listByParents']);
    users.forEach((user, i) => expect((posts[i] as PostRecord[]).every((post) => post.userId === user.id)).toBe(true));
    expect((posts as PostRecord[][]).flat()).toHaveLength((await counted.posts.list()).total);
  });

  it('when the store answers with promises, then every member of a group waits for the same single call', async () => {
    const { store: counted, calls } = store();
    const real = counted.posts;
    const asyncPosts = Object.assign(Object.create(real), { listByParents: async (ids: readonly number[]) => real.listByParents(ids) });
    const loaders = createLoaders({ ...counted, posts: asyncPosts }, budget());
    const users = loaders.users((await counted.users.list()).items);
    const posts = await Promise.all(users.map((user) => loaders.postsOf(user)));
    expect(calls.filter((c) => c === 'posts.listByParents')).toHaveLength(1);
    users.forEach((user, i) => expect(posts[i].every((post) => post.userId === user.id)).toBe(true));
    expect(posts.flat()).toHaveLength((await counted.posts.list()).total);
  });

  it('when a parent was not returned in a list, then it is a group of one', async () => {
    const { store: counted, calls } = store();
    const loaders = createLoaders(counted, budget());
    const user = (await counted.users.get(1))!;
    expect((loaders.postsOf(user) as PostRecord[]).every((p) => p.userId === 1)).toBe(true);
    expect(loaders.postsOf(user)).toBe(loaders.postsOf(user));
    expect(calls.filter((c) => c === 'posts.listByParents')).toHaveLength(1);
  });

  it('when loading a group fails, then every member sees the error and the store is asked once', async () => {
    const { store: counted, calls } = store();
    const failing = Object.assign(Object.create(counted.posts), {
      listByParents: () => {
        calls.push('posts.listByParents');
        throw new Error('storage down');
      },
    });
    const loaders = createLoaders({ ...counted, posts: failing }, budget());
    const users = loaders.users((await counted.users.list()).items);
    for (const user of users) expect(() => loaders.postsOf(user)).toThrow('storage down');
    expect(calls.filter((c) => c === 'posts.listByParents')).toHaveLength(1);
  });

  it('when loading a group fails with a rejected promise, then every member sees the error and the store is asked once', async () => {
    const { store: counted, calls } = store();
    const failing = Object.assign(Object.create(counted.posts), {
      listByParents: async () => {
        calls.push('posts.listByParents');
        throw new Error('storage down');
      },
    });
    const loaders = createLoaders({ ...counted, posts: failing }, budget());
    const users = loaders.users((await counted.users.list()).items);
    const results = await Promise.allSettled(users.map((user) => loaders.postsOf(user)));
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'fulfilled'))).toEqual(users.map(() => 'storage down'));
    await expect((async () => loaders.postsOf(users[0]))()).rejects.toThrow('storage down');
    expect(calls.filter((c) => c === 'posts.listByParents')).toHaveLength(1);
  });

  it('when a parent outside the declared group is looked up first, then it loads alone and the group still loads in one call', async () => {
    const { store: counted, calls } = store();
    const loaders = createLoaders(counted, budget());
    const [first, ...rest] = (await counted.users.list()).items;
    loaders.users(rest);
    const alone = loaders.postsOf(first) as PostRecord[];
    const grouped = rest.map((user) => loaders.postsOf(user) as PostRecord[]);
    expect(alone.every((p) => p.userId === first.id)).toBe(true);
    rest.forEach((user, i) => expect(grouped[i].every((p) => p.userId === user.id)).toBe(true));
    expect(calls.filter((c) => c === 'posts.listByParents')).toHaveLength(2);
    expect(loaders.postsOf(first)).toBe(alone);
  });

  it('when a parent outside a group on its way is looked up, then it does not wait for that group\'s answer to be asked for', async () => {
    const { store: counted } = store();
    const real = counted.posts;
    const asked: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const asyncPosts = Object.assign(Object.create(real), {
      listByParents: async (ids: readonly number[]) => {
        asked.push([...ids]);
        if (asked.length === 1) await held;
        return real.listByParents(ids);
      },
    });
    const loaders = createLoaders({ ...counted, posts: asyncPosts }, budget());
    const [first, ...rest] = (await counted.users.list()).items;
    loaders.users(rest);
    const grouped = Promise.all(rest.map((user) => loaders.postsOf(user)));
    const alone = await loaders.postsOf(first);
    expect(alone.every((p) => p.userId === first.id)).toBe(true);
    expect(asked).toEqual([rest.map((u) => u.id), [first.id]]);
    release();
    (await grouped).forEach((posts, i) => expect(posts.every((p) => p.userId === rest[i].id)).toBe(true));
  });

  it('when the same parents are declared twice (a list under two aliases), then their group is one call that asks for each once', async () => {
    const { store: counted } = store();
    const real = counted.posts;
    const asked: number[][] = [];
    const recording = Object.assign(Object.create(real), {
      listByParents: (ids: readonly number[]) => {
        asked.push([...ids]);
        return real.listByParents(ids);
      },
    });
    const loaders = createLoaders({ ...counted, posts: recording }, budget());
    const users = (await counted.users.list()).items;
    loaders.users(users);
    loaders.users(users);
    for (const user of users) expect((loaders.postsOf(user) as PostRecord[]).every((p) => p.userId === user.id)).toBe(true);
    expect(asked).toEqual([users.map((u) => u.id)]);
  });
});
