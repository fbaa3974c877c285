import type { NoteRecord } from '../../store/types';
import { listResult } from '../pagination';
import type { Handlers } from '../types';

/** The REST shape: `text` is the deprecated read-only alias of `body`. */
const show = (note: NoteRecord) => ({ id: note.id, body: note.body, text: note.body });
const notFound = (id: number) => ({ status: 404 as const, body: { error: `Note ${id} not found` } });

export const noteHandlers = {
  listNotes: async ({ query, path }, { store }) => {
    const result = await store.notes.list(query);
    return listResult(path, query, { total: result.total, items: result.items.map(show) });
  },

  getNote: async ({ params }, { store }) => {
    const note = await store.notes.get(params.id);
    return note ? { status: 200, body: show(note) } : notFound(params.id);
  },

  updateNote: async ({ params, body }, { store }) => {
    const note = await store.notes.update(params.id, { body: body.body });
    return note ? { status: 200, body: show(note) } : notFound(params.id);
  },

  deleteNote: async ({ params }, { store }) =>
    (await store.notes.delete(params.id)) ? { status: 204 } : notFound(params.id),
} satisfies Partial<Handlers>;
