import { listResult } from '../pagination';
import type { Handlers } from '../types';
import { found, removed, written } from './answers';

const notFound = (id: number) => () => ({ status: 404 as const, body: { error: `Task ${id} not found` } });

export const taskHandlers = {
  listTasks: async ({ query, path }, { store }) => listResult(path, query, await store.tasks.list(query)),

  createTask: async ({ body, path }, { store }) => {
    const task = await store.tasks.create({ title: body.title, done: false });
    return { status: 201, headers: { Location: `${path}/${task.id}` }, body: task };
  },

  getTask: async ({ params }, { store }) => found(await store.tasks.get(params.id), notFound(params.id)),

  // Partial update: absent fields keep their value; {} is a no-op that still answers 200.
  updateTask: async ({ params, body, precondition }, { store }) =>
    written(await store.tasks.update(params.id, { title: body.title, done: body.done }, precondition), notFound(params.id)),

  deleteTask: async ({ params, precondition }, { store }) => removed(await store.tasks.delete(params.id, precondition), notFound(params.id)),
} satisfies Partial<Handlers>;
