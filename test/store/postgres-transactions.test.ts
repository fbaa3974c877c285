import type { Pool } from 'pg';
import { StorageUnavailableError } from '../../src/store/errors';
import { createPostgresStore } from '../../src/store/postgres';
import { createPool } from '../../src/store/postgres/pool';
import { inTransaction } from '../../src/store/postgres/transaction';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../support/postgres';
import { contractSeed } from './contract';

/** The server process of the pool's only connection. */
const backend = async (pool: Pool) => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

describePostgres('PostgreSQL store: the connection of a failed write', () => {
  const db = new TestDatabase(testDatabaseUrl()!);
  let pool: Pool;
  beforeEach(() => {
    pool = createPool(testDatabaseUrl()!, undefined, { max: 1 });
  });
  afterEach(async () => {
    await pool.end();
  });

  it('when a keyed create is not kept (its answer is not 2xx), then it is rolled back and its connection goes back to the pool', async () => {
    const store = await createPostgresStore({ pool, schema: db.newSchema(), seed: contractSeed() });
    const before = await backend(pool);
    const outcome = await store.idempotent({ key: 'k1', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
      await tx.books.create({ title: 'Not kept', pages: 1 });
      return { status: 422, body: { error: 'no' } };
    });
    expect(outcome).toEqual({ outcome: 'done', answer: { status: 422, body: { error: 'no' } } });
    expect(await backend(pool)).toBe(before);
    expect((await store.books.list()).total).toBe(3);
    await store.close();
  });

  it('when the server refuses a statement of a keyed create, then the create fails, and its connection goes back to the pool', async () => {
    const store = await createPostgresStore({ pool, schema: db.newSchema(), seed: contractSeed() });
    const before = await backend(pool);
    const attempt = store.idempotent({ key: 'k2', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
      await tx.books.create({ title: 'a\u0000b', pages: 1 });
      return { status: 201 };
    });
    await expect(attempt).rejects.toMatchObject({ code: '22021' });
    expect(await backend(pool)).toBe(before);
    expect((await store.books.create({ title: 'Next', pages: 1 })).id).toBe(6);
    await store.close();
  });

  it('when a statement of a transaction goes unanswered in time, then its state is unknown and the connection is destroyed', async () => {
    const before = await backend(pool);
    // The statement waits for a lock the test holds until the end: it cannot answer within any budget, however
    // slow the machine (a pg_sleep of a few seconds could race the budget's timer on a stalled event loop).
    const holder = createPool(testDatabaseUrl()!, undefined, { max: 1 });
    const held = await holder.connect();
    try {
      await held.query('SELECT pg_advisory_lock(35035)');
      const attempt = inTransaction(pool, (tx) => tx.query('SELECT pg_advisory_lock(35035)'), { budgetMs: 300 });
      await expect(attempt).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(await backend(pool)).not.toBe(before);
    } finally {
      await held.query('SELECT pg_advisory_unlock_all()');
      held.release();
      await holder.end();
    }
  });
});
