import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createStore } from '../../src/store';
import { specModel } from '../../src/store/model';
import { Pool } from 'pg';
import { describePostgres, testDatabaseUrl } from '../support/postgres';

/** Issue 35: each change a store makes at start to follow the contract is one log line (collection, field, what was done). */

/** A store as `npm start` makes it, with the log lines it wrote. */
async function started(config: Parameters<typeof testConfig>[0]) {
  const lines: Record<string, unknown>[] = [];
  const store = await createStore(testConfig({ seed: 'empty', ...config }), createLogger('info', (line) => lines.push(JSON.parse(line))));
  await store.close();
  return lines.filter((line) => line.msg === 'storage: contract change applied');
}

/** What a first start logs: each collection made, and each query index, one line each. */
function firstStart(lines: Record<string, unknown>[]): void {
  const collections = [...specModel().resources.keys()];
  expect(lines.filter((l) => l.field === undefined).map((l) => [l.collection, l.change])).toEqual(collections.map((name) => [name, `${name}: new collection`]));
  expect(lines).toContainEqual(expect.objectContaining({ level: 'info', collection: 'books', change: 'books: new collection' }));
  expect(lines).toHaveLength(collections.length);
}

describe('a store logs each change it makes at start', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'change-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when SQLite opens a new file, then it logs one line per collection it makes, and none when the file already follows the contract', async () => {
    const file = path.join(dir, 'service.sqlite');
    firstStart(await started({ store: 'sqlite', sqliteFile: file }));
    expect(await started({ store: 'sqlite', sqliteFile: file })).toEqual([]);
  });
});

describePostgres('PostgreSQL logs each change it makes at start', () => {
  const name = `change_log_${process.pid}`;
  const admin = new Pool({ connectionString: testDatabaseUrl(), max: 1 });
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('when PostgreSQL starts on a new database, then it logs one line per collection it makes, and none the next time', async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(testDatabaseUrl()!);
    url.pathname = `/${name}`;
    firstStart(await started({ store: 'postgres', databaseUrl: url.toString() }));
    expect(await started({ store: 'postgres', databaseUrl: url.toString() })).toEqual([]);
  });
});
