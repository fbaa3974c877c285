import { pingWithin } from '../../ops/health';
import { findGreeting } from '../greetings';
import type { Handlers, RestContext } from '../types';

/** Whether storage answers a ping within the health bound; a failure or a timeout is logged as a warning. */
async function storageUp({ store, logger, healthTimeoutMs }: RestContext, check: string): Promise<boolean> {
  try {
    await pingWithin(store, healthTimeoutMs);
    return true;
  } catch (err) {
    logger.warn({ err }, `${check}: storage unreachable`);
    return false;
  }
}

export const metaHandlers = {
  greet: ({ params }) => {
    const found = findGreeting(params.lang);
    return found ? { status: 200, body: found } : { status: 404, body: `No greeting for language ${JSON.stringify(params.lang.slice(0, 64))}` };
  },

  getHealth: async (_input, ctx) => {
    const { store, version } = ctx;
    return (await storageUp(ctx, 'health check'))
      ? { status: 200, body: { status: 'ok', version, storage: store.kind } }
      : { status: 503, body: { status: 'unavailable', version, storage: store.kind } };
  },

  getLiveness: () => ({ status: 200, body: { status: 'ok' } }),

  getReadiness: async (_input, ctx) => {
    const storage = ctx.store.kind;
    if (ctx.lifecycle.draining) return { status: 503, body: { status: 'draining', storage } };
    return (await storageUp(ctx, 'readiness check'))
      ? { status: 200, body: { status: 'ready', storage } }
      : { status: 503, body: { status: 'unavailable', storage } };
  },
} satisfies Partial<Handlers>;
