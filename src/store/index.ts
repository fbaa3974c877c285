import type { Config } from '../config';
import type { Logger } from '../logger';
import { changeSubject, describeChange, type Change } from './follow';
import { createMemoryStore } from './memory';
import { createPostgresStore } from './postgres';
import { loadSeed } from './seed';
import { createSqliteStore } from './sqlite';
import type { Store } from './types';

/** Builds the store the settings ask for (config.ts: STORE, DATABASE_URL), seeded as they say. */
export async function createStore(config: Config, logger?: Logger): Promise<Store> {
  // Read (and checked against the contract) only when a store seeds a new data set: a store that holds data first
  // says whether that data fits the contract.
  const seed = () => loadSeed(config.seed);
  // One line per change following the contract made at this start (follow.ts), as contract_changes records it.
  const onChange = (change: Change) => logger?.info({ ...changeSubject(change), change: describeChange(change) }, 'storage: contract change applied');
  switch (config.store) {
    case 'postgres':
      return createPostgresStore({
        url: config.databaseUrl,
        seed,
        poolSize: config.dbPoolSize,
        queueLimit: config.dbQueueLimit,
        queueTimeoutMs: config.dbQueueTimeoutMs,
        onPoolError: (err) => logger?.warn({ err: err.message }, 'storage: idle connection failed'),
        queryLimits: config.queryLimits,
        onChange,
      });
    case 'sqlite': {
      const store = createSqliteStore({ file: config.sqliteFile, seed, driver: config.sqliteDriver === 'auto' ? undefined : config.sqliteDriver, queryLimits: config.queryLimits, onChange });
      logger?.info({ file: config.sqliteFile, driver: store.driver }, 'storage: sqlite');
      return store;
    }
    case 'memory':
      return createMemoryStore(seed, undefined, config.queryLimits);
  }
}
