import type { Config } from '../config';
import { createMemoryStore } from './memory';
import { loadSeed } from './seed';
import type { Store } from './types';

/** Builds the store the settings ask for, seeded as they say. */
export async function createStore(config: Config): Promise<Store> {
  if (config.databaseUrl) throw new Error('DATABASE_URL is set, but PostgreSQL storage is not available in this build');
  return createMemoryStore(loadSeed(config.seed));
}
