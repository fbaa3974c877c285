import { listResult } from '../pagination';
import type { Handlers } from '../types';
import { found, removed, written } from './answers';

const notFound = (id: number) => () => ({ status: 404 as const, body: { error: `Book ${id} not found` } });

export const bookHandlers = {
  listBooks: async ({ query, path }, { store }) => listResult(path, query, await store.books.list(query)),

  createBook: async ({ body, path }, { store }) => {
    const book = await store.books.create({ title: body.title, pages: body.pages ?? 0 });
    return { status: 201, headers: { Location: `${path}/${book.id}` }, body: book };
  },

  getBook: async ({ params }, { store }) => found(await store.books.get(params.id), notFound(params.id)),

  updateBook: async ({ params, body, precondition }, { store }) =>
    written(await store.books.update(params.id, { title: body.title, pages: body.pages }, precondition), notFound(params.id)),

  deleteBook: async ({ params, precondition }, { store }) => removed(await store.books.delete(params.id, precondition), notFound(params.id)),
} satisfies Partial<Handlers>;
