import { createPostgresStore } from '../../src/store/postgres';
import { createPool, ident } from '../../src/store/postgres/pool';
import { LIST_BATCH, type ItemRecord, type SeedData } from '../../src/store/types';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../support/postgres';
import { contractSeed } from './contract';

/** The contract seed with `count` items (ids 1..count). */
function seedWithItems(count: number): SeedData {
  return { ...contractSeed(), items: Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Item ${i + 1}` })) };
}

describePostgres('PostgreSQL store: lists read in batches', () => {
  const db = new TestDatabase(testDatabaseUrl()!);

  it('when a list is longer than a batch, then each batch is read when it is pulled, one statement each, and no connection is held between pulls', async () => {
    const statements: string[] = [];
    const pool = createPool(testDatabaseUrl()!, undefined, { max: 2 });
    const store = await createPostgresStore({ pool, schema: db.newSchema(), seed: seedWithItems(LIST_BATCH * 2 + 10), onQuery: (t) => statements.push(t) });
    try {
      statements.length = 0;
      const page = await store.items.list();
      expect([page.items.length, page.total, statements.length]).toEqual([LIST_BATCH, LIST_BATCH * 2 + 10, 1]);
      const batches = page.rest![Symbol.asyncIterator]();
      expect(statements).toHaveLength(1);
      const second = await batches.next();
      expect([second.value.length, second.value[0].id, statements.length]).toEqual([LIST_BATCH, LIST_BATCH + 1, 2]);
      expect(store.poolStats().idle).toBe(store.poolStats().size);
      const third = await batches.next();
      expect([third.value.length, third.value[9].id, statements.length]).toEqual([10, LIST_BATCH * 2 + 10, 3]);
      expect((await batches.next()).done).toBe(true);
      expect(statements).toHaveLength(3);
    } finally {
      await store.close();
      await pool.end();
    }
  });

  it('when the consumer stops after the first batches (return), then no further batch is read', async () => {
    const statements: string[] = [];
    const store = await createPostgresStore({ pool: db.shared(), schema: db.newSchema(), seed: seedWithItems(LIST_BATCH * 4), onQuery: (t) => statements.push(t) });
    statements.length = 0;
    const page = await store.items.list({ offset: 5 });
    const batches = page.rest![Symbol.asyncIterator]();
    expect((await batches.next()).value[0].id).toBe(LIST_BATCH + 6);
    // What `break` in a for await loop does.
    await batches.return!(undefined);
    expect(await batches.next()).toEqual({ done: true, value: undefined });
    expect(statements).toHaveLength(2);
    await store.close();
  });

  it('when a page has a limit larger than a batch, then it comes in batches too, and stops at the limit', async () => {
    const store = await createPostgresStore({ pool: db.shared(), schema: db.newSchema(), seed: seedWithItems(LIST_BATCH * 3) });
    const page = await store.items.list({ offset: 1, limit: LIST_BATCH + 20 });
    const rest: ItemRecord[][] = [];
    for await (const batch of page.rest!) rest.push(batch);
    expect([page.items.length, rest.map((b) => b.length)]).toEqual([LIST_BATCH, [20]]);
    expect(rest[0][19].id).toBe(LIST_BATCH + 21);
    await store.close();
  });
});

describePostgres('PostgreSQL store: list versions and totals', () => {
  const db = new TestDatabase(testDatabaseUrl()!);
  const open = (schema = db.newSchema()) => createPostgresStore({ pool: db.shared(), schema, seed: contractSeed() });

  it('when two data sets hold the same records, or a data set is dropped and made again, then their versions differ', async () => {
    const schema = db.newSchema();
    const [first, other] = [await open(schema), await open()];
    const versions = [(await first.books.list()).version, (await other.books.list()).version];
    expect((await first.books.list()).items).toEqual((await other.books.list()).items);
    await db.shared().query(`DROP SCHEMA ${ident(schema)} CASCADE`);
    versions.push((await (await open(schema)).books.list()).version);
    expect(new Set(versions).size).toBe(3);
  });

  it('when rows are changed by SQL outside the service, even back to what they were, then each change gives a new version, and the total follows', async () => {
    const schema = db.newSchema();
    const store = await open(schema);
    const seen = [await store.books.list()];
    const statements = ['UPDATE books SET pages = pages + 1', 'UPDATE books SET pages = pages - 1', "INSERT INTO books (id, title) VALUES (100, 'Typed in')", 'DELETE FROM books WHERE id < 4', 'TRUNCATE books'];
    for (const sql of statements) {
      await db.shared().query(`SET search_path TO ${ident(schema)}; ${sql}; RESET search_path`);
      seen.push(await store.books.list());
    }
    expect(seen.map((page) => page.total)).toEqual([3, 3, 3, 4, 2, 0]);
    // Versions count writes: one that restores earlier records is a new version too.
    expect(new Set(seen.map((page) => page.version)).size).toBe(6);
  });

  it('when a write is rolled back, then the version and total stay; after concurrent creates, updates and deletes, the total is the count of rows', async () => {
    const schema = db.newSchema();
    const store = await open(schema);
    const before = await store.books.list();
    await store.idempotent({ key: 'rolled-back', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
      await tx.books.create({ title: 'Never kept', pages: 1 });
      await tx.books.delete(2);
      return { status: 400 };
    });
    const after = await store.books.list();
    expect([after.version, after.total]).toEqual([before.version, before.total]);
    await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => store.books.create({ title: `Book ${i}`, pages: i })),
      store.books.delete(3),
      store.books.update(5, { pages: 1 }),
      store.books.delete(99),
    ]);
    const { rows } = await db.shared().query(`SELECT count(*)::int AS n FROM ${ident(schema)}.books`);
    expect((await store.books.list()).total).toBe(rows[0].n);
    expect(rows[0].n).toBe(3 + 30 - 1);
  });
});

describePostgres('PostgreSQL store: prepared statements', () => {
  const db = new TestDatabase(testDatabaseUrl()!);

  it('when a record is read, a list, children and a create run, then their statements are prepared on the connection', async () => {
    const pool = createPool(testDatabaseUrl()!, undefined, { max: 1 });
    const store = await createPostgresStore({ pool, schema: db.newSchema(), seed: contractSeed() });
    try {
      await store.books.get(2);
      await store.books.list();
      await store.posts.listByParents([1, 2]);
      await store.items.create({ name: 'Saw' });
      const { rows } = await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
      const prepared = rows.map((r) => r.statement);
      for (const part of ['where "id" = $1', 'offset $', '= ANY($1::bigint[])', 'INSERT INTO']) {
        expect(prepared.filter((text) => text.includes(part))).toHaveLength(1);
      }
    } finally {
      await store.close();
      await pool.end();
    }
  });
});
