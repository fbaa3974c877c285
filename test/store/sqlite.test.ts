import { SCHEMA_VERSION } from '../../src/store/sqlite/schema';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DRIVER_ORDER, driverRuns, loadDriver, NoDriverError } from '../../src/store/sqlite/driver';
import { StoreSetupError } from '../../src/store/sqlite/errors';
import { SqliteFiles, describeDriver } from '../support/sqlite';
import { contractSeed, storeContract } from './contract';
import { queryContract } from './query-contract';

describe('SQLite drivers', () => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13);

  it('when no driver is named, then better-sqlite3 serves where it runs (Node 20 to 23, built), else node:sqlite', () => {
    expect(loadDriver().name).toBe(major < 24 && driverRuns('better-sqlite3') ? 'better-sqlite3' : 'node:sqlite');
    if (!hasNodeSqlite) expect(loadDriver().name).toBe('better-sqlite3');
    if (major >= 24) expect(loadDriver().name).toBe('node:sqlite');
  });

  // node:sqlite before Node 22.13; better-sqlite3 12 on Node 24 and later (both run on 22.13 to 23).
  const absent = !hasNodeSqlite ? 'node:sqlite' : major >= 24 ? 'better-sqlite3' : undefined;
  (absent ? it : it.skip)(`when ${absent} is named on Node ${major}, then one line says why and what to do`, () => {
    const refusal = () => loadDriver(absent);
    expect(refusal).toThrow(NoDriverError);
    expect(refusal).toThrow(absent === 'node:sqlite' ? /has no node:sqlite \(Node 22\.13\+ and 24 have it\)/ : /better-sqlite3 12 aborts the process on Node \d+ \(nodejs\/node#65446\)/);
    expect(refusal).toThrow(/or set STORE=memory$/);
  });
});

for (const driver of DRIVER_ORDER) {
  describeDriver(`SQLite store (${driver}): repository contract`, driver, () => {
    const files = new SqliteFiles();
    storeContract(async (seed) => files.store(seed, { driver }));
  });

  describeDriver(`SQLite store (${driver}): lists as clients query them`, driver, () => {
    const files = new SqliteFiles();
    queryContract(async (seed, model) => files.store(seed, { driver, model }));
  });

  describeDriver(`SQLite store (${driver}): the file across restarts`, driver, () => {
    const files = new SqliteFiles();
    const open = (file: string, seed = contractSeed()) => files.store(seed, { driver, file });

    it('when the file and its folder do not exist, then both are made and the seed is loaded', async () => {
      const file = path.join(files.dir, 'new', 'folder', 'service.sqlite');
      const store = open(file);
      expect(existsSync(file)).toBe(true);
      expect((await store.books.list()).items.map((b) => b.id)).toEqual([2, 3, 5]);
      expect(store.driver).toBe(driver);
    });

    it('when the file was seeded and then emptied, then a restart does not seed it again and ids continue', async () => {
      const file = files.newFile();
      const first = open(file);
      const made = await first.books.create({ title: 'Kindred', pages: 1 });
      for (const { id } of (await first.books.list()).items) await first.books.delete(id);
      await first.close();
      const second = open(file);
      expect(await second.books.list()).toMatchObject({ items: [], total: 0 });
      expect((await second.books.create({ title: 'Ubik', pages: 2 })).id).toBe(made.id + 1);
    });

    it('when the newest record is deleted before a restart, then its id is not given again after it', async () => {
      const file = files.newFile();
      const first = open(file);
      const made = await first.tasks.create({ title: 'Temporary', done: false });
      await first.tasks.delete(made.id);
      await first.close();
      expect((await open(file).tasks.create({ title: 'Next', done: true })).id).toBe(made.id + 1);
    });

    it('when the store is opened again, then no list version of before comes back, whatever is written after', async () => {
      const file = files.newFile();
      const first = open(file);
      const before = [(await first.books.list()).version];
      await first.books.create({ title: 'Kindred', pages: 1 });
      before.push((await first.books.list()).version);
      await first.close();
      const second = open(file);
      const after = [(await second.books.list()).version];
      await second.books.create({ title: 'Ubik', pages: 2 });
      after.push((await second.books.list()).version);
      expect(after.filter((version) => before.includes(version))).toEqual([]);
    });

    it('when an answer was kept under an Idempotency-Key, then it is replayed after a restart; an answer not kept rolled its create back', async () => {
      const file = files.newFile();
      const first = open(file);
      const request = { key: 'k-1', fingerprint: 'f-1', ttlMs: 60000 };
      const done = await first.idempotent(request, async (tx) => ({ status: 201, body: await tx.books.create({ title: 'Kept', pages: 1 }) }));
      const refused = await first.idempotent({ ...request, key: 'k-2' }, async (tx) => {
        await tx.books.create({ title: 'Rolled back', pages: 1 });
        return { status: 400, body: { error: 'no' } };
      });
      expect(refused).toEqual({ outcome: 'done', answer: { status: 400, body: { error: 'no' } } });
      await first.close();
      const second = open(file);
      expect(await second.idempotent(request, async () => ({ status: 500 }))).toEqual({ outcome: 'replay', answer: (done as { answer: unknown }).answer });
      expect(await second.idempotent({ ...request, fingerprint: 'other' }, async () => ({ status: 500 }))).toEqual({ outcome: 'mismatch' });
      expect((await second.books.list()).items.map((b) => b.title)).toEqual(['Dune', 'Beloved', 'Emma', 'Kept']);
      expect((await second.books.create({ title: 'Next', pages: 1 })).id).toBe(7);
    });

    it('when another store holds the file, then opening it is refused with one line naming the file and PostgreSQL; once closed, it opens', async () => {
      const file = files.newFile();
      const first = open(file);
      expect(() => open(file)).toThrow(StoreSetupError);
      expect(() => open(file)).toThrow(`SQLITE_FILE ${file} is in use by another service process (one process per file; to run several, use PostgreSQL: DATABASE_URL)`);
      await first.close();
      expect((await open(file).books.get(2))?.title).toBe('Dune');
    });

    it('when the file is not a SQLite database, or was written by a newer schema, then opening is refused with one line and the file is left as it was', async () => {
      const text = files.newFile();
      const content = 'just some text, long enough to fill a header of one hundred bytes '.repeat(3);
      writeFileSync(text, content);
      expect(() => open(text)).toThrow(`SQLITE_FILE ${text} is not a SQLite database`);
      expect(readFileSync(text, 'utf8')).toBe(content);
      const newer = files.newFile();
      const db = loadDriver(driver).open(newer);
      db.exec('PRAGMA user_version = 99');
      db.close();
      expect(() => open(newer)).toThrow(`SQLITE_FILE ${newer} was written by a newer version of the service (schema 99; this one knows up to ${SCHEMA_VERSION})`);
      const check = loadDriver(driver).open(newer);
      expect(check.prepare("SELECT count(*) AS tables FROM sqlite_schema WHERE type = 'table'").get()).toEqual(expect.objectContaining({ tables: 0 }));
      check.close();
    });

    it('when text holds a NUL, then it is kept exactly; an unpaired surrogate (which SQLite would store changed) is refused and nothing is stored', async () => {
      const store = open(files.newFile());
      const made = await store.notes.create({ body: 'a\u0000b \u{1F600}' });
      expect((await store.notes.get(made.id))?.body).toBe('a\u0000b \u{1F600}');
      await expect(store.notes.create({ body: 'x\uD800y' })).rejects.toThrow('body holds an unpaired surrogate');
      await expect(store.notes.update(made.id, { body: '\uDC00' })).rejects.toThrow(TypeError);
      expect((await store.notes.list()).items.map((n) => n.body)).toEqual(['Call the plumber', 'a\u0000b \u{1F600}']);
    });

    it('when the store is closed, then calls are refused as storage unavailable', async () => {
      const store = open(files.newFile());
      await store.close();
      await expect(store.books.get(2)).rejects.toThrow('Storage is unreachable');
      await expect(store.books.create({ title: 'Late', pages: 1 })).rejects.toThrow('Storage is closed');
      await expect(store.ping()).rejects.toThrow('Storage is unreachable');
    });
  });
}
