import type { Handlers } from '../types';
import { collectionsHandlers } from './collections';
import { metaHandlers } from './meta';

/** Every operation in openapi.yaml, keyed by operationId. A spec change that adds one fails the type-check here. */
export const handlers = {
  ...collectionsHandlers,
  ...metaHandlers,
} satisfies Handlers;
