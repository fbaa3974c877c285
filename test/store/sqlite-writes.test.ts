import { OverloadedError } from '../../src/store/errors';
import { DRIVER_ORDER, loadDriver } from '../../src/store/sqlite/driver';
import { LIST_BATCH, readAll } from '../../src/store/types';
import { SqliteFiles, describeDriver, spyDriver } from '../support/sqlite';
import { contractSeed } from './contract';

/** A statement that reads a list's records in id order (the first batch with the total, or a later one). */
const RECORDS_IN_ORDER = /order by "id" limit/;

/** An error as the driver throws it for SQLite's result code `code` (node:sqlite's shape: the number; better-sqlite3's: the name). */
function sqliteError(driver: string, code: number, name: string): Error {
  return Object.assign(new Error(`${name} (simulated)`), driver === 'node:sqlite' ? { code: 'ERR_SQLITE_ERROR', errcode: code } : { code: name });
}

for (const driver of DRIVER_ORDER) {
  describeDriver(`SQLite store (${driver}): writes share commits, lists read batch by batch`, driver, () => {
    const files = new SqliteFiles();
    const ran: string[] = [];
    let fail: (sql: string) => Error | undefined = () => undefined;
    const open = () => files.store(contractSeed(), { driver: spyDriver(driver, ran, (sql) => fail(sql)) });
    beforeEach(() => {
      ran.length = 0;
      fail = () => undefined;
    });

    it('when 50 creates arrive together, then one COMMIT stores them all, with consecutive ids in the order they came', async () => {
      const store = open();
      ran.length = 0;
      const made = await Promise.all(Array.from({ length: 50 }, (_, i) => store.items.create({ name: `Item ${i}` })));
      expect(made.map((item) => item.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
      expect(ran.filter((sql) => sql === 'COMMIT')).toHaveLength(1);
    });

    it('when one write of a batch is refused by SQLite (NOT NULL), then it alone fails, and its neighbours are stored with no id skipped', async () => {
      const store = open();
      const outcomes = await Promise.allSettled([
        store.books.create({ title: 'First', pages: 1 }),
        store.books.create({ title: null as unknown as string, pages: 2 }),
        store.books.create({ title: 'Third', pages: 3 }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.id : undefined))).toEqual([6, undefined, 7]);
      expect((await store.books.list()).items.map((b) => b.title)).toEqual(['Dune', 'Beloved', 'Emma', 'First', 'Third']);
    });

    it('when keyed work is running, then writes sent meanwhile wait for it, and work that throws keeps none of its writes', async () => {
      const store = open();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const keyedWrote = new Promise<void>((resolve) => (wrote = resolve));
      const keyed = store.idempotent({ key: 'k', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
        await tx.books.create({ title: 'Keyed', pages: 1 });
        wrote();
        await gate;
        throw new Error('the work failed');
      });
      // The keyed work is under way (it has written), not merely asked for: then the plain write comes.
      await keyedWrote;
      let plainDone = false;
      const plain = store.books.create({ title: 'Plain', pages: 2 }).then((book) => ((plainDone = true), book));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(plainDone).toBe(false);
      expect((await store.books.list()).items.map((b) => b.title)).toEqual(['Dune', 'Beloved', 'Emma']);
      release();
      await expect(keyed).rejects.toThrow('the work failed');
      expect((await plain).id).toBe(6);
      expect((await store.books.list()).items.map((b) => b.title)).toEqual(['Dune', 'Beloved', 'Emma', 'Plain']);
    });

    it('when COMMIT fails with an I/O error, then every write of the batch fails as "outcome unknown"; when the disk is full, as unavailable; nothing is stored', async () => {
      const store = open();
      const read = await store.books.get(2);
      fail = (sql) => (sql === 'COMMIT' ? sqliteError(driver, 10 | (4 << 8), 'SQLITE_IOERR_FSYNC') : undefined);
      const io = await Promise.allSettled([store.books.create({ title: 'A', pages: 1 }), store.books.update(2, { pages: 1 })]);
      fail = (sql) => (sql === 'COMMIT' ? sqliteError(driver, 13, 'SQLITE_FULL') : undefined);
      const full = await Promise.allSettled([store.books.delete(3)]);
      fail = () => undefined;
      for (const outcome of io) expect(outcome).toMatchObject({ status: 'rejected', reason: { name: 'StorageUnavailableError', outcomeUnknown: true } });
      expect(full[0]).toMatchObject({ status: 'rejected', reason: { name: 'StorageUnavailableError', outcomeUnknown: false } });
      expect((await store.books.list()).items).toEqual([
        { id: 2, title: 'Dune', pages: 412 },
        { id: 3, title: 'Beloved', pages: 324 },
        { id: 5, title: 'Emma', pages: 474 },
      ]);
      expect(await store.books.get(2)).toEqual(read);
      expect((await store.books.create({ title: 'B', pages: 1 })).id).toBe(6);
    });

    it('when records were read before, then get shows each committed write (update, delete, create, kept keyed work) and no write rolled back', async () => {
      const store = open();
      const ids = [2, 3, 5];
      for (const id of ids) await store.books.get(id);
      await store.books.update(2, { pages: 1 });
      await store.books.delete(3);
      const made = await store.books.create({ title: 'Made', pages: 7 });
      await store.idempotent({ key: 'kept', fingerprint: 'f', ttlMs: 60000 }, async (tx) => ({ status: 200, body: await tx.books.update(5, { title: 'Kept' }) }));
      await store.idempotent({ key: 'dropped', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
        await tx.books.update(2, { title: 'Dropped' });
        await tx.books.delete(made.id);
        return { status: 409 };
      });
      const got = await Promise.all([2, 3, 5, made.id].map((id) => store.books.get(id)));
      expect(got).toEqual([{ id: 2, title: 'Dune', pages: 1 }, undefined, { id: 5, title: 'Kept', pages: 474 }, { id: made.id, title: 'Made', pages: 7 }]);
      // The same as the file says (a list reads the table, not the cache).
      expect(got.filter(Boolean)).toEqual((await store.books.list()).items.filter((book) => [2, 3, 5, made.id].includes(book.id)));
    });

    it('when a record is created, then the first get reads it and the next ones do not; when a record read before is updated, then the next get reads no row and shows the update', async () => {
      const store = open();
      const byIdReads = () => ran.filter((sql) => /where "id" = \?$/.test(sql)).length;
      const made = await store.books.create({ title: 'Made', pages: 7 });
      const before = byIdReads();
      expect(await store.books.get(made.id)).toEqual({ id: made.id, title: 'Made', pages: 7 });
      expect(await store.books.get(made.id)).toEqual({ id: made.id, title: 'Made', pages: 7 });
      expect(byIdReads()).toBe(before + 1);
      await store.books.update(made.id, { pages: 8 });
      expect(await store.books.get(made.id)).toEqual({ id: made.id, title: 'Made', pages: 8 });
      expect(byIdReads()).toBe(before + 1);
    });

    it('when children were listed before, then a second listing reads no row, and listings show each committed write (create, move, delete, kept keyed work) and no write rolled back', async () => {
      const store = open();
      const byParentReads = () => ran.filter((sql) => sql.includes('json_each')).length;
      const listed = async () => new Map([...(await store.posts.listByParents([1, 2, 3])).entries()].map(([parent, posts]) => [parent, posts.map((p) => p.id)]));
      expect(await listed()).toEqual(new Map([[1, [2]], [2, [1, 3]], [3, [4]]]));
      const reads = byParentReads();
      expect(await listed()).toEqual(new Map([[1, [2]], [2, [1, 3]], [3, [4]]]));
      expect(byParentReads()).toBe(reads);
      const made = await store.posts.create({ userId: 1, title: 'New', body: 'Text' });
      await store.posts.update(1, { userId: 3 });
      expect(await listed()).toEqual(new Map([[1, [2, made.id]], [2, [3]], [3, [1, 4]]]));
      await store.idempotent({ key: 'kept', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
        await tx.posts.delete(2);
        // Keyed work sees its own writes, which are not committed yet.
        expect((await tx.posts.listByParents([1])).get(1)!.map((p) => p.id)).toEqual([made.id]);
        return { status: 204 };
      });
      expect(await listed()).toEqual(new Map([[1, [made.id]], [2, [3]], [3, [1, 4]]]));
      await store.idempotent({ key: 'dropped', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
        await tx.posts.update(3, { userId: 1 });
        await tx.posts.create({ userId: 5, title: 'Dropped', body: 'Text' });
        // Parents 1 and 5 are read inside the work (5 for the first time), and by the store meanwhile.
        expect((await tx.posts.listByParents([1, 5])).get(1)!.map((p) => p.id)).toEqual([3, made.id]);
        expect((await tx.posts.listByParents([5])).get(5)!.map((p) => p.title)).toEqual(['Dropped']);
        expect((await store.posts.listByParents([5])).get(5)).toEqual([]);
        return { status: 409 };
      });
      expect(await listed()).toEqual(new Map([[1, [made.id]], [2, [3]], [3, [1, 4]]]));
      expect((await store.posts.listByParents([5])).get(5)).toEqual([]);
      await store.posts.delete(4);
      expect(await listed()).toEqual(new Map([[1, [made.id]], [2, [3]], [3, [1]]]));
    });

    it('when a page of one batch was listed before, then listing it again reads no record, and a listing after a committed write shows the write', async () => {
      const store = open();
      const recordReads = () => ran.filter((sql) => RECORDS_IN_ORDER.test(sql)).length;
      const titles = async (page?: { limit?: number; offset?: number }) => (await store.books.list(page)).items.map((b) => b.title);
      expect(await titles()).toEqual(['Dune', 'Beloved', 'Emma']);
      const reads = recordReads();
      expect(await titles()).toEqual(['Dune', 'Beloved', 'Emma']);
      expect(recordReads()).toBe(reads);
      expect(await titles({ limit: 1, offset: 1 })).toEqual(['Beloved']);
      expect(recordReads()).toBe(reads + 1);
      await store.books.update(3, { title: 'Changed' });
      expect(await titles()).toEqual(['Dune', 'Changed', 'Emma']);
      expect(await titles({ limit: 1, offset: 1 })).toEqual(['Changed']);
      await store.idempotent({ key: 'kept', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
        await tx.books.delete(2);
        expect((await tx.books.list()).items.map((b) => b.title)).toEqual(['Changed', 'Emma']);
        return { status: 204 };
      });
      // Work rolled back reads its own version of the page, then another write commits the same write count.
      await store.idempotent({ key: 'dropped', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
        await tx.books.create({ title: 'Dropped', pages: 1 });
        expect((await tx.books.list()).items.map((b) => b.title)).toEqual(['Changed', 'Emma', 'Dropped']);
        return { status: 409 };
      });
      expect(await titles()).toEqual(['Changed', 'Emma']);
      await store.books.update(5, { title: 'Committed' });
      expect(await titles()).toEqual(['Changed', 'Committed']);
      const listed = (await store.books.list()).items;
      listed.pop();
      expect(await titles()).toEqual(['Changed', 'Committed']);
    });

    it('when another program holds the write lock for longer than the busy timeout, then writes fail as busy (503 "Server busy"), and work again once it lets go', async () => {
      const file = files.newFile();
      const store = files.store(contractSeed(), { driver, file });
      const other = loadDriver(driver).open(file);
      other.exec('BEGIN IMMEDIATE');
      try {
        const refused = store.books.create({ title: 'Blocked', pages: 1 });
        await expect(refused).rejects.toBeInstanceOf(OverloadedError);
        await expect(store.books.get(2)).resolves.toMatchObject({ title: 'Dune' });
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      expect((await store.books.create({ title: 'Later', pages: 1 })).id).toBe(6);
    });

    it('when a list has more than one batch, then the first is read with the total and each later one only when pulled, and none after the reader stops', async () => {
      const store = open();
      await Promise.all(Array.from({ length: LIST_BATCH * 3 }, (_, i) => store.items.create({ name: `Item ${i}` })));
      ran.length = 0;
      const page = await store.items.list();
      const batchReads = () => ran.filter((sql) => RECORDS_IN_ORDER.test(sql)).length;
      expect([page.items.length, batchReads()]).toEqual([LIST_BATCH, 1]);
      expect(page.total).toBeGreaterThan(LIST_BATCH * 3);
      const seen: number[] = [];
      for await (const batch of page.rest!) {
        seen.push(batch.length);
        expect(batchReads()).toBe(seen.length + 1);
        if (seen.length === 2) break;
      }
      expect(seen).toEqual([LIST_BATCH, LIST_BATCH]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(batchReads()).toBe(3);
    });

    it('when a list of several batches is read again, then no statement runs, until a committed write makes it read the new list', async () => {
      const store = open();
      await Promise.all(Array.from({ length: LIST_BATCH * 3 }, (_, i) => store.items.create({ name: `Item ${i}` })));
      const first = await readAll(await store.items.list());
      ran.length = 0;
      expect(await readAll(await store.items.list())).toEqual(first);
      expect(ran).toEqual([]);
      const added = await store.items.create({ name: 'Added' });
      ran.length = 0;
      expect(await readAll(await store.items.list())).toEqual([...first, added]);
      expect(ran.filter((sql) => RECORDS_IN_ORDER.test(sql)).length).toBeGreaterThan(3);
    });

    it('when a page fits in one batch, then its records are read with the total, at once, and there is no rest', async () => {
      const store = open();
      await Promise.all(Array.from({ length: LIST_BATCH * 3 }, (_, i) => store.items.create({ name: `Item ${i}` })));
      const all = await readAll(await store.items.list());
      ran.length = 0;
      const page = await store.items.list({ limit: 50, offset: all.length - 20 });
      expect(ran.filter((sql) => RECORDS_IN_ORDER.test(sql))).toHaveLength(1);
      expect(page.items).toEqual(all.slice(-20));
      expect(page.rest).toBeUndefined();
      const tail = await store.items.list({ offset: all.length - LIST_BATCH });
      expect([tail.items, tail.rest]).toEqual([all.slice(-LIST_BATCH), undefined]);
    });

    it('when children of many parents are asked for, then one statement answers them, synchronously', async () => {
      const store = open();
      ran.length = 0;
      const byParent = store.posts.listByParents([1, 2, 3, 99]);
      expect(byParent).toBeInstanceOf(Map);
      expect(ran).toHaveLength(1);
    });
  });
}
