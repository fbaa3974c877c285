import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createHttpServer } from '../../src/http/http-server';
import { createLogger } from '../../src/logger';
import { createPostgresStore } from '../../src/store/postgres';
import { createPool, ident } from '../../src/store/postgres/pool';
import { loadSeed } from '../../src/store/seed';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../support/postgres';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it is true (the jest timeout catches a hang). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await sleep(10);
}

describePostgres('PostgreSQL: a request whose client goes away while it waits for a connection', () => {
  const db = new TestDatabase(testDatabaseUrl()!);

  it('when the client disconnects while its request is queued, then the request leaves the queue and never runs a statement', async () => {
    const schema = db.newSchema();
    const pool = createPool(testDatabaseUrl()!, undefined, { max: 1 });
    const admin = new Client({ connectionString: testDatabaseUrl() });
    const lists: string[] = [];
    const logs: Record<string, unknown>[] = [];
    const store = await createPostgresStore({ pool, schema, seed: loadSeed('default'), onQuery: (text) => text.includes('collection_writes') && lists.push(text) });
    const app = createApp({ store, config: testConfig(), logger: createLogger('debug', (line) => logs.push(JSON.parse(line))) });
    const server = createHttpServer(app, testConfig());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await admin.connect();
      await admin.query('BEGIN');
      await admin.query(`LOCK TABLE ${ident(schema)}.books IN ACCESS EXCLUSIVE MODE`);
      // The only connection runs a list that waits for the lock.
      const running = fetch(`${base}/books`);
      await until(() => lists.length === 1);
      // This one waits in the queue for that connection; then its client gives up.
      const client = new AbortController();
      const gone = fetch(`${base}/books`, { signal: client.signal }).catch((err: unknown) => err);
      await until(() => store.poolStats().waiting === 1);
      client.abort();
      await gone;
      await until(() => store.poolStats().waiting === 0);

      await admin.query('COMMIT');
      expect((await running).status).toBe(200);
      await until(() => logs.filter((line) => line.msg === 'request').length === 2);
      // Only the first list ever ran; the abandoned request is logged as aborted.
      expect(lists).toHaveLength(1);
      expect(logs.filter((line) => line.msg === 'request' && line.aborted === true)).toHaveLength(1);
      expect(store.poolStats()).toEqual({ size: 1, idle: 1, waiting: 0 });
    } finally {
      await admin.end();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      await pool.end();
    }
  });
});
