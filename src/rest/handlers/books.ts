import { STALE } from '../../store/types';
import { preconditionFailed } from '../conditional';
import { listResult } from '../pagination';
import type { Handlers } from '../types';

const notFound = (id: number) => ({ status: 404 as const, body: { error: `Book ${id} not found` } });

export const bookHandlers = {
  listBooks: async ({ query, path }, { store }) => listResult(path, query, await store.books.list(query)),

  createBook: async ({ body, path }, { store }) => {
    const book = await store.books.create({ title: body.title, pages: body.pages ?? 0 });
    return { status: 201, headers: { Location: `${path}/${book.id}` }, body: book };
  },

  getBook: async ({ params }, { store }) => {
    const book = await store.books.get(params.id);
    return book ? { status: 200, body: book } : notFound(params.id);
  },

  updateBook: async ({ params, body, precondition }, { store }) => {
    const book = await store.books.update(params.id, { title: body.title, pages: body.pages }, precondition);
    if (book === STALE) throw preconditionFailed();
    return book ? { status: 200, body: book } : notFound(params.id);
  },

  deleteBook: async ({ params, precondition }, { store }) => {
    const deleted = await store.books.delete(params.id, precondition);
    if (deleted === STALE) throw preconditionFailed();
    return deleted ? { status: 204 } : notFound(params.id);
  },
} satisfies Partial<Handlers>;
