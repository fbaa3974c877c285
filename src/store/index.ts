import type { Config } from '../config';
import type { Logger } from '../logger';
import { createMemoryStore } from './memory';
import { createPostgresStore } from './postgres';
import { loadSeed } from './seed';
import { createSqliteStore } from './sqlite';
import type { Store } from './types';

/** Builds the store the settings ask for (config.ts: STORE, DATABASE_URL), seeded as they say. */
export async function createStore(config: Config, logger?: Logger): Promise<Store> {
  const seed = loadSeed(config.seed);
  switch (config.store) {
    case 'postgres':
      return createPostgresStore({
        url: config.databaseUrl,
        seed,
        poolSize: config.dbPoolSize,
        queueLimit: config.dbQueueLimit,
        queueTimeoutMs: config.dbQueueTimeoutMs,
        onPoolError: (err) => logger?.warn({ err: err.message }, 'storage: idle connection failed'),
      });
    case 'sqlite': {
      const store = createSqliteStore({ file: config.sqliteFile, seed, driver: config.sqliteDriver === 'auto' ? undefined : config.sqliteDriver });
      logger?.info({ file: config.sqliteFile, driver: store.driver }, 'storage: sqlite');
      return store;
    }
    case 'memory':
      return createMemoryStore(seed);
  }
}
