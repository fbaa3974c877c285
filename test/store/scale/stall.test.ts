import { execFileSync } from 'node:child_process';
import { Pool } from 'pg';
import { StorageUnavailableError } from '../../../src/store/errors';
import { createPostgresStore } from '../../../src/store/postgres';
import { POOL_SETTINGS } from '../../../src/store/postgres/pool';
import { inTransaction } from '../../../src/store/postgres/transaction';
import { loadSeed } from '../../../src/store/seed';
import type { Store } from '../../../src/store/types';
import { makeApp } from '../../support/app';
import { OUTCOME_UNKNOWN_REPEATABLE } from '../../../src/http/idempotency';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../../support/postgres';

const control = (action: 'pause' | 'resume' | 'crash' | 'start') =>
  execFileSync(process.env.TEST_PG_CONTROL!, [action], { stdio: 'inherit', timeout: 60000 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describePostgres(
  'PostgreSQL frozen (SIGSTOP) or crashed while writing',
  () => {
    const db = new TestDatabase(testDatabaseUrl()!);
    const stores: Store[] = [];
    /** A store with the service's own pool settings (short timeouts), on a fresh schema. */
    const open = async (schema = db.newSchema()) => {
      const store = await createPostgresStore({ url: testDatabaseUrl()!, schema, seed: loadSeed('default') });
      stores.push(store);
      return store;
    };
    /** Waits until every other backend of the service has finished what it was sent (statements held while frozen). */
    const settled = async () => {
      for (;;) {
        const { rows } = await db
          .shared()
          .query(`SELECT count(*)::int AS busy FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid() AND state <> 'idle'`, [
            POOL_SETTINGS.application_name,
          ]);
        if (rows[0].busy === 0) return;
        await sleep(100);
      }
    };

    afterEach(() => {
      // Never leave the cluster frozen for the next test, whatever failed.
      try {
        control('resume');
      } catch {
        // not paused
      }
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
    });

    it('when the database is frozen, then a create answers 503 "nothing stored", nothing is stored after it resumes, and the retry with the key creates one record', async () => {
      const store = await open();
      const { http } = makeApp({ store });
      await http.get('/books').expect(200);
      const before = (await store.books.list()).items;

      control('pause');
      const withKey = await http.post('/books').set('Idempotency-Key', 'stall-1').send({ title: 'Stalled' });
      const withoutKey = await http.post('/books').send({ title: 'Stalled too' });
      control('resume');

      expect([withKey.status, withKey.body, withKey.headers['retry-after']]).toEqual([503, { error: 'Service unavailable' }, '1']);
      expect([withoutKey.status, withoutKey.body]).toEqual([503, { error: 'Service unavailable' }]);
      await settled();
      expect((await store.books.list()).items).toEqual(before);

      const retried = await http.post('/books').set('Idempotency-Key', 'stall-1').send({ title: 'Stalled' }).expect(201);
      const replayed = await http.post('/books').set('Idempotency-Key', 'stall-1').send({ title: 'Stalled' }).expect(201);
      expect(replayed.body).toEqual(retried.body);
      const after = (await store.books.list()).items;
      expect(after).toEqual([...before, retried.body]);
      // Gapless: the cancelled creates consumed no id.
      expect(retried.body.id).toBe(Math.max(...before.map((b) => b.id)) + 1);
    }, 120000);

    it('when the database is frozen, then an update and a delete answer 503 "nothing changed", and nothing is changed after it resumes', async () => {
      const store = await open();
      const { http } = makeApp({ store });
      await http.get('/books/1').expect(200);
      const before = (await store.books.list()).items;

      control('pause');
      const put = await http.put('/books/1').send({ title: 'Renamed while frozen', pages: 1 });
      const del = await http.delete('/books/2');
      control('resume');

      expect([put.status, put.body, put.headers['retry-after']]).toEqual([503, { error: 'Service unavailable' }, '1']);
      expect([del.status, del.body]).toEqual([503, { error: 'Service unavailable' }]);
      await settled();
      expect((await store.books.list()).items).toEqual(before);
      // And the repeated requests do what they say.
      await http.put('/books/1').send({ title: 'Renamed', pages: 1 }).expect(200);
      await http.delete('/books/2').expect(204);
      expect((await store.books.get(1))?.title).toBe('Renamed');
      expect(await store.books.get(2)).toBeUndefined();
    }, 120000);

    it('when the database freezes after COMMIT was sent, then the error says the outcome is unknown, and the late COMMIT is refused by the deadline', async () => {
      const schema = db.newSchema();
      const store = await open(schema);
      const before = (await store.books.list()).items;
      // The service's own pool settings, and the service's transaction with a short budget.
      const pool = new Pool({ connectionString: testDatabaseUrl(), ...POOL_SETTINGS });
      pool.on('error', () => undefined);
      try {
        const attempt = inTransaction(
          pool,
          async (tx) => {
            await tx.query(`INSERT INTO "${schema}".books (id, title) VALUES (1000, 'Late')`);
            control('pause');
          },
          { budgetMs: 1000 },
        );
        const failure = await attempt.then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(failure).toBeInstanceOf(StorageUnavailableError);
        expect((failure as StorageUnavailableError).outcomeUnknown).toBe(true);
        control('resume');
        await settled();
        expect((await store.books.list()).items).toEqual(before);
      } finally {
        await pool.end();
      }
    }, 120000);

    it('when the database freezes after an update was sent, then the PUT answers 503 "outcome unknown", and the late write is refused by its deadline', async () => {
      let freezeAtWrite = false;
      const store = await createPostgresStore({
        url: testDatabaseUrl()!,
        schema: db.newSchema(),
        seed: loadSeed('default'),
        // Called as the statement is about to be sent: the server stops with the UPDATE on its way.
        onQuery: (text) => {
          if (freezeAtWrite && /^update/i.test(text)) {
            freezeAtWrite = false;
            control('pause');
          }
        },
      });
      stores.push(store);
      const { http } = makeApp({ store });
      const before = (await http.get('/books/1').expect(200)).body;

      freezeAtWrite = true;
      const put = await http.put('/books/1').send({ title: 'Written late', pages: 1 });
      control('resume');

      expect([put.status, put.body, put.headers['retry-after']]).toEqual([503, { error: OUTCOME_UNKNOWN_REPEATABLE }, '1']);
      await settled();
      expect((await http.get('/books/1').expect(200)).body).toEqual(before);
    }, 120000);

    it('when the database crashes (immediate stop) and restarts, then the next id is the previous largest + 1', async () => {
      const schema = db.newSchema();
      const store = await open(schema);
      const made = await store.books.create({ title: 'Before crash', pages: 1 });
      control('crash');
      control('start');
      const restarted = await open(schema);
      expect((await restarted.books.create({ title: 'After crash', pages: 1 })).id).toBe(made.id + 1);
    }, 120000);
  },
  ['TEST_DATABASE_URL', 'TEST_PG_CONTROL'],
);
