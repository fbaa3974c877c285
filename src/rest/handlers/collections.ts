import { collectionHandlers } from '../collection';

/** The REST collections: each one's operations, by what they do (src/rest/collection.ts). */
export const collectionsHandlers = {
  ...collectionHandlers('books', { list: 'listBooks', create: 'createBook', get: 'getBook', update: 'updateBook', patch: 'patchBook', delete: 'deleteBook' }),
  ...collectionHandlers('todos', { list: 'listTodos', create: 'createTodo' }),
  ...collectionHandlers('notes', { list: 'listNotes', get: 'getNote', update: 'updateNote', patch: 'patchNote', delete: 'deleteNote' }),
  ...collectionHandlers('items', { list: 'listItems', create: 'createItem', get: 'getItem', delete: 'deleteItem' }),
  ...collectionHandlers('tasks', { list: 'listTasks', create: 'createTask', get: 'getTask', update: 'updateTask', patch: 'patchTask', delete: 'deleteTask' }),
};
