import request from 'supertest';
import { createApp } from '../../src/app';
import { createService, type Service } from '../../src/service';
import { testConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { readAll, type SeedData, type Store } from '../../src/store/types';
import { TestDatabase, lazyStore, testDatabaseUrl } from './postgres';
import { SqliteFiles } from './sqlite';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  store: Store;
  http: ReturnType<typeof request>;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
}

/**
 * The store the REST and GraphQL suites run on: `TEST_STORE=sqlite` (each store on its own temporary
 * file), `postgres` (each on a new schema of TEST_DATABASE_URL; the default when that is set), or `memory`
 * (the default otherwise). `npm run test:sqlite` and `npm run test:postgres` run the suites on them.
 */
const testStore = process.env.TEST_STORE?.trim() || (testDatabaseUrl() ? 'postgres' : 'memory');
if (!['memory', 'sqlite', 'postgres'].includes(testStore)) throw new Error(`TEST_STORE must be memory, sqlite or postgres, got "${testStore}"`);
if (testStore === 'postgres' && !testDatabaseUrl()) throw new Error('TEST_STORE=postgres needs TEST_DATABASE_URL');

/**
 * The databases or files of this test file (jest loads this module once per test file; they are dropped
 * in that file's afterAll).
 */
const database = testStore === 'postgres' ? new TestDatabase(testDatabaseUrl()!) : undefined;
const sqliteFiles = testStore === 'sqlite' ? new SqliteFiles() : undefined;

/**
 * A fresh store seeded with `seed` (default seed unless told otherwise), on the store TEST_STORE picks.
 * Usable at once (PostgreSQL setup finishes on first use).
 */
export function makeStore(seed: SeedData = loadSeed('default')): Store {
  if (database) return lazyStore(database.store(seed), 'postgres');
  return sqliteFiles ? sqliteFiles.store(seed) : createMemoryStore(seed);
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

/**
 * The service as middleware (src/service.ts), on a fresh store, for tests that compose it into an express app
 * of their own, as docs/extending.md shows; response validation on, as in makeApp.
 */
export function makeService(options: { seed?: SeedData; config?: Partial<Config>; store?: Store } = {}): { service: Service; store: Store; logs: Record<string, unknown>[] } {
  const store = options.store ?? makeStore(options.seed);
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger('debug', (line) => logs.push(JSON.parse(line)));
  return { service: createService({ store, config: testConfig(options.config), logger }), store, logs };
}

/** A deep copy of every collection, to prove a rejected request changed nothing. */
export async function snapshot(store: Store): Promise<Record<string, unknown[]>> {
  const names = ['books', 'todos', 'notes', 'items', 'tasks', 'users', 'posts', 'comments'] as const;
  const out: Record<string, unknown[]> = {};
  // readAll: every record, also from a store that answers a list in batches.
  for (const name of names) out[name] = await readAll<unknown>(await store[name].list());
  return out;
}
