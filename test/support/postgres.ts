import type { ListQuery } from '../../src/store/query';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { createPostgresStore, type PostgresStoreOptions } from '../../src/store/postgres';
import { createPool, ident } from '../../src/store/postgres/pool';
import type { ChildCollection, Collection, Expect, SeedData, Store } from '../../src/store/types';

/** The database the PostgreSQL suites use; unset means they are skipped. scripts/with-postgres.sh sets it. */
export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL?.trim() || undefined;
}

/**
 * `describe` when TEST_DATABASE_URL is set; otherwise `describe.skip` and one plain line saying
 * which suite was skipped and why.
 */
export function describePostgres(name: string, fn: () => void, needs: string[] = ['TEST_DATABASE_URL']): void {
  const missing = needs.filter((variable) => !process.env[variable]?.trim());
  if (missing.length === 0) return describe(name, fn);
  process.stderr.write(`SKIPPED PostgreSQL suite "${name}": ${missing.join(' and ')} not set (scripts/with-postgres.sh sets it).\n`);
  describe.skip(name, fn);
}

/**
 * Test databases for one test file: one pool, one fresh schema per store, all dropped in afterAll.
 * Create it at the top of a test file (or a describe), where afterAll can be registered.
 */
export class TestDatabase {
  private pool: Pool | undefined;
  private readonly schemas: string[] = [];
  private readonly prefix = `t_${randomBytes(4).toString('hex')}`;

  constructor(private readonly url: string) {
    afterAll(() => this.dispose());
  }

  /** A PostgreSQL store on a new, empty schema, migrated and seeded. */
  async store(seed: SeedData, options: Partial<PostgresStoreOptions> = {}): Promise<Store> {
    const schema = this.newSchema();
    return createPostgresStore({ pool: this.shared(), schema, seed, ...options });
  }

  /** A schema name that dispose() will drop. */
  newSchema(): string {
    const schema = `${this.prefix}_${this.schemas.length + 1}`;
    this.schemas.push(schema);
    return schema;
  }

  shared(): Pool {
    // The functional suites share one pool per file while jest runs files in parallel on a small
    // machine: give connections and statements (schema set-up) room, so load is not mistaken for an
    // outage. The outage tests build their own pools with the service's short timeouts.
    this.pool ??= createPool(this.url, undefined, { connectionTimeoutMillis: 20000, statement_timeout: 30000, query_timeout: 35000 });
    return this.pool;
  }

  private async dispose(): Promise<void> {
    if (!this.pool) return;
    // A few schemas per statement: a file that made hundreds of stores drops them within afterAll's time
    // on a busy machine, and one transaction never holds more locks than the server has room for.
    for (let i = 0; i < this.schemas.length; i += 10) {
      await this.pool.query(`DROP SCHEMA IF EXISTS ${this.schemas.slice(i, i + 10).map(ident).join(', ')} CASCADE`);
    }
    await this.pool.end();
  }
}

type AnyCollection = Collection<{ id: number }> & Partial<ChildCollection<{ id: number }, 'id'>>;

/** A collection whose calls wait for the real one: lets synchronous helpers hand out a store built asynchronously. */
function lazyCollection(ready: Promise<Store>, name: keyof Store, parentKey?: string): AnyCollection {
  const target = async () => (await ready)[name] as unknown as AnyCollection;
  return {
    parentKey: parentKey as 'id' | undefined,
    list: (async (query?: ListQuery) => (await target()).list(query!)) as AnyCollection['list'],
    get: async (id) => (await target()).get(id),
    create: async (data) => (await target()).create(data),
    // Every argument passes on: a dropped `expect` would turn conditional writes into plain ones.
    update: (async (id: number, patch: object, expect?: Expect<{ id: number }>) => (await target()).update(id, patch, expect)) as AnyCollection['update'],
    delete: (async (id: number, expect?: Expect<{ id: number }>) => (await target()).delete(id, expect)) as AnyCollection['delete'],
    listByParents: async (ids) => (await target()).listByParents!(ids),
  };
}

/** A Store usable at once, backed by the store `ready` resolves to. */
export function lazyStore(ready: Promise<Store>, kind: Store['kind']): Store {
  // An unobserved failure would be reported as unhandled; the first call reports it instead.
  ready.catch(() => undefined);
  const lazy = (name: keyof Store, parentKey?: string) => lazyCollection(ready, name, parentKey) as never;
  return {
    kind,
    books: lazy('books'),
    todos: lazy('todos'),
    notes: lazy('notes'),
    items: lazy('items'),
    tasks: lazy('tasks'),
    users: lazy('users'),
    posts: lazy('posts', 'userId'),
    comments: lazy('comments', 'postId'),
    // As the stores' own: the property of that name, so a store made from this one by replacing a collection answers the replacement.
    collection: function (this: Record<string, unknown>, name: string) {
      return this[name] ?? lazy(name as keyof Store);
    } as Store['collection'],
    idempotent: async (request, work) => (await ready).idempotent(request, work),
    ping: async () => (await ready).ping(),
    close: async () => (await ready).close(),
  };
}
