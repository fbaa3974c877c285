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

/** `logger` may be given as a function: it is then called (once) when a resolver first asks for the logger. */
export function createContext(store: Store, logger: Logger | (() => Logger), budget: ResultBudget, text: TextLimits): GraphQLContext {
  const loaders = createLoaders(store, budget);
  if (typeof logger !== 'function') return { store, logger, loaders, budget, text };
  let made: Logger | undefined;
  return {
    store,
    get logger() {
      return (made ??= logger());
    },
    loaders,
    budget,
    text,
  };
}
