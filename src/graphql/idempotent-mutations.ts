import type { Response } from 'graphql-http';
import { KEY_IN_PROGRESS, KEY_REUSED, OUTCOME_UNKNOWN, ownedKey, requestFingerprint, type KeyRule } from '../http/idempotency';
import type { Logger } from '../logger';
import { StorageUnavailableError } from '../store/errors';
import type { Store } from '../store/types';
import { UNAVAILABLE_MESSAGE } from './masking';
import { codedError } from './transport';

/** One HTTP answer of the endpoint as it is kept under an Idempotency-Key. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** A mutation's answer that is not kept under its key: thrown to roll its writes back, then sent as it is. */
class NotKept extends Error {
  constructor(readonly answer: Response) {
    super('answer not kept');
  }
}

const toAnswer = ([body, init]: Response): Answer => ({ status: init.status, headers: { ...(init.headers as Record<string, string>) }, body });
const toResponse = ({ status, headers, body }: Answer): Response => [body, { status, statusText: '', headers }];

/** One mutation request with a key: what identifies it, and how to answer it on a given store. */
export interface KeyedMutation {
  key: string;
  /** Who sent it, with auth on: the key is theirs (src/http/idempotency.ts ownedKey). */
  principal?: { subject: string };
  params: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null };
  /** The endpoint's own answer path, its resolvers reading and writing `store`; `kept` says whether it may be kept. */
  answer(store: Store): Promise<{ response: Response; kept: boolean }>;
  /** The request's logger. */
  log: Logger;
}

/**
 * A mutation with an Idempotency-Key runs at most once per key, as REST creates do: its writes and its
 * answer are kept together, and only when it succeeded without errors (otherwise nothing of it is
 * kept, and the key may be retried). Same key and request: the first answer again; another request: 422.
 */
export function idempotentMutations(store: Store, ttlMs: number, keyRule: KeyRule) {
  return async function once({ key: sent, principal, params, answer, log }: KeyedMutation): Promise<Response> {
    if (!keyRule.test(sent)) return codedError(400, keyRule.message, 'BAD_REQUEST');
    const key = ownedKey(sent, principal);
    const fingerprint = requestFingerprint('POST', '/graphql', { query: params.query, operationName: params.operationName ?? null, variables: params.variables ?? null });
    try {
      const done = await store.idempotent({ key, fingerprint, ttlMs }, async (tx) => {
        const first = await answer(tx);
        if (!first.kept) throw new NotKept(first.response);
        return toAnswer(first.response);
      });
      switch (done.outcome) {
        case 'done':
          return toResponse(done.answer as Answer);
        case 'replay':
          return toResponse({ ...(done.answer as Answer), headers: { ...done.answer.headers, 'idempotent-replayed': 'true' } });
        case 'mismatch':
          return codedError(422, KEY_REUSED, 'IDEMPOTENCY_KEY_REUSED');
        case 'in-progress':
          return codedError(409, KEY_IN_PROGRESS, 'IDEMPOTENCY_KEY_IN_PROGRESS');
      }
    } catch (err) {
      if (err instanceof NotKept) return err.answer;
      if (!(err instanceof StorageUnavailableError)) throw err;
      log.warn({ outcomeUnknown: err.outcomeUnknown }, 'graphql mutation not committed');
      return codedError(503, err.outcomeUnknown ? OUTCOME_UNKNOWN : UNAVAILABLE_MESSAGE, 'SERVICE_UNAVAILABLE', { 'retry-after': '1' });
    }
  };
}
