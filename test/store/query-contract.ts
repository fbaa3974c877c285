import { loadGraphqlSdl, loadOpenApi, type OpenApiDocument } from '../../src/spec';
import { buildModel, type ContractModel } from '../../src/store/model';
import { QueryError, type Condition, type ListQuery, type SortKey } from '../../src/store/query';
import { LIST_BATCH, readAll, type BookRecord, type SeedData, type Store } from '../../src/store/types';
import { contractSeed } from './contract';

/**
 * The query language (src/store/query.ts, docs/contract.md §7), written once and run against every store: every
 * operator, sorts, cursors, limits, with non-ASCII text, ties, empty results and an optional field some records lack.
 */

/** A book as these tests store it: the contract's, with an optional `subtitle` (filterable and sortable). */
type Book = BookRecord & { subtitle?: string };

/** The contract, with an optional `subtitle` on books that lists may filter (eq, ne, lt, contains) and sort by. */
export function queryModel(): ContractModel {
  const doc = loadOpenApi() as OpenApiDocument & { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
  for (const name of ['Book', 'BookCreate', 'BookUpdate']) doc.components.schemas[name].properties.subtitle = { type: 'string' };
  const get = doc.paths['/books'].get as { parameters: object[] };
  for (const name of ['subtitle', 'subtitle[ne]', 'subtitle[lt]', 'subtitle[contains]']) get.parameters.push({ name, in: 'query', schema: { type: 'string' } });
  get.parameters.push({ name: 'sort', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['subtitle', '-subtitle'] } } });
  return buildModel(doc, loadGraphqlSdl());
}

/** Titles whose code-point order differs from UTF-16's (U+FF21 before U+1F600) and from any locale's, with case pairs beyond ASCII. */
const BOOKS: Omit<Book, 'id'>[] = [
  { title: 'apple', pages: 300 },
  { title: 'Apple', pages: 120, subtitle: 'A fruit' },
  { title: 'Émile', pages: 300, subtitle: 'ou de l’éducation' },
  { title: 'ÉMILE, abridged', pages: 80 },
  { title: 'Zoë', pages: 300, subtitle: 'A fruit' },
  { title: 'Ｆullwidth', pages: 0, subtitle: 'Wide' },
  { title: '😀 Smiles', pages: 120 },
  { title: 'Straße', pages: 512, subtitle: 'STRASSE' },
  { title: 'darkness', pages: 512 },
  { title: 'Fire', pages: 512 },
];

export function querySeed(): SeedData {
  return { ...contractSeed(), books: BOOKS.map((book, i) => ({ id: i + 1, ...book })) as BookRecord[] };
}

/** Code-point order, as every store sorts text (JavaScript's `<` compares UTF-16 units). */
const byCodePoint = (a: string, b: string) => {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

type Value = string | number | boolean;
const compare = (a: Value, b: Value) => (typeof a === 'string' ? byCodePoint(a, b as string) : Number(a) - Number(b));

/** What a filter keeps, computed here: the reference the stores are checked against. A record with no value meets no condition. */
function meets(record: Record<string, unknown>, { field, op, value }: Condition): boolean {
  const have = record[field] as Value | undefined;
  if (have === undefined) return false;
  switch (op) {
    case 'eq':
      return have === value;
    case 'ne':
      return have !== value;
    case 'gt':
      return compare(have, value as Value) > 0;
    case 'gte':
      return compare(have, value as Value) >= 0;
    case 'lt':
      return compare(have, value as Value) < 0;
    case 'lte':
      return compare(have, value as Value) <= 0;
    case 'in':
      return (value as Value[]).includes(have);
    case 'contains':
      return String(have).toLowerCase().includes(String(value).toLowerCase());
    case 'startsWith':
      return String(have).toLowerCase().startsWith(String(value).toLowerCase());
  }
}

/** The order a sort gives, computed here: no value above every value, then id ascending. */
function sorted<T extends Record<string, unknown>>(records: T[], sort: readonly SortKey[]): T[] {
  return [...records].sort((a, b) => {
    for (const { field, desc } of sort) {
      const x = a[field] as Value | undefined;
      const y = b[field] as Value | undefined;
      if (x === y) continue;
      const order = x === undefined ? 1 : y === undefined ? -1 : compare(x, y);
      if (order !== 0) return desc ? -order : order;
    }
    return (a.id as number) - (b.id as number);
  });
}

const ids = (records: { id: number }[]) => records.map((r) => r.id);

export function queryContract(makeStore: (seed: SeedData, model: ContractModel) => Promise<Store>): void {
  let store: Store;
  const all = () => querySeed().books as Book[];
  beforeEach(async () => {
    store = await makeStore(querySeed(), queryModel());
  });
  afterEach(async () => {
    await store.close();
  });
  const list = async (query: ListQuery) => {
    const result = await store.books.list(query);
    return { ...result, items: (await readAll(result)) as Book[] };
  };

  describe('filters', () => {
    const cases: Condition[] = [
      ...(['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const).flatMap((op) => [
        { field: 'pages', op, value: 300 },
        { field: 'title', op, value: 'Émile' },
      ]),
      { field: 'pages', op: 'in', value: [0, 512, 9999] },
      { field: 'title', op: 'in', value: ['Zoë', 'zoë', 'Fire'] },
      { field: 'title', op: 'contains', value: 'ÉMI' },
      { field: 'title', op: 'contains', value: 'ße' },
      { field: 'title', op: 'contains', value: '%' },
      { field: 'title', op: 'startsWith', value: 'émile' },
      { field: 'title', op: 'startsWith', value: 'ｆ' },
      { field: 'title', op: 'startsWith', value: '😀' },
      { field: 'subtitle', op: 'eq', value: 'A fruit' },
      { field: 'subtitle', op: 'ne', value: 'A fruit' },
      { field: 'subtitle', op: 'lt', value: 'B' },
      { field: 'subtitle', op: 'contains', value: 'strasse' },
    ];
    it.each(cases.map((c) => [`${c.field}[${c.op}]=${JSON.stringify(c.value)}`, c] as const))('when a list is filtered by %s, then it holds exactly the records that meet it, in id order, and counts them', async (_, condition) => {
      const expected = all().filter((book) => meets(book, condition));
      const result = await list({ where: [condition] });
      expect(ids(result.items)).toEqual(ids(expected));
      expect(result.total).toBe(expected.length);
    });

    it('when contains or startsWith is given text in another case beyond ASCII, then case is ignored as Unicode lower-cases it', async () => {
      expect((await list({ where: [{ field: 'title', op: 'contains', value: 'émile' }] })).items.map((b) => b.title)).toEqual(['Émile', 'ÉMILE, abridged']);
      expect((await list({ where: [{ field: 'title', op: 'startsWith', value: 'ＦULL' }] })).items.map((b) => b.title)).toEqual(['Ｆullwidth']);
    });

    it('when several filters are given, then a record must meet all of them', async () => {
      const where: Condition[] = [
        { field: 'pages', op: 'gte', value: 120 },
        { field: 'title', op: 'lt', value: 'a' },
        { field: 'subtitle', op: 'ne', value: 'Wide' },
      ];
      const expected = all().filter((book) => where.every((c) => meets(book, c)));
      expect(expected.length).toBeGreaterThan(0);
      expect(ids((await list({ where })).items)).toEqual(ids(expected));
    });

    it('when a boolean field is filtered, then eq and ne keep the records with and without the value', async () => {
      await store.tasks.create({ title: 'Open', done: false });
      expect((await readAll(await store.tasks.list({ where: [{ field: 'done', op: 'eq', value: true }] }))).map((t) => t.title)).toEqual(['Write tests']);
      expect((await readAll(await store.tasks.list({ where: [{ field: 'done', op: 'ne', value: true }] }))).map((t) => t.title)).toEqual(['Open']);
    });

    it('when nothing meets the filters, then the list is empty, its total 0, and a cursor page has no next', async () => {
      expect(await store.books.list({ where: [{ field: 'pages', op: 'gt', value: 100000 }] })).toMatchObject({ items: [], total: 0 });
      const page = await store.books.list({ where: [{ field: 'title', op: 'eq', value: 'Nothing' }], limit: 2 });
      expect([page.items, page.total, page.next]).toEqual([[], 0, undefined]);
    });

    it('when a filter names a field or operator the contract does not declare, a value of another kind, or breaks a limit, then the list is refused naming it', async () => {
      const refused = async (query: ListQuery, parameter: string) => {
        const error = await store.books.list(query).then(() => undefined, (err: unknown) => err);
        expect(error).toBeInstanceOf(QueryError);
        expect((error as QueryError).parameter).toBe(parameter);
      };
      await refused({ where: [{ field: 'isbn', op: 'eq', value: 'x' }] }, 'isbn');
      await refused({ where: [{ field: 'subtitle', op: 'gt', value: 'x' }] }, 'subtitle[gt]');
      await refused({ where: [{ field: 'pages', op: 'eq', value: 'many' }] }, 'pages');
      await refused({ where: [{ field: 'pages', op: 'in', value: Array.from({ length: 101 }, (_, i) => i) }] }, 'pages[in]');
      await refused({ where: Array.from({ length: 11 }, () => ({ field: 'pages', op: 'gt' as const, value: 1 })) }, 'filters');
      await refused({ sort: [{ field: 'pages', desc: false }, { field: 'id', desc: false }, { field: 'secret', desc: true }] }, 'sort');
    });
  });

  describe('sort', () => {
    const sorts: SortKey[][] = [
      [{ field: 'title', desc: false }],
      [{ field: 'title', desc: true }],
      [{ field: 'pages', desc: true }],
      [{ field: 'pages', desc: false }, { field: 'title', desc: true }],
      [{ field: 'subtitle', desc: false }],
      [{ field: 'subtitle', desc: true }, { field: 'pages', desc: false }],
    ];
    it.each(sorts.map((s) => [s.map((k) => `${k.desc ? '-' : ''}${k.field}`).join(','), s] as const))('when a list is sorted by %s, then text goes by code point, no value above every value, and id breaks ties', async (_, sort) => {
      expect(ids((await list({ sort })).items)).toEqual(ids(sorted(all(), sort)));
    });

    it('when a sorted, filtered list is longer than a batch, then every batch follows the sort', async () => {
      for (let i = 0; i < LIST_BATCH * 2; i += 1) await store.books.create({ title: `Book ${i % 13}`, pages: i % 7, ...(i % 3 ? { subtitle: `S${i % 5}` } : {}) } as never);
      const everything = (await readAll(await store.books.list())) as Book[];
      const sort: SortKey[] = [{ field: 'subtitle', desc: true }, { field: 'pages', desc: false }];
      const where: Condition[] = [{ field: 'pages', op: 'lt', value: 6 }];
      const result = await store.books.list({ where, sort });
      expect(result.rest).toBeDefined();
      expect(ids((await readAll(result)) as Book[])).toEqual(ids(sorted(everything.filter((b) => meets(b, where[0])), sort)));
      const paged = await store.books.list({ where, sort, offset: 5, limit: LIST_BATCH + 9 });
      expect(ids((await readAll(paged)) as Book[])).toEqual(ids(sorted(everything.filter((b) => meets(b, where[0])), sort)).slice(5, LIST_BATCH + 14));
    });
  });

  describe('cursor pages', () => {
    /** Every page of a query, following `next`. */
    const walk = async (query: ListQuery, between: (page: number) => Promise<void> = async () => undefined) => {
      const seen: Book[] = [];
      let after: string | undefined;
      for (let page = 0; page < 100; page += 1) {
        const result = await store.books.list({ ...query, ...(after ? { after } : {}) });
        expect(result.items.length).toBeLessThanOrEqual(query.limit!);
        if (after === undefined) expect(result.total).toBeDefined();
        seen.push(...(result.items as Book[]));
        after = result.next;
        if (!after) return seen;
        await between(page);
      }
      throw new Error('no last page');
    };

    it.each([
      ['id order', {}],
      // Sorts one way on fields every record has: where a page starts is one row-value comparison (sql/conditions.ts).
      ['-pages (ties)', { sort: [{ field: 'pages', desc: true }] }],
      ['pages >= 120 (ties)', { sort: [{ field: 'pages', desc: false }], where: [{ field: 'pages', op: 'gte', value: 120 }] }],
      ['-title (code points)', { sort: [{ field: 'title', desc: true }] }],
      ['-pages,-title', { sort: [{ field: 'pages', desc: true }, { field: 'title', desc: true }] }],
      ['-pages,title', { sort: [{ field: 'pages', desc: true }, { field: 'title', desc: false }] }],
      ['subtitle (some records have none)', { sort: [{ field: 'subtitle', desc: false }] }],
      ['-subtitle, pages >= 120', { sort: [{ field: 'subtitle', desc: true }], where: [{ field: 'pages', op: 'gte', value: 120 }] }],
    ] as [string, ListQuery][])('when the pages of a list sorted by %s are followed, then they hold the whole list once, in order', async (_, query) => {
      for (const limit of [1, 3, 4]) {
        const expected = sorted(all().filter((b) => (query.where ?? []).every((c) => meets(b, c))), query.sort ?? []);
        expect(ids(await walk({ ...query, limit }))).toEqual(ids(expected));
      }
    });

    it('when records are created and deleted while the pages are followed, then each record present throughout is seen exactly once', async () => {
      const sort: SortKey[] = [{ field: 'pages', desc: true }];
      const before = new Set(ids(all()));
      const removed = new Set<number>();
      const seen = await walk({ sort, limit: 2 }, async (page) => {
        const made = await store.books.create({ title: `During ${page}`, pages: [600, 300, 1][page % 3] });
        const victim = [3, 8, 6][page % 3];
        if (!removed.has(victim)) {
          removed.add(victim);
          await store.books.delete(victim);
        }
        if (page % 2) await store.books.delete(made.id);
      });
      const throughout = [...before].filter((id) => !removed.has(id));
      const seenIds = ids(seen);
      expect(new Set(seenIds).size).toBe(seenIds.length);
      for (const id of throughout) expect(seenIds.filter((x) => x === id)).toHaveLength(1);
    });

    it('when a cursor is changed, cut, made up, or comes from another list or sort, then the page is refused naming after', async () => {
      const first = await store.books.list({ sort: [{ field: 'pages', desc: true }], limit: 2 });
      const cursor = first.next!;
      const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
      const other = (await store.users.list({ limit: 1 })).next!;
      const otherSort = (await store.books.list({ limit: 2 })).next!;
      for (const after of [flip(cursor, 3), flip(cursor, cursor.length - 2), cursor.slice(0, -1), 'x', `${cursor}.x`, other, otherSort]) {
        const error = await store.books.list({ sort: [{ field: 'pages', desc: true }], limit: 2, after }).then(() => undefined, (err: unknown) => err);
        expect(error).toBeInstanceOf(QueryError);
        expect((error as QueryError).parameter).toBe('after');
      }
    });

    it('when a list is read from a cursor without a limit, then it holds the rest of the list, however long', async () => {
      for (let i = 0; i < LIST_BATCH + 40; i += 1) await store.books.create({ title: `More ${i}`, pages: 1 });
      const everything = (await readAll(await store.books.list())) as Book[];
      const first = await store.books.list({ limit: 3 });
      expect(ids((await readAll(await store.books.list({ after: first.next! }))) as Book[])).toEqual(ids(everything.slice(3)));
    });

    it('when a page is read with after, then it leaves the total out; with offset, after is refused', async () => {
      const first = await store.books.list({ limit: 3 });
      const second = await store.books.list({ limit: 3, after: first.next! });
      expect(second.total).toBeUndefined();
      expect(ids(second.items as Book[])).toEqual([4, 5, 6]);
      await expect(store.books.list({ limit: 3, offset: 1, after: first.next! })).rejects.toBeInstanceOf(QueryError);
    });
  });

  describe('offset pages of a filtered list', () => {
    it('when a filtered, sorted list is read with limit and offset, then the page is that slice and the total counts the filtered list', async () => {
      const where: Condition[] = [{ field: 'pages', op: 'gte', value: 120 }];
      const sort: SortKey[] = [{ field: 'title', desc: false }];
      const expected = sorted(all().filter((b) => meets(b, where[0])), sort);
      const page = await list({ where, sort, limit: 3, offset: 2 });
      expect(ids(page.items)).toEqual(ids(expected.slice(2, 5)));
      expect(page.total).toBe(expected.length);
      expect(page.next).toBeUndefined();
    });
  });

  describe('update of an optional field', () => {
    it('when a field is null in the patch, then an optional one is cleared (the record has no such key) and a required one keeps its value; absent keys keep theirs', async () => {
      const updated = (await store.books.update(2, { subtitle: null, title: null } as never)) as Book;
      expect(updated).toEqual({ id: 2, title: 'Apple', pages: 120 });
      expect('subtitle' in updated).toBe(false);
      expect(await store.books.get(2)).toEqual({ id: 2, title: 'Apple', pages: 120 });
      expect(ids((await list({ where: [{ field: 'subtitle', op: 'eq', value: 'A fruit' }] })).items)).toEqual([5]);
      expect(await store.books.update(5, { pages: 1 })).toEqual({ id: 5, title: 'Zoë', pages: 1, subtitle: 'A fruit' });
      expect(ids((await list({ where: [{ field: 'subtitle', op: 'contains', value: 'fruit' }] })).items)).toEqual([5]);
    });
  });

  describe('changes are seen by the next list', () => {
    it('when a record is created, updated or deleted, then filtered lists, their totals and searches follow it', async () => {
      const query: ListQuery = { where: [{ field: 'title', op: 'contains', value: 'NEW' }] };
      expect((await store.books.list(query)).total).toBe(0);
      const made = await store.books.create({ title: 'A new Hope', pages: 1 });
      expect(ids((await list(query)).items)).toEqual([made.id]);
      await store.books.update(made.id, { title: 'An old hope' });
      expect((await store.books.list(query)).total).toBe(0);
      expect(ids((await list({ where: [{ field: 'title', op: 'startsWith', value: 'an OLD' }] })).items)).toEqual([made.id]);
      await store.books.delete(made.id);
      expect((await store.books.list({ where: [{ field: 'title', op: 'startsWith', value: 'an OLD' }] })).total).toBe(0);
    });
  });
}
