import type { Config } from '../config';
import type { Logger } from '../logger';
import { createMemoryStore } from './memory';
import { createPostgresStore } from './postgres';
import { loadSeed } from './seed';
import type { Store } from './types';

/** Builds the store the settings ask for, seeded as they say: PostgreSQL when DATABASE_URL is set, else memory. */
export async function createStore(config: Config, logger?: Logger): Promise<Store> {
  const seed = loadSeed(config.seed);
  if (config.databaseUrl) {
    return createPostgresStore({
      url: config.databaseUrl,
      seed,
      poolSize: config.dbPoolSize,
      queueLimit: config.dbQueueLimit,
      queueTimeoutMs: config.dbQueueTimeoutMs,
      onPoolError: (err) => logger?.warn({ err: err.message }, 'storage: idle connection failed'),
    });
  }
  return createMemoryStore(seed);
}
