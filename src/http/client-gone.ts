import { OverloadedError } from '../store/errors';
import { runWithRequestSignal } from '../store/request-scope';
import type { Phase } from './request-state';

/**
 * A step of the `protect` phase with storage behind a connection queue (PostgreSQL): gives each request a signal
 * that aborts when its client goes away before the answer is sent, and runs the rest of the request under it
 * (src/store/request-scope.ts): a request still waiting for a storage connection then leaves the queue instead
 * of taking a connection for nobody. Node emits `close` on every response, after `finish` when it was sent;
 * only an unfinished one aborts.
 */
export function abortWhenClientGoes(): Phase {
  return ({ res }, next) => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new OverloadedError('Client went away while waiting for storage'));
    });
    runWithRequestSignal(controller.signal, next);
  };
}
