import type { Pool } from 'pg';
import type { SeedData, Store } from '../types';
import { PgChildCollection, PgCollection } from './collection';
import { createPool, queryRunner, translate } from './pool';
import { prepareDatabase } from './setup';
import { TABLES } from './tables';

export interface PostgresStoreOptions {
  /** postgres:// URL; the store owns (and closes) the pool it makes. */
  url?: string;
  /** Or an existing pool, which the store borrows and does not close. */
  pool?: Pool;
  /** Schema holding the tables; default `public`. */
  schema?: string;
  /** Loaded once, into a data set that was never seeded. */
  seed: SeedData;
  /** Called with the text of every statement a repository method runs (for logging and tests). */
  onQuery?: (text: string) => void;
  /** Errors of idle pooled connections (the server went away). */
  onPoolError?: (err: Error) => void;
  /** Time limit for `ping` (ms). */
  pingTimeoutMs?: number;
}

/**
 * The PostgreSQL store: applies migrations and the seed (see setup.ts), then serves every
 * repository from its table. Several processes may share one database.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const { schema = 'public', seed, onQuery, pingTimeoutMs = 1000 } = options;
  if (!options.pool && !options.url) throw new Error('createPostgresStore needs a url or a pool');
  const pool = options.pool ?? createPool(options.url!, options.onPoolError);
  const owned = !options.pool;
  try {
    await prepareDatabase(pool, schema, seed);
  } catch (err) {
    if (owned) await pool.end().catch(() => undefined);
    throw err;
  }
  const db = queryRunner(pool, onQuery);
  const collection = <T extends { id: number }>(name: keyof typeof TABLES) => new PgCollection<T>(db, schema, TABLES[name]);
  return {
    kind: 'postgres',
    books: collection('books'),
    todos: collection('todos'),
    notes: collection('notes'),
    items: collection('items'),
    tasks: collection('tasks'),
    users: collection('users'),
    posts: new PgChildCollection(db, schema, TABLES.posts, 'userId'),
    comments: new PgChildCollection(db, schema, TABLES.comments, 'postId'),
    async ping() {
      try {
        await pool.query({ text: 'SELECT 1', query_timeout: pingTimeoutMs } as never);
      } catch (err) {
        throw translate(err);
      }
    },
    async close() {
      if (owned && !pool.ended) await pool.end();
    },
    poolStats() {
      return { size: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
  };
}
