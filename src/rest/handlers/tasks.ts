import { STALE } from '../../store/types';
import { preconditionFailed } from '../conditional';
import { listResult } from '../pagination';
import type { Handlers } from '../types';

const notFound = (id: number) => ({ status: 404 as const, body: { error: `Task ${id} not found` } });

export const taskHandlers = {
  listTasks: async ({ query, path }, { store }) => listResult(path, query, await store.tasks.list(query)),

  createTask: async ({ body, path }, { store }) => {
    const task = await store.tasks.create({ title: body.title, done: false });
    return { status: 201, headers: { Location: `${path}/${task.id}` }, body: task };
  },

  getTask: async ({ params }, { store }) => {
    const task = await store.tasks.get(params.id);
    return task ? { status: 200, body: task } : notFound(params.id);
  },

  // Partial update: absent fields keep their value; {} is a no-op that still answers 200.
  updateTask: async ({ params, body, precondition }, { store }) => {
    const task = await store.tasks.update(params.id, { title: body.title, done: body.done }, precondition);
    if (task === STALE) throw preconditionFailed();
    return task ? { status: 200, body: task } : notFound(params.id);
  },

  deleteTask: async ({ params, precondition }, { store }) => {
    const deleted = await store.tasks.delete(params.id, precondition);
    if (deleted === STALE) throw preconditionFailed();
    return deleted ? { status: 204 } : notFound(params.id);
  },
} satisfies Partial<Handlers>;
