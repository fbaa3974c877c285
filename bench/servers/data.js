'use strict';
// Shared by the bare node:http and plain express peers: the same records the service loads from
// the same seed file, kept in Maps, with the service's id rule (previous largest + 1).
const { readFileSync } = require('node:fs');

function loadRecords(seedFile) {
  const seed = JSON.parse(readFileSync(seedFile, 'utf8'));
  const toMap = (list) => new Map((list || []).map((r) => [r.id, { ...r }]));
  const books = toMap(seed.books);
  const tasks = toMap(seed.tasks);
  let lastBookId = Math.max(0, ...books.keys());
  // The books in id order, kept between writes, so a page costs its own size (as in the service's store).
  let ordered;
  const inOrder = () => (ordered ??= [...books.values()]);
  return {
    getBook: (id) => books.get(id),
    listBooks: (limit, offset = 0) => (limit === undefined && offset === 0 ? inOrder() : inOrder().slice(offset, limit === undefined ? undefined : offset + limit)),
    createBook: (body) => {
      lastBookId += 1;
      const book = { id: lastBookId, title: body.title, pages: body.pages ?? 0 };
      books.set(book.id, book);
      ordered = undefined;
      return book;
    },
    deleteBook: (id) => {
      ordered = undefined;
      return books.delete(id);
    },
    updateTask: (id, body) => {
      const task = tasks.get(id);
      if (!task) return undefined;
      const next = { ...task, ...(body.title !== undefined && { title: body.title }), ...(body.done !== undefined && { done: body.done }) };
      tasks.set(id, next);
      return next;
    },
  };
}

/** PORT and SEED come from the environment, as for the service. */
function settings() {
  const port = Number(process.env.PORT);
  const seedFile = process.env.SEED;
  if (!Number.isInteger(port) || !seedFile) throw new Error('PORT and SEED must be set');
  return { port, host: process.env.HOST || '127.0.0.1', seedFile };
}

module.exports = { loadRecords, settings };
