import type { Logger } from '../logger';
import type { Store } from '../store/types';
import { createLoaders, type Loaders } from './loaders';

/**
 * What every resolver receives as its context: built anew for each request, so the loaders'
 * batches and caches never outlive one operation. (A type alias, not an interface: graphql-http
 * wants a context assignable to `Record<PropertyKey, unknown>`.)
 */
export type GraphQLContext = {
  store: Store;
  /** The request's logger: its lines carry the request's `requestId`. */
  logger: Logger;
  loaders: Loaders;
};

export function createContext(store: Store, logger: Logger): GraphQLContext {
  return { store, logger, loaders: createLoaders(store) };
}
