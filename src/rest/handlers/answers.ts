import { STALE, type Stale } from '../../store/types';
import { preconditionFailed } from '../registrar';

/** An update's answer: the record as written, its 404, or the 412 of a failed If-Match / If-None-Match. */
export function written<T, M>(record: T | undefined | Stale, missing: () => M) {
  if (record === STALE) throw preconditionFailed();
  return record === undefined ? missing() : { status: 200 as const, body: record };
}

/** A delete's answer: 204, its 404, or the 412 of a failed If-Match / If-None-Match. */
export function removed<M>(deleted: boolean | Stale, missing: () => M) {
  if (deleted === STALE) throw preconditionFailed();
  return deleted ? { status: 204 as const } : missing();
}
