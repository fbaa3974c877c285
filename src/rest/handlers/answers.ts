import { STALE, type Stale } from '../../store/types';
import { preconditionFailed } from '../conditional';

/**
 * The answers every record operation gives, from what its repository call returned (src/store/types.ts):
 * the record (200), nothing (`missing()`: the family's 404), STALE (412: a precondition that no longer
 * holds). One place, so the collections' handlers say only what differs: which collection, which fields.
 */
export function found<T, M>(record: T | undefined, missing: () => M) {
  return record === undefined ? missing() : { status: 200 as const, body: record };
}

/** An update's answer: the record as written, its 404, or the 412 of a failed If-Match / If-None-Match. */
export function written<T, M>(record: T | undefined | Stale, missing: () => M) {
  if (record === STALE) throw preconditionFailed();
  return found(record, missing);
}

/** A delete's answer: 204, its 404, or the 412 of a failed If-Match / If-None-Match. */
export function removed<M>(deleted: boolean | Stale, missing: () => M) {
  if (deleted === STALE) throw preconditionFailed();
  return deleted ? { status: 204 as const } : missing();
}

/** A repository's answer with `show` applied to the record (a REST shape of a stored record), the other outcomes as they are. */
export function shown<T, U>(value: T | undefined | Stale, show: (record: T) => U): U | undefined | Stale {
  return value === undefined || value === STALE ? (value as undefined | Stale) : show(value as T);
}
