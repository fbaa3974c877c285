import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import type { SeedData, Store } from '../../src/store/types';
import { TestDatabase, lazyStore, testDatabaseUrl } from './postgres';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  store: Store;
  http: ReturnType<typeof request>;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
}

/**
 * The PostgreSQL databases of this test file, when TEST_DATABASE_URL is set (jest loads this module
 * once per test file; the pool and schemas are dropped in that file's afterAll).
 */
const database = testDatabaseUrl() ? new TestDatabase(testDatabaseUrl()!) : undefined;

/**
 * A fresh store seeded with `seed` (default seed unless told otherwise): on a new PostgreSQL schema
 * when TEST_DATABASE_URL is set, else in memory. Usable at once (PostgreSQL setup finishes on first use).
 */
export function makeStore(seed: SeedData = loadSeed('default')): Store {
  return database ? lazyStore(database.store(seed), 'postgres') : createMemoryStore(seed);
}

/**
 * A fresh app on a fresh store (see makeStore) (the default seed unless told otherwise), with response
 * validation on: every response in every test is checked against openapi.yaml.
 */
export function makeApp(options: { seed?: SeedData; config?: Partial<Config>; store?: Store } = {}): TestApp {
  const store = options.store ?? makeStore(options.seed);
  const config = testConfig(options.config);
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger('debug', (line) => logs.push(JSON.parse(line)));
  const app = createApp({ store, config, logger });
  return { app, store, http: request(app), logs };
}

/** A deep copy of every collection, to prove a rejected request changed nothing. */
export async function snapshot(store: Store): Promise<Record<string, unknown[]>> {
  const names = ['books', 'todos', 'notes', 'items', 'tasks', 'users', 'posts', 'comments'] as const;
  const out: Record<string, unknown[]> = {};
  for (const name of names) out[name] = (await store[name].list()).items;
  return out;
}
