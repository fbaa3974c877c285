import type { Response } from 'supertest';
import { testConfig, type Config } from '../../src/config';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import type { SeedData, Store } from '../../src/store/types';
import { makeApp, type TestApp } from '../support/app';

export const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** The parts of a GraphQL response the tests read. */
export interface GqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; locations?: unknown[]; extensions?: Record<string, unknown> }[];
}

export type Gql = (query: string, variables?: Record<string, unknown>, accept?: string) => Promise<Response & { body: GqlBody }>;

/** POST /graphql with a JSON body; accepts application/graphql-response+json unless told otherwise. */
export function gqlClient(http: TestApp['http']): Gql {
  return (query, variables, accept = GRAPHQL_RESPONSE) =>
    http
      .post('/graphql')
      .set('Accept', accept)
      .send(variables === undefined ? { query } : { query, variables });
}

/** Config overrides for some GraphQL limits, the others at their defaults. */
export function limits(graphql: Partial<Config['graphql']>): { graphql: Config['graphql'] } {
  return { graphql: { ...testConfig().graphql, ...graphql } };
}

/** A fresh app (default seed unless told otherwise) plus a `gql` helper bound to it. */
export function makeGqlApp(options: Parameters<typeof makeApp>[0] = {}): TestApp & { gql: Gql } {
  const app = makeApp(options);
  return { ...app, gql: gqlClient(app.http) };
}

/**
 * Wraps every collection of a store so each call is recorded as `collection.method`: the storage
 * calls an operation costs, counted from outside.
 */
export function countingStore(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const wrap = <T extends object>(name: string, collection: T): T =>
    new Proxy(collection, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(`${name}.${String(prop)}`);
          return value.apply(target, args);
        };
      },
    });
  const counted = {
    ...store,
    books: wrap('books', store.books),
    todos: wrap('todos', store.todos),
    users: wrap('users', store.users),
    posts: wrap('posts', store.posts),
    comments: wrap('comments', store.comments),
  } satisfies Store;
  return { store: counted, calls };
}

/** The default seed with `extraUsers` more users, each with two posts of two comments. */
export function seedWithUsers(extraUsers: number): SeedData {
  const seed = loadSeed('default');
  let userId = Math.max(...seed.users.map((u) => u.id));
  let postId = Math.max(...seed.posts.map((p) => p.id));
  let commentId = Math.max(...seed.comments.map((c) => c.id));
  for (let u = 0; u < extraUsers; u += 1) {
    userId += 1;
    seed.users.push({ id: userId, name: `User ${userId}`, email: `user${userId}@example.com` });
    for (let p = 0; p < 2; p += 1) {
      postId += 1;
      seed.posts.push({ id: postId, userId, title: `Post ${postId}`, body: 'Text.' });
      for (let c = 0; c < 2; c += 1) {
        commentId += 1;
        seed.comments.push({ id: commentId, postId, body: `Comment ${commentId}` });
      }
    }
  }
  return seed;
}

export function seededStore(seed: SeedData = loadSeed('default')): Store {
  return createMemoryStore(seed);
}
