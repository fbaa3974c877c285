import type { Pool } from 'pg';
import { OverloadedError, StorageUnavailableError } from '../../src/store/errors';
import { onClient, prepared, queryRunner } from '../../src/store/postgres/pool';
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

/**
 * A pool for `commit`: `hold` keeps the one slot of the queue busy until `release()`; its connection answers the write
 * with `answer` (rows, or an error thrown), and says how it was given back (`released`: undefined, or the error that
 * destroys it). `connect` fails with `connectFailure` when one is given.
 */
function writePool(answer: () => Promise<unknown[]>, connectFailure?: Error) {
  const sent: string[] = [];
  const released: unknown[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const client = {
    on: () => client,
    off: () => client,
    query: async (config: { text: string }) => {
      sent.push(config.text);
      return { rows: await answer() };
    },
    release: (err?: unknown) => released.push(err),
  };
  const pool = {
    query: async () => {
      await held;
      return { rows: [] };
    },
    connect: async () => {
      if (connectFailure) throw connectFailure;
      return client;
    },
  } as unknown as Pool;
  return { pool, sent, released, release };
}

describe('queryRunner.commit (a write that is its own transaction)', () => {
  const write = prepared('UPDATE t SET x = $1');
  const queue = () => new WaitQueue({ size: 1, limit: 10, timeoutMs: 60000 });

  it('when its turn for a connection comes after its deadline, then it is not sent and fails as busy', async () => {
    const { pool, sent, release } = writePool(async () => [{ x: 1 }]);
    const db = queryRunner(pool, queue());
    const holding = db.query('hold');
    const late = db.commit(write, [1], Date.now() + 20, 2000).catch((err: unknown) => err);
    await new Promise((resolve) => setTimeout(resolve, 60));
    release();
    await holding;
    expect(await late).toBeInstanceOf(OverloadedError);
    expect(sent).toEqual([]);
  });

  it('when it is answered, then it answers its rows and its connection goes back to the pool', async () => {
    const { pool, sent, released } = writePool(async () => [{ x: 1 }]);
    expect(await queryRunner(pool, queue()).commit(write, [1], Date.now() + 1000, 2000)).toEqual([{ x: 1 }]);
    expect([sent, released]).toEqual([[write.text], [undefined]]);
  });

  it('when no connection can be made, then nothing was sent: it fails as unavailable with its outcome known', async () => {
    const { pool, sent } = writePool(async () => [], withCode('ECONNREFUSED'));
    const failure = await queryRunner(pool, queue()).commit(write, [1], Date.now() + 1000, 2000).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect((failure as StorageUnavailableError).outcomeUnknown).toBe(false);
    expect(sent).toEqual([]);
  });

  it.each([
    ['no answer in time', new Error('Query read timeout')],
    ['the connection cut (ECONNRESET)', withCode('ECONNRESET')],
    ['the socket closed as it was written (EPIPE: five letters, but no server answer)', withCode('EPIPE')],
  ])('when it was sent and got %s, then its outcome is unknown and its connection is destroyed', async (_case, error) => {
    const { pool, released } = writePool(async () => {
      throw error;
    });
    const failure = await queryRunner(pool, queue()).commit(write, [1], Date.now() + 1000, 2000).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect((failure as StorageUnavailableError).outcomeUnknown).toBe(true);
    expect(released).toEqual([error]);
  });

  it('when the server refuses it (an SQLSTATE with a severity), then it fails as itself and its connection is kept', async () => {
    const refusal = Object.assign(withCode('23505', 'duplicate key'), { severity: 'ERROR' });
    const { pool, released } = writePool(async () => {
      throw refusal;
    });
    await expect(queryRunner(pool, queue()).commit(write, [1], Date.now() + 1000, 2000)).rejects.toBe(refusal);
    expect(released).toEqual([undefined]);
  });
});

describe('onClient (a connection checked out for some work, then given back)', () => {
  /** A pool of one connection that records how each checkout was given back: `reused`, or `destroyed` with what. */
  function onePool() {
    const returns: string[] = [];
    const client = {
      on: () => client,
      off: () => client,
      release: (destroy?: unknown) => returns.push(destroy ? 'destroyed' : 'reused'),
    };
    return { pool: { connect: async () => client } as unknown as Pool, returns };
  }

  it('when the work succeeds, then the connection is reused', async () => {
    const { pool, returns } = onePool();
    await expect(onClient(pool, async () => 'done', () => false)).resolves.toBe('done');
    expect(returns).toEqual(['reused']);
  });

  it('when the work fails with the connection in a known state, then it is reused and the failure is the answer', async () => {
    const { pool, returns } = onePool();
    const failure = new Error('refused');
    await expect(onClient(pool, async () => Promise.reject(failure), () => true)).rejects.toBe(failure);
    expect(returns).toEqual(['reused']);
  });

  it('when the work fails and its state is unknown, or the check of its state fails itself, then it is destroyed and the work\'s failure is the answer', async () => {
    const { pool, returns } = onePool();
    const failure = new Error('no answer');
    await expect(onClient(pool, async () => Promise.reject(failure), () => false)).rejects.toBe(failure);
    await expect(
      onClient(
        pool,
        async () => Promise.reject(failure),
        () => {
          throw new Error('the rollback failed');
        },
      ),
    ).rejects.toBe(failure);
    expect(returns).toEqual(['destroyed', 'destroyed']);
  });
});
