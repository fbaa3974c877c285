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
  const lists = state?.head;
  if (!lists) return;
  state.head = undefined;
  const res = state.res;
  for (const list of lists) {
    for (let i = 0; i < list.length; i += 2) if (!res.hasHeader(list[i])) res.setHeader(list[i], list[i + 1]);
  }
}

/**
 * The head of an answer the service writes, as one list for `writeHead`: the waiting headers (each not set since,
 * nor one of `own`), then `own`. The waiting headers are taken: from here they are the response's.
 */
export function headBlock(res: ServerResponse, own: AnswerHeaders | undefined): (string | number)[] {
  const block: (string | number)[] = [];
  const state = stateOf(res);
  const lists = state?.head;
  if (lists) {
    state.head = undefined;
    for (const list of lists) {
      for (let i = 0; i < list.length; i += 2) {
        const name = list[i];
        if (!res.hasHeader(name) && !(own && named(own, name))) block.push(name, list[i + 1]);
      }
    }
  }
  if (own) for (const name in own) block.push(name, own[name]);
  return block;
}

/** Whether `headers` has a header called `name`, in any case. */
function named(headers: AnswerHeaders, name: string): boolean {
  for (const key in headers) if (key.length === name.length && key.toLowerCase() === name.toLowerCase()) return true;
  return false;
}

function setEach(res: ServerResponse, headers: HeaderList): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
}
