import { createMemoryStore } from '../../src/store/memory';
import { storeContract } from './contract';
import { queryContract } from './query-contract';

describe('memory store: repository contract', () => {
  storeContract(async (seed) => createMemoryStore(seed));
});

describe('memory store: lists as clients query them', () => {
  queryContract(async (seed, model) => createMemoryStore(seed, model));
});
