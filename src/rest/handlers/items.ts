import { listResult } from '../pagination';
import type { Handlers } from '../types';
import { found, removed } from './answers';

// The items family answers errors in plain text, as openapi.yaml declares.
const notFound = (id: number) => () => ({ status: 404 as const, body: `Item ${id} not found` });

export const itemHandlers = {
  listItems: async ({ query, path }, { store }) => listResult(path, query, await store.items.list(query)),

  createItem: async ({ body, path }, { store }) => {
    const item = await store.items.create({ name: body.name });
    return { status: 201, headers: { Location: `${path}/${item.id}` }, body: item };
  },

  getItem: async ({ params }, { store }) => found(await store.items.get(params.id), notFound(params.id)),

  deleteItem: async ({ params, precondition }, { store }) => removed(await store.items.delete(params.id, precondition), notFound(params.id)),
} satisfies Partial<Handlers>;
