import type { ContractModel } from '../model';
import type { QueryLimits } from '../query';
import { createSqliteStore } from '../sqlite';
import type { SeedSource, Store } from '../types';

/**
 * The store for demos and tests: SQLite in this process's memory (docs/maintainers/storage.md, "In memory"), the same engine as
 * the SQLite store's, on one connection and no file: nothing survives the process. Synchronous to make.
 */
export function createMemoryStore(seed: SeedSource, model?: ContractModel, queryLimits?: QueryLimits): Store {
  return createSqliteStore({ file: ':memory:', seed, model, queryLimits });
}
