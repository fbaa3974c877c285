import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createStore } from '../src/store';
import { SeedError, defaultSeedPath, emptySeed, loadSeed, validateSeed } from '../src/store/seed';
import { testConfig, type Config } from '../src/config';
import { makeApp } from './support/app';
import { SqliteFiles } from './support/sqlite';
import { tempDir } from './support/temp';

const dir = () => tempDir('seed-test-');
function seedFile(content: unknown): string {
  const file = path.join(dir(), 'seed.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('the default seed', () => {
  it('when loaded, then it is valid and every collection has records (users with posts and comments)', () => {
    const seed = loadSeed('default');
    for (const [name, records] of Object.entries(seed)) expect([name, records.length > 0]).toEqual([name, true]);
    expect(seed.posts.every((post) => seed.users.some((user) => user.id === post.userId))).toBe(true);
    expect(loadSeed(defaultSeedPath)).toEqual(seed);
  });
});

describe('SEED=empty', () => {
  const files = new SqliteFiles();
  const stores: Partial<Config>[] = [{ store: 'memory' }, { store: 'sqlite', sqliteFile: files.newFile() }];

  it.each(stores)('when the store ($store) is built from it, then every collection is empty and REST ids start at 1', async (settings) => {
    expect(Object.values(loadSeed('empty')).every((records) => records.length === 0)).toBe(true);
    const store = await createStore(testConfig({ seed: 'empty', ...settings }));
    expect(store.kind).toBe(settings.store);
    const { http } = makeApp({ store });
    await http.get('/books').expect(200, []);
    await http.get('/notes').expect(200, []);
    expect((await http.post('/books').send({ title: 'First' }).expect(201)).body.id).toBe(1);
    expect((await http.post('/items').send({ name: 'First' }).expect(201)).body.id).toBe(1);
    await store.close();
  });
});

describe('a user seed file', () => {
  it('when it is valid, then its records are served and ids continue after the largest seeded id', async () => {
    const file = seedFile({ ...emptySeed(), books: [{ id: 3, title: 'A', pages: 1 }, { id: 40, title: 'B', pages: 2 }], notes: [{ id: 7, body: 'n' }] });
    const { http } = makeApp({ seed: loadSeed(file) });
    expect((await http.get('/books').expect(200)).body).toEqual([{ id: 3, title: 'A', pages: 1 }, { id: 40, title: 'B', pages: 2 }]);
    await http.get('/notes/7').expect(200, { id: 7, body: 'n', text: 'n' });
    expect((await http.post('/books').send({ title: 'C' }).expect(201)).body.id).toBe(41);
  });

  it('when records leave out fields that are optional on create, then they get the create defaults (pages 0, done false)', () => {
    const seed = loadSeed(seedFile({ books: [{ id: 1, title: 'A' }], todos: [{ id: 1, text: 'x' }], tasks: [{ id: 2, title: 't' }] }));
    expect(seed.books).toEqual([{ id: 1, title: 'A', pages: 0 }]);
    expect(seed.todos).toEqual([{ id: 1, text: 'x', done: false }]);
    expect(seed.tasks).toEqual([{ id: 2, title: 't', done: false }]);
  });

  it('when collections are left out, then they start empty', () => {
    expect(loadSeed(seedFile({ todos: [{ id: 1, text: 'x', done: false }] })).books).toEqual([]);
  });

  it.each([
    ['is not JSON', '{ books: [', /cannot read seed file .*seed\.json/],
    ['does not exist', undefined, /cannot read seed file/],
    ['is an array', [], /expected an object of collections/],
    ['has an unknown collection', { widgets: [] }, /unknown collection "widgets"/],
    ['has a non-array collection', { books: {} }, /books must be an array/],
    ['has an id of 0', { books: [{ id: 0, title: 'A', pages: 1 }] }, /books\[0\]\.id must be an integer >= 1/],
    ['has a string id', { items: [{ id: '1', name: 'A' }] }, /items\[0\]\.id must be an integer >= 1/],
    ['uses an id twice', { items: [{ id: 1, name: 'A' }, { id: 1, name: 'B' }] }, /items\[1\]\.id 1 is used twice/],
    ['misses a required field', { books: [{ id: 1, pages: 1 }] }, /books\[0\].*title/],
    ['has a blank text field', { tasks: [{ id: 1, title: '  ', done: false }] }, /tasks\[0\]/],
    ['has an unknown REST field', { todos: [{ id: 1, text: 'a', done: false, due: 'x' }] }, /todos\[0\]/],
    ['has a post of a missing user', { users: [{ id: 1, name: 'A', email: 'a@x.io' }], posts: [{ id: 1, userId: 2, title: 't', body: 'b' }] }, /posts\[0\]\.userId matches no users record/],
    ['has a user without email', { users: [{ id: 1, name: 'A' }] }, /users\[0\]\.email is required/],
  ])('when the file %s, then loading it fails with a SeedError saying where', (_label, content, message) => {
    const file = content === undefined ? path.join(dir(), 'missing.json') : seedFile(content);
    expect(() => loadSeed(file)).toThrow(SeedError);
    expect(() => loadSeed(file)).toThrow(message);
  });

  it('when seed data is validated directly, then the message names its source', () => {
    expect(() => validateSeed({ books: 1 }, 'my-seed')).toThrow('invalid seed data in my-seed: books must be an array');
  });
});
