import { findGreeting } from '../greetings';
import type { Handlers } from '../types';

export const metaHandlers = {
  greet: ({ params }) => {
    const found = findGreeting(params.lang);
    return found ? { status: 200, body: found } : { status: 404, body: `No greeting for language ${JSON.stringify(params.lang.slice(0, 64))}` };
  },

  getHealth: async (_input, { store, version, logger }) => {
    try {
      await store.ping();
      return { status: 200, body: { status: 'ok', version, storage: store.kind } };
    } catch (err) {
      logger.warn('health check: storage unreachable', { err });
      return { status: 503, body: { status: 'unavailable', version, storage: store.kind } };
    }
  },
} satisfies Partial<Handlers>;
