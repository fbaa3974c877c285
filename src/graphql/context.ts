import type { Logger } from '../logger';
import type { Store } from '../store/types';

/** What every resolver receives as its context (placeholder until the GraphQL layer lands). */
export interface GraphQLContext {
  store: Store;
  logger: Logger;
}
