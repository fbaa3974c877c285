import type { Logger } from '../logger';
import type { Store } from '../store/types';
import type { TextLimits } from '../text-rule';
import type { ResultBudget } from './large-answers';
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
  /** What the result holds so far: lists count their records into it (src/graphql/large-answers.ts). */
  budget: ResultBudget;
  /** The contract's text rule and limit, read from openapi.yaml (src/text-rule.ts): what text arguments must keep. */
  text: TextLimits;
};

export function createContext(store: Store, logger: Logger, budget: ResultBudget, text: TextLimits): GraphQLContext {
  return { store, logger, loaders: createLoaders(store, budget), budget, text };
}
