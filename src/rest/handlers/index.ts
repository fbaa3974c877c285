import type { Handlers } from '../types';
import { bookHandlers } from './books';
import { itemHandlers } from './items';
import { metaHandlers } from './meta';
import { noteHandlers } from './notes';
import { taskHandlers } from './tasks';
import { todoHandlers } from './todos';

/** Every operation in openapi.yaml, keyed by operationId. A spec change that adds one fails the type-check here. */
export const handlers = {
  ...bookHandlers,
  ...todoHandlers,
  ...noteHandlers,
  ...itemHandlers,
  ...taskHandlers,
  ...metaHandlers,
} satisfies Handlers;
