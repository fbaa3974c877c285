import { listResult } from '../pagination';
import type { Handlers } from '../types';

export const todoHandlers = {
  listTodos: async ({ query, path }, { store }) => listResult(path, query, await store.todos.list(query)),

  createTodo: async ({ body }, { store }) => {
    const todo = await store.todos.create({ text: body.text, done: false });
    // No Location: todos have no item URL (see openapi.yaml).
    return { status: 201, body: todo };
  },
} satisfies Partial<Handlers>;
