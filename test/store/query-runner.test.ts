import type { Pool } from 'pg';
import { StorageUnavailableError } from '../../src/store/errors';
import { queryRunner } from '../../src/store/postgres/pool';
import { WaitQueue } from '../../src/store/postgres/queue';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

/** A pool whose next statement fails with `failure` once `fail()` is called, and that records the statements it ran. */
function fakePool(failure: Error) {
  const ran: string[] = [];
  let fail!: () => void;
  const failed = new Promise<void>((resolve) => (fail = resolve));
  const pool = {
    query: async (text: string) => {
      ran.push(text);
      if (text === 'first') {
        await failed;
        throw failure;
      }
      return { rows: [{ text }] };
    },
  } as unknown as Pool;
  return { pool, ran, fail };
}

describe('queryRunner (statements through the wait queue)', () => {
  it('when a statement finds the database down, then the statements waiting behind it fail at once with StorageUnavailableError, unrun', async () => {
    const { pool, ran, fail } = fakePool(withCode('ECONNREFUSED'));
    const db = queryRunner(pool, new WaitQueue({ size: 1, limit: 10, timeoutMs: 60000 }));
    const first = db.query('first').catch((err: unknown) => err);
    const waiting = ['second', 'third'].map((text) => db.query(text).catch((err: unknown) => err));
    fail();
    expect(await first).toBeInstanceOf(StorageUnavailableError);
    for (const outcome of await Promise.all(waiting)) expect(outcome).toBeInstanceOf(StorageUnavailableError);
    expect(ran).toEqual(['first']);
  });

  it('when a statement only ran past statement_timeout (57014; the database is up), then it fails alone and the waiting ones still run', async () => {
    const { pool, ran, fail } = fakePool(withCode('57014', 'canceling statement due to statement timeout'));
    const db = queryRunner(pool, new WaitQueue({ size: 1, limit: 10, timeoutMs: 60000 }));
    const first = db.query('first').catch((err: unknown) => err);
    const waiting = ['second', 'third'].map((text) => db.query(text));
    fail();
    expect(await first).toBeInstanceOf(StorageUnavailableError);
    expect(await Promise.all(waiting)).toEqual([[{ text: 'second' }], [{ text: 'third' }]]);
    expect(ran).toEqual(['first', 'second', 'third']);
  });

  it('when a statement fails for its own reason (a bug, a constraint), then it fails as itself and the waiting ones still run', async () => {
    const bug = withCode('42601', 'syntax error');
    const { pool, ran, fail } = fakePool(bug);
    const db = queryRunner(pool, new WaitQueue({ size: 1, limit: 10, timeoutMs: 60000 }));
    const first = db.query('first').catch((err: unknown) => err);
    const second = db.query('second');
    fail();
    expect(await first).toBe(bug);
    await expect(second).resolves.toEqual([{ text: 'second' }]);
    expect(ran).toEqual(['first', 'second']);
  });
});
