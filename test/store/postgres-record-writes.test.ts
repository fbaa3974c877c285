import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import { StorageUnavailableError } from '../../src/store/errors';
import { writeRecord, type RecordWriteRunner } from '../../src/store/postgres/record-writes';
import { COMMIT_GRACE_MS, WRITE_BUDGET_MS } from '../../src/store/postgres/transaction';
import type { RecordWrite } from '../../src/store/sql/collection';
import { postgres } from '../../src/store/sql/dialect';
import { TableSql } from '../../src/store/sql/table';
import { specModel } from '../../src/store/model';
import { tableOf } from '../../src/store/tables';
import { STALE } from '../../src/store/types';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../support/postgres';
import { contractSeed } from './contract';

/**
 * A write to one record on PostgreSQL holds no lock between its read and its write (src/store/postgres/record-writes.ts).
 * Another writer changes the record right before the write is sent (synchronously, from another process, when the
 * store reports the UPDATE or DELETE it is about to send), so the write always finds the record changed.
 */
describePostgres('PostgreSQL store: a record changed between the read and the write of an update or a delete', () => {
  const db = new TestDatabase(testDatabaseUrl()!);

  /** A store on a new schema, and the statements it sends; `meanwhile` runs once, right before its first write of a record is sent. */
  const open = async (meanwhile: (schema: string) => string) => {
    const schema = db.newSchema();
    const sent: string[] = [];
    // Armed once the store is open: its set-up writes are not the write under test.
    let interfered = true;
    const store = await db.store(contractSeed(), {
      schema,
      onQuery: (text) => {
        const write = /^(update|delete)\b/i.test(text);
        sent.push(write ? text.split(' ')[0].toUpperCase() : /^select/i.test(text) ? 'SELECT' : text);
        if (write && !interfered) {
          interfered = true;
          const script = `const { Client } = require('pg'); const c = new Client(process.argv[1]);
            c.connect().then(() => c.query(process.argv[2])).then(() => c.end(), (e) => { console.error(e); process.exit(1); });`;
          execFileSync(process.execPath, ['-e', script, testDatabaseUrl()!, meanwhile(schema)], { stdio: 'inherit', timeout: 30000 });
        }
      },
    });
    sent.length = 0;
    interfered = false;
    return { store, sent };
  };

  it('when an update expects the record it read, then it is STALE, and the other writer\'s change stands', async () => {
    const { store } = await open((schema) => `UPDATE "${schema}".books SET pages = 999 WHERE id = 2`);
    expect(await store.books.update(2, { pages: 413 }, (current) => current.pages === 412)).toBe(STALE);
    expect(await store.books.get(2)).toEqual({ id: 2, title: 'Dune', pages: 999 });
  });

  it('when an update expects something of the record, then it reads it again and decides on the changed record', async () => {
    const { store, sent } = await open((schema) => `UPDATE "${schema}".books SET pages = 999 WHERE id = 2`);
    expect(await store.books.update(2, { title: 'Dune, again' }, (current) => current.title === 'Dune')).toEqual({ id: 2, title: 'Dune, again', pages: 999 });
    expect(sent).toEqual(['SELECT', 'UPDATE', 'SELECT', 'UPDATE']);
    expect(await store.books.get(2)).toEqual({ id: 2, title: 'Dune, again', pages: 999 });
  });

  it('when an update expects nothing, then it is made on the changed record without reading it again: both changes stand', async () => {
    const { store, sent } = await open((schema) => `UPDATE "${schema}".books SET pages = 999 WHERE id = 2`);
    expect(await store.books.update(2, { title: 'Dune, again' })).toEqual({ id: 2, title: 'Dune, again', pages: 999 });
    expect(sent).toEqual(['SELECT', 'UPDATE']);
    expect(await store.books.get(2)).toEqual({ id: 2, title: 'Dune, again', pages: 999 });
  });

  it('when a delete expects the record it read, then it is STALE, and the record stays as the other writer left it', async () => {
    const { store } = await open((schema) => `UPDATE "${schema}".tasks SET done = false WHERE id = 7`);
    expect(await store.tasks.delete(7, (current) => current.done)).toBe(STALE);
    expect(await store.tasks.get(7)).toEqual({ id: 7, title: 'Write tests', done: false });
  });

  it('when the other writer deletes the record, then the update answers no record, and none is made', async () => {
    const { store } = await open((schema) => `DELETE FROM "${schema}".books WHERE id = 2`);
    expect(await store.books.update(2, { pages: 413 }, () => true)).toBeUndefined();
    expect(await store.books.get(2)).toBeUndefined();
  });
});

describe('a record write\'s deadline (src/store/postgres/record-writes.ts, on a runner that records what it is given)', () => {
  /** The rows a record's read answers: id, a field, then the row version and the server's clock (ms). */
  const runner = (reads: { serverMs: number; tookMs: number }[], answers: unknown[][][]) => {
    const writes: { values: unknown[]; deadline: number; graceMs: number }[] = [];
    const sent: number[] = [];
    const on: RecordWriteRunner = {
      read: async () => {
        const { serverMs, tookMs } = reads.shift()!;
        sent.push(Date.now() - tookMs);
        return { rows: [[1, 'a', '700', serverMs]], sentAt: sent.at(-1)! };
      },
      write: async (_statement, values, deadline, graceMs) => {
        writes.push({ values, deadline, graceMs });
        return answers.shift()!;
      },
    };
    return { on, writes, sent };
  };
  const table = new TableSql(tableOf(specModel().resources.get('books')!), postgres, { of: () => sql`(SELECT 0 AS total, 'v' AS version)` }, 'books');
  const update = (check?: RecordWrite<unknown>['check']): RecordWrite<unknown> => ({
    check,
    statement: table.update(['title']),
    slots: [1, 'b'],
    written: (rows) => rows[0],
  });

  it('when the first read is made, then the server\'s deadline is its clock less the read\'s time plus the budget, the local one the send plus the budget', async () => {
    // This clock stands still (Date.now() is jest's), so the read took exactly its 100 ms.
    jest.useFakeTimers({ now: 1_000_000_000 });
    const { on, writes, sent } = runner([{ serverMs: 5_000_000, tookMs: 100 }], [[[1, 'b']]]);
    const answer = await writeRecord(on, table, 1, update(() => undefined)).finally(() => jest.useRealTimers());
    expect(answer).toEqual([1, 'b']);
    const [{ values, deadline, graceMs }] = writes;
    // As the statement binds them (SET title, WHERE id, then the row version, twice in the condition): the version read,
    // since the write was decided on the record; then the server's deadline.
    expect(values.slice(0, 4)).toEqual(['b', 1, '700', '700']);
    expect(values.at(-1)).toBe(5_000_000 - 100 + WRITE_BUDGET_MS);
    expect(deadline).toBe(sent[0] + WRITE_BUDGET_MS);
    expect(graceMs).toBe(COMMIT_GRACE_MS);
  });

  it('when a write decided on nothing is sent, then it names no version (any will do)', async () => {
    const { on, writes } = runner([{ serverMs: 5_000_000, tookMs: 0 }], [[[1, 'b']]]);
    await writeRecord(on, table, 1, update());
    expect(writes[0].values.slice(2, 4)).toEqual([null, null]);
  });

  it('when the write matched no row and the next read finds the server\'s clock past the deadline, then it fails as unavailable without writing again', async () => {
    const { on, writes } = runner(
      [
        { serverMs: 5_000_000, tookMs: 0 },
        { serverMs: 5_000_000 + WRITE_BUDGET_MS + 1, tookMs: 0 },
      ],
      [[]],
    );
    const failure = await writeRecord(on, table, 1, update(() => undefined)).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect((failure as StorageUnavailableError).outcomeUnknown).toBe(false);
    expect(writes).toHaveLength(1);
  });

  it('when the write matched no row and the next read, past the deadline, finds a record its check refuses, then the refusal is the answer', async () => {
    const { on, writes } = runner(
      [
        { serverMs: 5_000_000, tookMs: 0 },
        { serverMs: 5_000_000 + WRITE_BUDGET_MS + 1, tookMs: 0 },
      ],
      [[]],
    );
    let reads = 0;
    // Passes on the first read; the second finds the record changed (a failed If-Match: 412, not 503).
    const answer = await writeRecord(on, table, 1, update(() => (reads++ === 0 ? undefined : { result: 'stale' })));
    expect(answer).toBe('stale');
    expect(writes).toHaveLength(1);
  });

  it('when the write matched no row and the record is still in time, then it is read and written again', async () => {
    const { on, writes } = runner(
      [
        { serverMs: 5_000_000, tookMs: 0 },
        { serverMs: 5_000_010, tookMs: 0 },
      ],
      [[], [[1, 'b']]],
    );
    expect(await writeRecord(on, table, 1, update(() => undefined))).toEqual([1, 'b']);
    expect(writes).toHaveLength(2);
    // The deadline is the first read's.
    expect(writes[1].values.at(-1)).toBe(writes[0].values.at(-1));
  });
});
