import { listResult } from '../pagination';
import type { Handlers } from '../types';

export const todoHandlers = {
  listTodos: async ({ query, path }, { store }) => listResult(path, query, await store.todos.list(query)),

  createTodo: async ({ body }, { store }) => {
    const todo = await store.todos.create({ text: body.text, done: false });
    return { status: 201, headers: { Location: `/todos/${todo.id}` }, body: todo };
  },
} satisfies Partial<Handlers>;
