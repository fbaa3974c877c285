import { mapPage, type NoteRecord } from '../../store/types';
import type { Precondition } from '../conditional';
import { listResult } from '../pagination';
import type { Handlers } from '../types';
import { found, removed, shown, written } from './answers';

/** The REST shape: `text` is the deprecated read-only alias of `body`. */
const show = (note: NoteRecord) => ({ id: note.id, body: note.body, text: note.body });
const notFound = (id: number) => () => ({ status: 404 as const, body: { error: `Note ${id} not found` } });
/** A precondition is about the REST shape (its ETag), so it sees the note as GET shows it. */
const onShown = (precondition?: Precondition) => precondition && ((note: NoteRecord) => precondition(show(note)));

export const noteHandlers = {
  listNotes: async ({ query, path }, { store }) => listResult(path, query, mapPage(await store.notes.list(query), show)),

  getNote: async ({ params }, { store }) => {
    const note = await store.notes.get(params.id);
    return found(note && show(note), notFound(params.id));
  },

  updateNote: async ({ params, body, precondition }, { store }) =>
    written(shown(await store.notes.update(params.id, { body: body.body }, onShown(precondition)), show), notFound(params.id)),

  deleteNote: async ({ params, precondition }, { store }) => removed(await store.notes.delete(params.id, onShown(precondition)), notFound(params.id)),
} satisfies Partial<Handlers>;
