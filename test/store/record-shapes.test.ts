import { setFlagsFromString } from 'node:v8';
import { createMemoryStore } from '../../src/store/memory';
import { validateSeed } from '../../src/store/seed';
import { readAll, type Store } from '../../src/store/types';

// V8's own answers (whether two objects share a hidden class; whether an object's properties are fast, not a
// dictionary), compiled once the flag allows their syntax.
setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const hasFastProperties = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;

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
    notes: ids.map((id) => ({ id, body: `Note ${id}` })),
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
  // Notes show an alias of their body (openapi.yaml's `x-alias-of`): their records are shaped from the row.
  const notes = await readAll(await store.notes.list());
  const one = await Promise.all([store.books.get(books[0].id), store.todos.get(todos[0].id), store.notes.get(notes[0].id)]);
  return { books: [...books, one[0]!], todos: [...todos, one[1]!], notes: [...notes, one[2]!], users, posts, comments };
}

// graphql-jit's compiled code and JSON.stringify read every field of every record: with a class of its own per record
// (what a spread copy gets on Node 20) or a dictionary, each of those reads is a slow lookup (src/store/model.ts, `settled`).
describe('the records a store hands out', () => {
  it.each(['first read, from the rows', 'read again, from the read cache'])('when records are %s, then those of one collection with the same fields share one hidden class, with fast properties', async (when) => {
    const store = createMemoryStore(largeSeed());
    try {
      if (when.startsWith('read again')) await readEverything(store);
      const read = await readEverything(store);
      for (const [name, records] of Object.entries(read)) {
        expect(records.length).toBeGreaterThan(1);
        expect({ [name]: otherShapes(records) }).toEqual({ [name]: [] });
        expect({ [name]: records.filter((record) => !hasFastProperties(record)).map((record) => record.id) }).toEqual({ [name]: [] });
      }
    } finally {
      await store.close();
    }
  });
});
