import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPostgresStore } from '../../src/store/postgres';
import { StorageUnavailableError } from '../../src/store/errors';
import { createPool } from '../../src/store/postgres/pool';
import { inTransaction } from '../../src/store/postgres/transaction';
import { loadSeed } from '../../src/store/seed';
import { TestDatabase, describePostgres, testDatabaseUrl } from '../support/postgres';
import { startTcpProxy, viaPort } from '../support/tcp-proxy';
import { freePort } from '../support/server-process';
import { contractSeed, storeContract } from './contract';
import { queryContract } from './query-contract';

describePostgres('PostgreSQL store: repository contract', () => {
  const db = new TestDatabase(testDatabaseUrl()!);
  storeContract((seed) => db.store(seed));
});

describePostgres('PostgreSQL store: lists as clients query them', () => {
  const db = new TestDatabase(testDatabaseUrl()!);
  queryContract((seed, model) => db.store(seed, { model }));
});

describePostgres('PostgreSQL store: migrations, seed and ids across restarts', () => {
  const db = new TestDatabase(testDatabaseUrl()!);
  const open = (schema: string, seed = contractSeed()) => createPostgresStore({ pool: db.shared(), schema, seed });

  it('when five instances start at once on a new database, then all start and the seed is loaded once', async () => {
    const schema = db.newSchema();
    const stores = await Promise.all(Array.from({ length: 5 }, () => open(schema)));
    expect((await stores[0].books.list()).total).toBe(3);
    expect((await stores[0].posts.list()).total).toBe(4);
    const { rows } = await db.shared().query(`SELECT version FROM "${schema}".schema_migrations`);
    expect(rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }]);
  });

  it('when the data set was seeded and then emptied, then a restart does not seed it again and ids continue', async () => {
    const schema = db.newSchema();
    const first = await open(schema);
    const made = await first.books.create({ title: 'Kindred', pages: 1 });
    for (const { id } of (await first.books.list()).items) await first.books.delete(id);
    const second = await open(schema);
    expect(await second.books.list()).toEqual({ items: [], total: 0, version: expect.any(String) });
    expect((await second.books.create({ title: 'Ubik', pages: 2 })).id).toBe(made.id + 1);
  });

  it('when a create fails in the database or its transaction is rolled back, then the next id leaves no gap', async () => {
    const store = await open(db.newSchema());
    const first = await store.books.create({ title: 'Kindred', pages: 1 });
    // U+0000 cannot be stored in a text column: the insert fails after its id was counted, in the same statement.
    await expect(store.books.create({ title: 'a\u0000b', pages: 1 })).rejects.toThrow();
    // An idempotent request whose answer is not kept rolls back its create.
    const rolledBack = await store.idempotent({ key: 'k', fingerprint: 'f', ttlMs: 60000 }, async (tx) => {
      await tx.books.create({ title: 'Rolled back', pages: 1 });
      return { status: 400, body: { error: 'no' } };
    });
    expect(rolledBack).toEqual({ outcome: 'done', answer: { status: 400, body: { error: 'no' } } });
    expect((await store.books.create({ title: 'Ubik', pages: 2 })).id).toBe(first.id + 1);
    expect((await store.books.list()).items.map((b) => b.title)).toEqual(['Dune', 'Beloved', 'Emma', 'Kindred', 'Ubik']);
  });

  it('when a database made by migration 1 (identity ids) is opened, then ids continue past every id its sequence gave', async () => {
    const schema = db.newSchema();
    const client = await db.shared().connect();
    try {
      await client.query(`CREATE SCHEMA "${schema}"; SET search_path TO "${schema}"`);
      // What migration 1 of an older version made: the collections' tables with identity ids.
      await client.query(readFileSync(path.join(__dirname, 'fixtures', 'postgres-migration-1.sql'), 'utf8'));
      await client.query(`CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
        INSERT INTO schema_migrations (version, name) VALUES (1, 'collections');
        INSERT INTO store_meta (key, value) VALUES ('seeded_at', now()::text);
        INSERT INTO books (title) VALUES ('a'), ('b'), ('c'), ('d');
        DELETE FROM books WHERE id = 4;`);
    } finally {
      await client.query('RESET search_path');
      client.release();
    }
    const store = await open(schema);
    expect((await store.books.create({ title: 'e', pages: 0 })).id).toBe(5);
    expect((await store.todos.create({ text: 't', done: false })).id).toBe(1);
  });

  it('when listByParents is called for many parents, then it runs exactly one SQL statement', async () => {
    const statements: string[] = [];
    const store = await createPostgresStore({ pool: db.shared(), schema: db.newSchema(), seed: loadSeed('default'), onQuery: (t) => statements.push(t) });
    const users = (await store.users.list()).items;
    statements.length = 0;
    const posts = [...(await store.posts.listByParents(users.map((u) => u.id))).values()].flat();
    await store.comments.listByParents(posts.map((p) => p.id));
    expect(posts.length).toBeGreaterThan(1);
    expect(statements).toHaveLength(2);
  });

  it('when the store owns its pool, then close ends it and a later call is refused as unavailable', async () => {
    const store = await createPostgresStore({ url: testDatabaseUrl()!, schema: db.newSchema(), seed: contractSeed() });
    await store.close();
    await expect(store.books.get(2)).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});

describePostgres('PostgreSQL store: when the database is unreachable', () => {
  const db = new TestDatabase(testDatabaseUrl()!);

  it('when nothing listens at the URL, then the start fails with StorageUnavailableError (it does not retry: the test\'s timeout would catch a loop)', async () => {
    const url = viaPort(testDatabaseUrl()!, await freePort());
    await expect(createPostgresStore({ url, seed: contractSeed() })).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('when the server ends a create transaction\'s connection between statements, then the create fails as unavailable and the process lives on', async () => {
    const pool = createPool(testDatabaseUrl()!);
    try {
      const attempt = inTransaction(pool, async (tx) => {
        const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await db.shared().query('SELECT pg_terminate_backend($1)', [pid]);
        // No statement is running while the server's error and the socket's end arrive.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.query('SELECT 1');
      });
      await expect(attempt).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(await pool.query('SELECT 1 AS one').then((r) => r.rows)).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('when the connection is cut, then calls reject with StorageUnavailableError, and succeed again once it is back', async () => {
    const target = new URL(testDatabaseUrl()!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const pool = createPool(viaPort(testDatabaseUrl()!, proxy.port));
    try {
      const schema = db.newSchema();
      const store = await createPostgresStore({ pool, schema, seed: contractSeed() });
      await store.books.get(2);
      proxy.cut();
      await expect(store.ping()).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(store.books.create({ title: 'Lost', pages: 1 })).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(store.books.list()).rejects.toBeInstanceOf(StorageUnavailableError);
      proxy.restore();
      await expect(store.ping()).resolves.toBeUndefined();
      expect((await store.books.list()).items.map((b) => b.title)).toEqual(['Dune', 'Beloved', 'Emma']);
    } finally {
      await pool.end();
      await proxy.close();
    }
  });
});
