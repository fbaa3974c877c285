import { setFlagsFromString } from 'node:v8';
import { createMemoryStore } from '../../src/store/memory';
import { validateSeed } from '../../src/store/seed';
import { readAll, type Store } from '../../src/store/types';

// V8's own answer to whether two objects share a hidden class, compiled once the flag allows its syntax.
setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** The records among `records` with the same fields as an earlier one but another hidden class, named by id. */
function otherShapes(records: readonly object[]): number[] {
  const first = new Map<string, object>();
  const others: number[] = [];
  for (const record of records) {
    const fields = Object.keys(record).join(',');
    const seen = first.get(fields);
    if (!seen) first.set(fields, record);
    else if (!haveSameMap(seen, record)) others.push((record as { id: number }).id);
  }
  return others;
}

/** Enough records of each kind for V8's caches to pass their first states (a handful can share a class by luck). */
function largeSeed() {
  const n = 200;
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  return validateSeed({
    books: ids.map((id) => ({ id, title: `Book ${id}`, pages: 100 + id })),
    todos: ids.map((id) => ({ id, text: `Todo ${id}`, done: id % 2 === 0 })),
    notes: [],
    items: [],
    tasks: [],
    users: ids.slice(0, 20).map((id) => ({ id, name: `User ${id}`, email: `user${id}@example.com` })),
    posts: ids.slice(0, 100).map((id) => ({ id, userId: 1 + (id % 20), title: `Post ${id}`, body: `Body ${id}` })),
    comments: ids.map((id) => ({ id, postId: 1 + (id % 100), body: `Comment ${id}` })),
  });
}

/** Every record of the seed's graph as the store hands them out: lists, one by id, and children by parent. */
async function readEverything(store: Store) {
  const books = await readAll(await store.books.list());
  const users = await readAll(await store.users.list());
  const posts = [...(await store.posts.listByParents(users.map((u) => u.id))).values()].flat();
  const comments = [...(await store.comments.listByParents(posts.map((p) => p.id))).values()].flat();
  const todos = await readAll(await store.todos.list());
  const one = await Promise.all([store.books.get(books[0].id), store.todos.get(todos[0].id)]);
  return { books: [...books, one[0]!], todos: [...todos, one[1]!], users, posts, comments };
}

// graphql-jit's compiled resolvers and JSON.stringify read every field of every record: with one hidden class per
// record (Node 20's object spread made one per copy), each of those reads is a megamorphic lookup.
describe('records of one collection with the same fields share one hidden class', () => {
  it.each(['first read, from the rows', 'read again, from the read cache'])('%s', async (when) => {
    const store = createMemoryStore(largeSeed());
    try {
      if (when.startsWith('read again')) await readEverything(store);
      const read = await readEverything(store);
      for (const [name, records] of Object.entries(read)) {
        expect(records.length).toBeGreaterThan(1);
        expect({ [name]: otherShapes(records) }).toEqual({ [name]: [] });
      }
    } finally {
      await store.close();
    }
  });
});
