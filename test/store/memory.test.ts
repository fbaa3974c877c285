import { createMemoryStore } from '../../src/store/memory';
import { storeContract } from './contract';

describe('memory store: repository contract', () => {
  storeContract(async (seed) => createMemoryStore(seed));
});
