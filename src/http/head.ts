import type { ServerResponse } from 'node:http';
import { stateOf, type RequestState } from './request-state';

/** Headers as `writeHead` takes them: name, value, name, value... */
export type HeaderList = readonly string[];

/** Headers an answer's writer adds to it (ETag, Location, Allow...), other than its Content-Type and Content-Length. */
export type AnswerHeaders = Readonly<Record<string, string>>;

/**
 * The head of an answer, written in one block.
 *
 * Node builds a response's head from one of two places: the headers set one at a time (`setHeader` checks each
 * name and value, lower-cases the name and stores both in the response's header store, which the head is then
 * built from), or the list handed to `writeHead` when none was set (each header checked as the head is built,
 * nothing stored). Most answers of the service carry 18 headers: the request id, the protect phase's security
 * and CORS headers (the same on every answer), then the answer's own (ETag, Content-Type, Content-Length).
 *
 * So the headers the service gives every answer wait in the request's state (`RequestState.head`), and the
 * service's writers (./send.ts) write them with the answer's own in one `writeHead`. The order of precedence is
 * the one `setHeader` calls in that order would give:
 * - a header set by anything after the waiting ones were added (a docs page's own Content-Security-Policy) wins
 *   over a waiting one of the same name, which is then left out;
 * - the writer's own headers win over anything set before them.
 *
 * A request whose response already had a header when it entered the service (a middleware of yours set one)
 * gets the service's headers set one at a time, as they come: theirs must win over yours, as they always did.
 * An answer written other than by the writers (a docs file, an error handler of yours, code after the service)
 * gets the waiting headers set one at a time before that code runs (`setWaitingHeaders`): the phases do this
 * whenever a request leaves them other than through the writers (./phases.ts, ./routes.ts).
 *
 * What it saves is measured in docs/maintainers/design.md ("Where the time goes against the peers").
 */

/** As a request enters the service: `first` waits for the answer's head, unless the response already has a header. */
export function waitingHead(res: ServerResponse, first: HeaderList): HeaderList[] | undefined {
  if (res.getHeaderNames().length === 0) return [first];
  setEach(res, first);
  return undefined;
}

/** Headers for every answer to this request: they wait for its head, or are set now when nothing waits. */
export function addHeaders(state: RequestState, headers: HeaderList): void {
  if (state.head) state.head.push(headers);
  else setEach(state.res, headers);
}

/** Sets the waiting headers one at a time (each not set since), for an answer the service's writers do not write. */
export function setWaitingHeaders(state: RequestState | undefined): void {
  if (state?.head) setEach(state.res, takeWaiting(state, undefined));
}

/**
 * The head of an answer the service writes, as one list for `writeHead`: the waiting headers (each not set since,
 * nor one of `own`), then `own`. Of `own`, a Content-Type or Content-Length is left out (the writer sets those),
 * and of two with the same name in any case, the later wins. The waiting headers are taken: from here they are
 * the response's.
 */
export function headBlock(res: ServerResponse, own: AnswerHeaders | undefined): (string | number)[] {
  const state = stateOf(res);
  const block: (string | number)[] = state?.head ? takeWaiting(state, own) : [];
  if (own) {
    for (const name in own) if (!isWritersOwn(name) && !replacedLater(own, name)) block.push(name, own[name]);
  }
  return block;
}

/** The head of an answer whose head goes out with its first chunk: `headBlock`'s headers, set one at a time now. */
export function setHead(res: ServerResponse, own: AnswerHeaders | undefined): void {
  setEach(res, headBlock(res, own));
}

/** Takes the waiting headers off `state`: those not set since, nor named in `own`, as one list. */
function takeWaiting(state: RequestState, own: AnswerHeaders | undefined): string[] {
  const lists = state.head ?? [];
  state.head = undefined;
  const res = state.res;
  const taken: string[] = [];
  for (const list of lists) {
    for (let i = 0; i < list.length; i += 2) {
      const name = list[i];
      if (!res.hasHeader(name) && !(own && named(own, name))) taken.push(name, list[i + 1]);
    }
  }
  return taken;
}

/** A Content-Type or Content-Length: the writer sets those itself, from the body it writes. */
function isWritersOwn(name: string): boolean {
  if (name.length !== 12 && name.length !== 14) return false;
  const lower = name.toLowerCase();
  return lower === 'content-type' || lower === 'content-length';
}

/** Whether `headers` has a header called `name`, in any case. */
function named(headers: AnswerHeaders, name: string): boolean {
  for (const key in headers) if (key.length === name.length && key.toLowerCase() === name.toLowerCase()) return true;
  return false;
}

/** Whether a key of `headers` after `name` (one of its keys) names the same header in any case: the later one wins. */
function replacedLater(headers: AnswerHeaders, name: string): boolean {
  let after = false;
  for (const key in headers) {
    if (after && key.length === name.length && key.toLowerCase() === name.toLowerCase()) return true;
    if (key === name) after = true;
  }
  return false;
}

function setEach(res: ServerResponse, headers: readonly (string | number)[]): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i] as string, headers[i + 1]);
}
