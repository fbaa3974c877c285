import { loadOpenApi } from '../../src/spec';
import { specModel } from '../../src/store/model';
import { LIST_BATCH, readAll, STALE, type BookRecord, type Collection, type ItemRecord, type ListResult, type SeedData, type Store } from '../../src/store/types';
import { makeApp } from '../support/app';

/** A small seed with gaps in its ids, so "largest + 1" differs from "count + 1". */
export function contractSeed(): SeedData {
  return {
    books: [
      // Fields out of the spec's order, as a seed file may write them: answers still show the spec's order.
      { pages: 412, title: 'Dune', id: 2 },
      { id: 5, title: 'Emma', pages: 474 },
      { id: 3, title: 'Beloved', pages: 324 },
    ],
    todos: [{ id: 1, text: 'Buy milk', done: false }],
    notes: [{ id: 4, body: 'Call the plumber', text: 'Call the plumber' }],
    items: [{ id: 1, name: 'Hammer' }],
    tasks: [{ done: true, title: 'Write tests', id: 7 }],
    users: [
      { id: 1, name: 'Ada', email: 'ada@example.com' },
      { id: 2, name: 'Alan', email: 'alan@example.com' },
      { id: 3, name: 'Grace', email: 'grace@example.com' },
    ],
    posts: [
      { id: 1, userId: 2, title: 'On computable numbers', body: 'Text' },
      { id: 2, userId: 1, title: 'Notes on the engine', body: 'Text' },
      { id: 3, userId: 2, title: 'Computing machinery', body: 'Text' },
      { id: 4, userId: 3, title: 'Compilers', body: 'Text' },
    ],
    comments: [
      { id: 1, postId: 3, body: 'Great' },
      { id: 2, postId: 1, body: 'Classic' },
      { id: 3, postId: 3, body: 'Agreed' },
    ],
  };
}

/** One record to create in each collection (every field set), for the round-trip tests. */
const SAMPLES = {
  books: { title: 'Kindred', pages: 264 },
  todos: { text: 'Water the plants', done: true },
  notes: { body: 'Pick up the keys' },
  items: { name: 'Screwdriver' },
  tasks: { title: 'Review the PR', done: false },
  users: { name: 'Barbara', email: 'barbara@example.com' },
  posts: { userId: 3, title: 'Abstraction', body: 'Text' },
  comments: { postId: 4, body: 'Nice' },
} as const;

/**
 * Bodies for each REST collection's create and replace, each with its fields in the reverse of the
 * spec's order: the order of an answer must come from the spec, not from the request.
 */
const REST_BODIES: Record<'books' | 'todos' | 'notes' | 'items' | 'tasks', { post?: object; put?: object }> = {
  books: { post: { pages: 264, title: 'Kindred' }, put: { pages: 7, title: 'Dune' } },
  todos: { post: { text: 'Water the plants' } },
  notes: { put: { body: 'Call the electrician' } },
  items: { post: { name: 'Screwdriver' } },
  tasks: { post: { title: 'Review the PR' }, put: { done: false, title: 'Write more tests' } },
};

/**
 * For each REST collection, the operations openapi.yaml gives it that answer records (list, get,
 * create, replace) and the order of its record schema's properties.
 */
function restAnswers() {
  const spec = loadOpenApi();
  const schemas = spec.components.schemas as Record<string, { properties: Record<string, unknown> }>;
  return [...specModel().resources.values()].filter((r) => r.schema).map(({ name, schema }) => {
    const list = spec.paths[`/${name}`] ?? {};
    const one = spec.paths[`/${name}/{id}`] ?? {};
    return {
      name: name as keyof typeof REST_BODIES,
      order: Object.keys(schemas[schema!].properties),
      list: 'get' in list,
      get: 'get' in one,
      post: 'post' in list,
      put: 'put' in one,
    };
  });
}

/** What listByParents answered, with each child as its id. */
function childIds(byParent: ReadonlyMap<number, { id: number }[]>): Map<number, number[]> {
  return new Map([...byParent].map(([parent, children]) => [parent, children.map((child) => child.id)]));
}

/** Tries to change a record the store returned: a frozen record refuses with a TypeError, a copy takes it. */

function attemptChange(change: () => unknown): void {
  try {
    change();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
  }
}

/** The repository contract (src/store/types.ts), written once and run against every store. */
export function storeContract(makeStore: (seed: SeedData) => Promise<Store>): void {
  let store: Store;
  beforeEach(async () => {
    store = await makeStore(contractSeed());
  });
  afterEach(async () => {
    await store.close();
  });

  describe('list', () => {
    /** What a page holds, without its version (checked on its own below). */
    const page = async (result: Promise<ListResult<unknown>>) => {
      const { items, total, rest } = await result;
      return { items: rest ? [...items, ...(await readAll({ items: [], rest, total, version: '' }))] : items, total };
    };

    it('when called without a page, then it returns every record in id order and the total', async () => {
      const { items, total } = await page(store.books.list());
      expect(items.map((b) => (b as BookRecord).id)).toEqual([2, 3, 5]);
      expect(items[0]).toEqual({ id: 2, title: 'Dune', pages: 412 });
      expect(total).toBe(3);
    });

    it('when given a limit and offset, then it returns that page and the whole total', async () => {
      expect(await page(store.books.list({ limit: 1, offset: 1 }))).toEqual({ items: [{ id: 3, title: 'Beloved', pages: 324 }], total: 3 });
      expect((await store.books.list({ limit: 2 })).items.map((b) => b.id)).toEqual([2, 3]);
      expect((await store.books.list({ offset: 2 })).items.map((b) => b.id)).toEqual([5]);
    });

    it('when the offset is past the end, then it returns no records and still the total', async () => {
      expect(await page(store.books.list({ limit: 10, offset: 3 }))).toEqual({ items: [], total: 3 });
    });

    it('when the collection is empty, then it returns no records and total 0', async () => {
      await store.items.delete(1);
      expect(await page(store.items.list())).toEqual({ items: [], total: 0 });
    });

    it('when the collection holds more records than one batch, then the list reads them in batches of at most LIST_BATCH, all of them in id order', async () => {
      const created: number[] = [];
      for (let i = 0; i < LIST_BATCH * 2 + 7; i += 1) created.push((await store.items.create({ name: `Item ${i}` })).id);
      const ids = [1, ...created];
      const result = await store.items.list();
      expect(result.total).toBe(ids.length);
      const batches = [result.items];
      if (result.rest) for await (const batch of result.rest) batches.push(batch);
      expect(batches.flat().map((item) => item.id)).toEqual(ids);
      // A store reading from a database never holds the whole list at once; the memory store has it already.
      if (store.kind !== 'memory') for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(LIST_BATCH);
      const paged = await page(store.items.list({ offset: 3, limit: LIST_BATCH + 2 }));
      expect(paged.items.map((item) => (item as ItemRecord).id)).toEqual(ids.slice(3, LIST_BATCH + 5));
    });

    it('when nothing is written, then the version stays; every create, update and delete changes it, and never back to an earlier one', async () => {
      const version = async () => (await store.books.list({ limit: 1 })).version;
      const seen = [await version()];
      expect(await version()).toBe(seen[0]);
      expect((await store.books.list()).version).toBe(seen[0]);
      const { id } = await store.books.create({ title: 'Kindred', pages: 1 });
      seen.push(await version());
      await store.books.update(id, { title: 'Kindred, again' });
      seen.push(await version());
      await store.books.delete(id);
      seen.push(await version());
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('when another collection is written, or a write is refused, then this collection keeps its version', async () => {
      const before = (await store.books.list()).version;
      await store.items.create({ name: 'Saw' });
      expect(await store.books.update(99, { title: 'Nobody' })).toBeUndefined();
      expect(await store.books.delete(99)).toBe(false);
      expect(await store.books.update(2, { title: 'Changed' }, () => false)).toBe(STALE);
      expect((await store.books.list()).version).toBe(before);
    });
  });

  describe('get', () => {
    it('when the id exists, then get returns the record; when not, undefined', async () => {
      expect(await store.tasks.get(7)).toEqual({ id: 7, title: 'Write tests', done: true });
      expect(await store.tasks.get(8)).toBeUndefined();
    });

    it('when the caller changes a returned record, then the stored record is unchanged', async () => {
      const book = (await store.books.get(2))!;
      // A store may hand out copies (the change is ignored) or frozen records (the change throws).
      attemptChange(() => (book.title = 'changed'));
      expect((await store.books.get(2))!.title).toBe('Dune');
    });

    it('when the caller changes records returned by list, get, create or update, then the stored records are unchanged', async () => {
      const listed = (await store.books.list()).items;
      attemptChange(() => (listed[1].title = 'changed by list'));
      const got = (await store.books.get(2))!;
      attemptChange(() => (got.pages = -1));
      const created = await store.books.create({ title: 'New', pages: 1 });
      attemptChange(() => (created.title = 'changed by create'));
      const updated = (await store.books.update(2, { pages: 7 }))!;
      attemptChange(() => (updated.title = 'changed by update'));
      const children = (await store.posts.listByParents([1])).get(1)!;
      attemptChange(() => (children[0].title = 'changed by listByParents'));
      expect((await store.books.list()).items.map((b) => b.title)).toEqual(['Dune', 'Beloved', 'Emma', 'New']);
      expect(await store.books.get(2)).toEqual({ id: 2, title: 'Dune', pages: 7 });
      expect(await store.books.get(created.id)).toEqual({ id: created.id, title: 'New', pages: 1 });
      expect((await store.posts.listByParents([1])).get(1)![0].title).toBe('Notes on the engine');
    });

    it('when the id is a GraphQL-only record, then get returns it whole; an unknown id is undefined', async () => {
      expect(await store.users.get(3)).toEqual({ id: 3, name: 'Grace', email: 'grace@example.com' });
      expect(await store.users.get(99)).toBeUndefined();
    });
  });

  describe('create', () => {
    it('when records are created, then ids continue from the largest seeded id, one by one', async () => {
      expect(await store.books.create({ title: 'Kindred', pages: 264 })).toEqual({ id: 6, title: 'Kindred', pages: 264 });
      expect((await store.books.create({ title: 'Ubik', pages: 0 })).id).toBe(7);
      expect(await store.books.get(6)).toEqual({ id: 6, title: 'Kindred', pages: 264 });
    });

    it('when the newest record is deleted, then its id is never assigned again', async () => {
      const made = await store.tasks.create({ title: 'Temporary', done: false });
      expect(made.id).toBe(8);
      expect(await store.tasks.delete(8)).toBe(true);
      expect(await store.tasks.delete(7)).toBe(true);
      expect((await store.tasks.create({ title: 'Next', done: false })).id).toBe(9);
    });

    it.each(Object.keys(SAMPLES) as (keyof typeof SAMPLES)[])('when a %s record is created, then get returns every field', async (name) => {
      const collection = store[name] as unknown as Collection<{ id: number }>;
      const made = await collection.create(SAMPLES[name] as never);
      // A note shows `body` again as its deprecated alias `text` (openapi.yaml `x-alias-of`).
      expect(made).toEqual({ ...SAMPLES[name], ...(name === 'notes' ? { text: SAMPLES.notes.body } : {}), id: made.id });
      expect(await collection.get(made.id)).toEqual(made);
    });

    it('when 200 creates run at once, then every id is unique, none is lost and the count is exact', async () => {
      const made = await Promise.all(Array.from({ length: 200 }, (_, i) => store.items.create({ name: `item ${i}` })));
      const ids = made.map((item) => item.id);
      expect(new Set(ids).size).toBe(200);
      expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 2));
      const listed = await store.items.list();
      expect(listed.total).toBe(201);
      // Every record, whether the store answers the list in one batch or in several.
      expect(new Set((await readAll(listed)).map((item) => item.name))).toEqual(new Set(['Hammer', ...made.map((item) => item.name)]));
    });
  });

  describe('update', () => {
    it('when given some fields, then only those change', async () => {
      expect(await store.tasks.update(7, { done: false })).toEqual({ id: 7, title: 'Write tests', done: false });
      expect(await store.tasks.update(7, { title: 'Ship' })).toEqual({ id: 7, title: 'Ship', done: false });
      expect(await store.tasks.get(7)).toEqual({ id: 7, title: 'Ship', done: false });
    });

    it('when a field is undefined or the patch is empty, then the record keeps its values', async () => {
      expect(await store.books.update(2, { title: 'Dune Messiah', pages: undefined })).toEqual({ id: 2, title: 'Dune Messiah', pages: 412 });
      expect(await store.books.update(2, {})).toEqual({ id: 2, title: 'Dune Messiah', pages: 412 });
    });

    it('when the id is unknown, then it returns undefined and creates nothing', async () => {
      expect(await store.notes.update(99, { body: 'x' })).toBeUndefined();
      expect(await store.notes.update(99, {})).toBeUndefined();
      expect((await store.notes.list()).total).toBe(1);
    });
  });

  describe('delete', () => {
    it('when the id exists, then it returns true once and the record is gone', async () => {
      expect(await store.users.delete(2)).toBe(true);
      expect(await store.users.get(2)).toBeUndefined();
      expect(await store.users.delete(2)).toBe(false);
      expect((await store.users.list()).items.map((u) => u.id)).toEqual([1, 3]);
    });
  });

  describe('conditional update and delete (expect)', () => {
    it('when the current record meets expect, then update writes and expect saw the stored record', async () => {
      const seen: unknown[] = [];
      const updated = await store.books.update(2, { pages: 500 }, (current) => (seen.push(current), current.pages === 412));
      expect(updated).toEqual({ id: 2, title: 'Dune', pages: 500 });
      expect(seen).toEqual([{ id: 2, title: 'Dune', pages: 412 }]);
      expect(await store.books.get(2)).toEqual({ id: 2, title: 'Dune', pages: 500 });
    });

    it('when the current record does not meet expect, then update answers STALE and changes nothing', async () => {
      expect(await store.books.update(2, { title: 'Changed', pages: 1 }, () => false)).toBe(STALE);
      expect(await store.books.update(2, {}, () => false)).toBe(STALE);
      expect(await store.books.get(2)).toEqual({ id: 2, title: 'Dune', pages: 412 });
    });

    it('when the id is unknown, then a conditional update is undefined and a conditional delete false, expect unasked', async () => {
      const expectation = jest.fn(() => true);
      expect(await store.books.update(99, { title: 'x' }, expectation)).toBeUndefined();
      expect(await store.books.delete(99, expectation)).toBe(false);
      expect(expectation).not.toHaveBeenCalled();
      expect((await store.books.list()).total).toBe(3);
    });

    it('when an empty patch meets expect, then update answers the current record', async () => {
      expect(await store.tasks.update(7, {}, () => true)).toEqual({ id: 7, title: 'Write tests', done: true });
    });

    it('when delete is conditional, then it deletes only a record that meets expect', async () => {
      expect(await store.notes.delete(4, (current) => current.body === 'Something else')).toBe(STALE);
      expect(await store.notes.get(4)).toEqual({ id: 4, body: 'Call the plumber', text: 'Call the plumber' });
      expect(await store.notes.delete(4, (current) => current.body === 'Call the plumber')).toBe(true);
      expect(await store.notes.get(4)).toBeUndefined();
    });

    it('when two writers expect the same version at once, then exactly one wins and the other is STALE', async () => {
      const sameAsRead = (current: { pages: number }) => current.pages === 412;
      const outcomes = await Promise.all([
        store.books.update(2, { pages: 413 }, sameAsRead),
        store.books.update(2, { pages: 1000 }, sameAsRead),
      ]);
      expect(outcomes.filter((o) => o === STALE)).toHaveLength(1);
      const winner = outcomes.find((o) => o !== STALE);
      expect(await store.books.get(2)).toEqual(winner);
    });

    it('when a conditional delete races a conditional update of the same version, then exactly one happens', async () => {
      const sameAsRead = (current: { title: string }) => current.title === 'Write tests';
      const [updated, deleted] = await Promise.all([store.tasks.update(7, { title: 'Renamed' }, sameAsRead), store.tasks.delete(7, sameAsRead)]);
      // The loser sees the winner's write: a changed record (STALE), or, when the delete won, no record at all.
      const renamed = { id: 7, title: 'Renamed', done: true };
      if (deleted === true) {
        expect(updated === STALE || updated === undefined).toBe(true);
        expect(await store.tasks.get(7)).toBeUndefined();
      } else {
        expect([updated, deleted]).toEqual([renamed, STALE]);
        expect(await store.tasks.get(7)).toEqual(renamed);
      }
    });

    it('when 10 clients each increment with read, then conditional write, retrying on STALE, then no increment is lost', async () => {
      const increment = async () => {
        for (;;) {
          const read = (await store.books.get(5))!;
          const outcome = await store.books.update(5, { pages: read.pages + 1 }, (current) => current.pages === read.pages);
          if (outcome !== STALE) return;
        }
      };
      await Promise.all(Array.from({ length: 10 }, increment));
      expect((await store.books.get(5))!.pages).toBe(474 + 10);
    });
  });

  describe('listByParents', () => {
    it('when given parent ids, then it returns all their children by parent, each list in id order', async () => {
      expect(childIds(await store.posts.listByParents([2, 1]))).toEqual(new Map([[2, [1, 3]], [1, [2]]]));
      expect(await store.comments.listByParents([3])).toEqual(
        new Map([
          [
            3,
            [
              { id: 1, postId: 3, body: 'Great' },
              { id: 3, postId: 3, body: 'Agreed' },
            ],
          ],
        ]),
      );
      expect(store.posts.parentKey).toBe('userId');
      expect(store.comments.parentKey).toBe('postId');
    });

    it('when no parent has children or no ids are given, then each parent has an empty list, and no ids give no parents', async () => {
      expect(await store.posts.listByParents([99])).toEqual(new Map([[99, []]]));
      expect(await store.comments.listByParents([])).toEqual(new Map());
    });

    it('when a child is created, then it is listed under its parent after the seeded ones', async () => {
      const post = await store.posts.create({ userId: 1, title: 'Sketch', body: 'Text' });
      expect(childIds(await store.posts.listByParents([1]))).toEqual(new Map([[1, [2, post.id]]]));
    });

    it('when a child is updated, moved to another parent or deleted, then each parent lists exactly its current children', async () => {
      await store.posts.update(2, { title: 'Renamed' });
      expect((await store.posts.listByParents([1])).get(1)).toEqual([expect.objectContaining({ id: 2, title: 'Renamed' })]);
      await store.posts.update(1, { userId: 1 });
      expect(childIds(await store.posts.listByParents([1]))).toEqual(new Map([[1, [1, 2]]]));
      expect(childIds(await store.posts.listByParents([2])).get(2)).not.toContain(1);
      await store.posts.delete(2);
      expect(childIds(await store.posts.listByParents([1, 1]))).toEqual(new Map([[1, [1]]]));
    });

    it('when children were listed before a create, an update, a move or a delete, then the next listing shows the write, and lists handed out before stay as they were', async () => {
      const listed = async () => childIds(await store.posts.listByParents([1, 2, 3]));
      expect(await listed()).toEqual(new Map([[1, [2]], [2, [1, 3]], [3, [4]]]));
      const before = (await store.posts.listByParents([2])).get(2)!;
      const created = await store.posts.create({ userId: 2, title: 'Later', body: 'Text' });
      expect(await listed()).toEqual(new Map([[1, [2]], [2, [1, 3, created.id]], [3, [4]]]));
      await store.posts.update(3, { title: 'Renamed' });
      expect((await store.posts.listByParents([2])).get(2)!.map((p) => p.title)).toEqual(['On computable numbers', 'Renamed', 'Later']);
      await store.posts.update(1, { userId: 3 });
      expect(await listed()).toEqual(new Map([[1, [2]], [2, [3, created.id]], [3, [1, 4]]]));
      await store.posts.delete(2);
      expect(await listed()).toEqual(new Map([[1, []], [2, [3, created.id]], [3, [1, 4]]]));
      expect(before.map((p) => [p.id, p.title])).toEqual([
        [1, 'On computable numbers'],
        [3, 'Computing machinery'],
      ]);
    });

    it('when the caller changes a returned list, then the list is its own and later listings are unchanged', async () => {
      const children = (await store.comments.listByParents([3])).get(3)!;
      children.push({ id: 99, postId: 3, body: 'Injected' });
      children.reverse();
      expect(children.map((child) => child.id)).toEqual([99, 3, 1]);
      expect(childIds(await store.comments.listByParents([3]))).toEqual(new Map([[3, [1, 3]]]));
      const empty = (await store.comments.listByParents([999])).get(999)!;
      empty.push({ id: 98, postId: 999, body: 'Injected' });
      expect(childIds(await store.comments.listByParents([999, 998]))).toEqual(new Map([[999, []], [998, []]]));
    });
  });

  describe('field order in REST answers', () => {
    /** A record's keys, next to the spec's properties it has, in the spec's order. */
    const keysAndSpec = (record: Record<string, unknown>, order: string[]) => [Object.keys(record), order.filter((f) => f in record)];

    it.each(restAnswers())('when $name records are listed, read, created and replaced, then their fields come in the spec\'s order', async (c) => {
      const { http } = makeApp({ store });
      const answers: Record<string, unknown>[] = [];
      if (c.list) answers.push(...(await http.get(`/${c.name}`).expect(200)).body);
      let id = (await store[c.name].list()).items[0].id;
      if (c.post) {
        const created = (await http.post(`/${c.name}`).send(REST_BODIES[c.name].post!).expect(201)).body;
        answers.push(created);
        id = created.id;
      }
      if (c.get) answers.push((await http.get(`/${c.name}/${id}`).expect(200)).body);
      if (c.put) answers.push((await http.put(`/${c.name}/${id}`).send(REST_BODIES[c.name].put!).expect(200)).body);
      expect(answers.length).toBeGreaterThan(1);
      for (const answer of answers) {
        const [keys, expected] = keysAndSpec(answer, c.order);
        expect(keys).toEqual(expected);
        expect(keys[0]).toBe('id');
      }
    });
  });

  it('when ping is called on a reachable store, then it resolves', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
}
