import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import type { SeedData, Store } from '../../src/store/types';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  store: Store;
  http: ReturnType<typeof request>;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
}

/**
 * A fresh app on a fresh in-memory store (the default seed unless told otherwise), with response
 * validation on: every response in every test is checked against openapi.yaml.
 */
export function makeApp(options: { seed?: SeedData; config?: Partial<Config>; store?: Store } = {}): TestApp {
  const store = options.store ?? createMemoryStore(options.seed ?? loadSeed('default'));
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
