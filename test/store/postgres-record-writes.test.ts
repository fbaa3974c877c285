import { execFileSync } from 'node:child_process';
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
