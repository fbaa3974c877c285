import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadGraphqlSdl, loadOpenApi, type OpenApiDocument } from '../../src/spec';
import { buildModel, type ContractModel } from '../../src/store/model';
import { createMemoryStore } from '../../src/store/memory';
import { createPostgresStore } from '../../src/store/postgres';
import { loadSeed } from '../../src/store/seed';
import { readAll, type SeedSource, type Store } from '../../src/store/types';
import { describePostgres, TestDatabase, testDatabaseUrl } from '../support/postgres';
import { SqliteFiles } from '../support/sqlite';
import { tempDir } from '../support/temp';

/**
 * A store that was written under one contract and starts under another (src/store/follow.ts): what a user
 * gets after editing the specs, on the SQLite and PostgreSQL stores alike.
 */

type Schema = { type?: unknown; properties: Record<string, unknown>; required?: string[]; [key: string]: unknown };

/** The service's contract, changed by `edit` (the OpenAPI document and the SDL), as a model. */
function contract(edit: (doc: OpenApiDocument & { components: { schemas: Record<string, Schema> } }) => void = () => undefined, sdl = loadGraphqlSdl()): ContractModel {
  const doc = loadOpenApi() as OpenApiDocument & { components: { schemas: Record<string, Schema> } };
  edit(doc);
  return buildModel(doc, sdl);
}

/** `doc` without the filters and sort keys GET /{collection} declares on `field` (removing a field removes them too). */
function withoutQueriesOn(doc: OpenApiDocument, collection: string, field: string): void {
  const get = doc.paths[`/${collection}`].get as { parameters: { $ref?: string }[] };
  const parameters = doc.components.parameters as Record<string, { name: string; schema: { items: { enum: string[] } } }>;
  const named = (p: { $ref?: string }) => parameters[p.$ref!.split('/').pop()!];
  get.parameters = get.parameters.filter((p) => !p.$ref || !(named(p).name === field || named(p).name.startsWith(`${field}[`)));
  for (const p of get.parameters) if (p.$ref && named(p).name === 'sort') named(p).schema.items.enum = named(p).schema.items.enum.filter((key) => key.replace(/^-/, '') !== field);
}

/** schema.graphql without `field` in the `where` and `orderBy` inputs of `type`. */
const withoutGraphqlQueriesOn = (type: string, field: string) =>
  loadGraphqlSdl().replace(new RegExp(`(input ${type}(Where|OrderBy)[^{]*\\{[^}]*?)\\n  ${field}: \\w+`, 'g'), '$1');

const addIsbn = (extra: Record<string, unknown> = {}) => (doc: { components: { schemas: Record<string, Schema> } }) => {
  for (const name of ['Book', 'BookCreate', 'BookUpdate']) doc.components.schemas[name].properties.isbn = { type: 'string', ...extra };
};
/** `addIsbn`, and books filterable by `isbn` (equals, contains) and sortable by it. */
const addIsbnFilters = (doc: OpenApiDocument & { components: { schemas: Record<string, Schema> } }) => {
  addIsbn()(doc);
  const get = doc.paths['/books'].get as { parameters: object[] };
  get.parameters.push({ name: 'isbn', in: 'query', schema: { type: 'string' } }, { name: 'isbn[contains]', in: 'query', schema: { type: 'string' } });
  const sort = (doc.components.parameters as Record<string, { schema: { items: { enum: string[] } } }>).BookSort;
  sort.schema.items.enum.push('isbn', '-isbn');
};
const withUserNickname = loadGraphqlSdl().replace('  email: String!\n', '  email: String!\n  "A short name."\n  nickname: String\n');

/** Opens a store on the same data (a file, a schema) under a contract; the seed loads into a new data set only. */
type Opener = () => { open(model: ContractModel, options?: { root?: string; seed?: SeedSource }): Promise<Store> };

function followSuite(kind: string, opener: Opener): void {
  describe(`${kind} store: starting under a changed contract`, () => {
    const stores: Store[] = [];
    afterAll(async () => {
      for (const store of stores) await store.close().catch(() => undefined);
    });
    const data = () => {
      const { open } = opener();
      return async (model: ContractModel, options?: { root?: string; seed?: SeedSource }) => {
        const store = await open(model, options);
        stores.push(store);
        return store;
      };
    };
    const seed = () => loadSeed('default');

    it('when a new optional field is added, then records stored before answer without it, and new ones keep it', async () => {
      const open = data();
      const before = await open(contract(), { seed: seed() });
      const old = await before.books.create({ title: 'Old', pages: 1 });
      await before.close();
      const after = await open(contract(addIsbn()));
      expect(await after.books.get(old.id)).toEqual({ id: old.id, title: 'Old', pages: 1 });
      const made = await after.books.create({ title: 'New', isbn: '9780141439587' } as never);
      expect(made).toEqual({ id: old.id + 1, title: 'New', pages: 0, isbn: '9780141439587' });
      const all = await readAll(await after.books.list());
      expect(all.every((book) => !(Object.values(book) as unknown[]).includes(null))).toBe(true);
      expect(all.at(-1)).toEqual(made);
      // An update that leaves the field out keeps it; null clears it, and the record answers without it.
      expect(await after.books.update(made.id, { title: 'Newer' })).toEqual({ ...made, title: 'Newer' });
      expect(await after.books.update(made.id, { isbn: null } as never)).toEqual({ id: made.id, title: 'Newer', pages: 0 });
    });

    it('when a GraphQL-only type gains a nullable field, then its records get the column and answer without a value', async () => {
      const open = data();
      await (await open(contract(), { seed: seed() })).close();
      const after = await open(contract(undefined, withUserNickname));
      expect(await after.users.get(1)).toEqual({ id: 1, name: expect.any(String), email: expect.any(String) });
      const made = await after.users.create({ name: 'Grace', email: 'grace@example.com', nickname: 'amazing' } as never);
      expect(await after.users.get(made.id)).toEqual({ id: made.id, name: 'Grace', email: 'grace@example.com', nickname: 'amazing' });
    });

    it('when an optional field becomes required with a default, then stored records that lack it get the default', async () => {
      const open = data();
      const first = await open(contract(addIsbn()), { seed: seed() });
      const kept = await first.books.create({ title: 'Has one', isbn: '111' } as never);
      await first.close();
      const after = await open(
        contract((doc) => {
          addIsbn()(doc);
          doc.components.schemas.Book.properties.isbn = { type: 'string', default: 'unknown' };
          doc.components.schemas.Book.required!.push('isbn');
        }),
      );
      expect(((await after.books.get(1)) as Record<string, unknown>).isbn).toBe('unknown');
      expect(((await after.books.get(kept.id)) as Record<string, unknown>).isbn).toBe('111');
      expect(((await after.books.create({ title: 'Fresh' })) as Record<string, unknown>).isbn).toBe('unknown');
    });

    it('when a field becomes required and only the create\'s request schema gives its default, then stored records get that default', async () => {
      const open = data();
      await (await open(contract(addIsbn()), { seed: seed() })).close();
      const after = await open(
        contract((doc) => {
          addIsbn()(doc);
          doc.components.schemas.BookCreate.properties.isbn = { type: 'string', default: 'none' };
          doc.components.schemas.Book.required!.push('isbn');
        }),
      );
      expect(((await after.books.get(2)) as Record<string, unknown>).isbn).toBe('none');
    });

    it('when a field becomes required with no default while stored records lack it, then the start stops with one line naming it', async () => {
      const open = data();
      await (await open(contract(addIsbn()), { seed: seed() })).close();
      const required = contract((doc) => {
        addIsbn()(doc);
        doc.components.schemas.Book.required!.push('isbn');
      });
      const failure = await open(required).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(failure?.message).toMatch(/^The stored data does not fit the contract: books\.isbn is now required with no default, and 5 stored records have no value for it: .*migration/);
      expect(failure?.message).not.toContain('\n');
      // Nothing was changed: the old contract still starts on the data.
      expect((await (await open(contract(addIsbn()))).books.list()).total).toBe(5);
    });

    it('when the stored data does not fit the contract, then the start names the stored records and never reads the seed; a new data set reads it once', async () => {
      const open = data();
      let reads = 0;
      const counted = () => {
        reads += 1;
        return loadSeed('default');
      };
      await (await open(contract(addIsbn()), { seed: counted })).close();
      expect(reads).toBe(1);
      const required = contract((doc) => {
        addIsbn()(doc);
        doc.components.schemas.Book.required!.push('isbn');
      });
      // A seed that would not fit either (it lacks isbn too): only the stored records are named.
      const failure = await open(required, {
        seed: () => {
          reads += 1;
          throw new Error('invalid seed data: books[0].isbn is required');
        },
      }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(failure?.message).toMatch(/^The stored data does not fit the contract: books\.isbn is now required with no default, and 5 stored records have no value for it/);
      expect(reads).toBe(1);
    });

    it('when a field becomes filterable, searchable and sortable, then its index and lower-cased copy are made (the copy filled for stored records), and go when the contract drops the filters', async () => {
      const open = data();
      const before = await open(contract(addIsbn()), { seed: seed() });
      const stored = await before.books.create({ title: 'Stored', isbn: 'ISBN-ÉX-1' } as never);
      await before.close();
      const after = await open(contract(addIsbnFilters));
      expect((await readAll(await after.books.list({ where: [{ field: 'isbn', op: 'contains', value: 'éx' }] }))).map((b) => b.id)).toEqual([stored.id]);
      expect((await readAll(await after.books.list({ sort: [{ field: 'isbn', desc: false }], limit: 1 }))).map((b) => b.id)).toEqual([stored.id]);
      await after.close();
      const dropped = await open(contract(addIsbn()));
      await expect(dropped.books.list({ where: [{ field: 'isbn', op: 'eq', value: 'x' }] })).rejects.toThrow('isbn is not a filter of books');
      expect(await dropped.books.get(stored.id)).toEqual({ id: stored.id, title: 'Stored', pages: 0, isbn: 'ISBN-ÉX-1' });
    });

    it('when a field changes type, or a removed field still holds values, then the start stops naming the field', async () => {
      const open = data();
      await (await open(contract(), { seed: seed() })).close();
      const retyped = contract((doc) => {
        doc.components.schemas.Book.properties.pages = { type: 'string' };
      });
      await expect(open(retyped)).rejects.toThrow(/books\.pages is stored as integer but the contract now says text/);
      const removed = contract((doc) => {
        delete doc.components.schemas.Book.properties.pages;
        doc.components.schemas.Book.required = ['id', 'title'];
        delete doc.components.schemas.BookCreate.properties.pages;
        delete doc.components.schemas.BookUpdate.properties.pages;
        withoutQueriesOn(doc, 'books', 'pages');
      }, withoutGraphqlQueriesOn('Book', 'pages'));
      await expect(open(removed)).rejects.toThrow(/books\.pages is no longer in the contract, but 5 stored records hold a value for it/);
    });

    it('when a field that no record has a value for is removed, or a required one becomes optional, then the start applies it and ids go on', async () => {
      const open = data();
      const first = await open(contract(addIsbn()), { seed: seed() });
      const last = await first.books.create({ title: 'Last' });
      await first.books.delete(last.id);
      await first.close();
      const optionalTitle = contract((doc) => {
        doc.components.schemas.Book.required = ['id', 'pages'];
        doc.components.schemas.BookCreate.required = [];
      });
      const after = await open(optionalTitle);
      const untitled = await after.books.create({ pages: 3 });
      expect(untitled).toEqual({ id: last.id + 1, pages: 3 });
      expect(await after.books.get(untitled.id)).toEqual({ id: untitled.id, pages: 3 });
    });

    it('when a new collection is in the contract, then its table is made, and a hand-written migration runs once', async () => {
      const root = tempDir('follow-root-');
      for (const store of ['sqlite', 'postgres']) {
        mkdirSync(path.join(root, 'migrations', store), { recursive: true });
        writeFileSync(path.join(root, 'migrations', store, '001-rename.sql'), "UPDATE books SET title = title || ' (migrated)' WHERE id = 1;");
      }
      const widgets = contract((doc) => {
        doc.paths['/widgets'] = { get: { operationId: 'listWidgets', responses: { '200': { description: 'x', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Widget' } } } } } } } };
        doc.components.schemas.Widget = { type: 'object', required: ['id', 'label', 'count'], properties: { id: { type: 'integer' }, label: { type: 'string' }, count: { type: 'integer', default: 1 }, flag: { type: 'boolean' } } };
      });
      const open = data();
      await (await open(contract(), { seed: seed() })).close();
      const after = await open(widgets, { root });
      const made = await after.collection('widgets').create({ label: 'w' });
      expect(made).toEqual({ id: 1, label: 'w', count: 1 });
      expect((await after.collection('widgets').list()).items).toEqual([made]);
      expect((await after.books.get(1))?.title).toMatch(/ \(migrated\)$/);
      await after.close();
      const again = await open(widgets, { root });
      expect((await again.books.get(1))?.title).not.toMatch(/\(migrated\) \(migrated\)/);
    });
  });
}

const files = new SqliteFiles();
followSuite('SQLite', () => {
  const file = files.newFile();
  return { open: async (model, options) => files.store(options?.seed ?? loadSeed('default'), { file, model, root: options?.root }) };
});

describePostgres('PostgreSQL', () => {
  const db = new TestDatabase(testDatabaseUrl()!);
  followSuite('PostgreSQL', () => {
    const schema = db.newSchema();
    return { open: (model, options) => createPostgresStore({ pool: db.shared(), schema, seed: options?.seed ?? loadSeed('default'), model, root: options?.root }) };
  });

  it('when three instances start at once under a changed contract, then all start and the change is applied and recorded once', async () => {
    const schema = db.newSchema();
    await (await createPostgresStore({ pool: db.shared(), schema, seed: loadSeed('default') })).close();
    const model = contract(addIsbnFilters);
    const stores = await Promise.all([1, 2, 3].map(() => createPostgresStore({ pool: db.shared(), schema, seed: loadSeed('default'), model })));
    const { rows } = await db.shared().query(`SELECT change FROM "${schema}".contract_changes WHERE change LIKE 'books.isbn%' ORDER BY id`);
    expect(rows).toEqual([
      { change: 'books.isbn: new optional field (text)' },
      { change: 'books.isbn: lower-cased copy for contains/startsWith, filled for the stored records' },
      { change: 'books.isbn: index q_books_isbn made for filters and sorts' },
    ]);
    expect(((await stores[2].books.create({ title: 'x', isbn: '1' } as never)) as Record<string, unknown>).isbn).toBe('1');
    for (const store of stores) await store.close();
  });
});

describe('memory store: optional fields of the contract', () => {
  it('when a record has no value for an optional field, then it is absent (null clears it), and a default fills a create', async () => {
    const store = createMemoryStore(loadSeed('default'), contract(addIsbn()));
    expect(await store.books.get(1)).toEqual({ id: 1, title: expect.any(String), pages: expect.any(Number) });
    const made = await store.books.create({ title: 'New', isbn: '1' } as never);
    expect(made).toEqual({ id: 6, title: 'New', pages: 0, isbn: '1' });
    expect(await store.books.update(made.id, { isbn: null } as never)).toEqual({ id: 6, title: 'New', pages: 0 });
    expect((await readAll(await store.books.list())).some((book) => 'isbn' in book)).toBe(false);
  });
});
