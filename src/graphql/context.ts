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
  logger: Logger;
  /** The request's `X-Request-Id`, for log lines written while resolving. */
  requestId: string;
  loaders: Loaders;
};

export function createContext(store: Store, logger: Logger, requestId: string): GraphQLContext {
  return { store, logger, requestId, loaders: createLoaders(store) };
}
