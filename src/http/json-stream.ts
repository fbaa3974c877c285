import type { ServerResponse } from 'node:http';
import { setHead, type AnswerHeaders } from './head';
import { JSON_TYPE, sendText } from './send';
import { ChunkWriter } from './chunk-writer';
import type { WriteTurns } from './write-turns';

/** A JSON array to write: its first items, and the rest as a store reads them (src/store/types.ts ListResult). */
export interface JsonList<T> {
  items: readonly T[];
  rest?: AsyncIterable<readonly T[]>;
}

export interface StreamOptions {
  /** The app's share of the event loop between answers written in chunks (./write-turns.ts). */
  turns: WriteTurns;
  /** Checks one list item before it is written (response validation); throws to refuse it. */
  checkItem?: (item: unknown) => void;
  /** A HEAD request (which the edge runs as a GET): the headers only, and nothing read from `rest`. */
  head?: boolean;
  /** The answer's own headers (its ETag); the writer sets Content-Type and Content-Length (./head.ts). */
  headers?: AnswerHeaders;
  /** The JSON text of a list written whole (the same text as `JSON.stringify`, which it is without this). */
  whole?: (items: readonly unknown[]) => string;
}

/** A list of at most this many items and no `rest` is written whole, with Content-Length. */
const WHOLE_ITEMS = 256;
/** Thrown (after the connection was ended) when an answer failed after its first bytes were sent. */
class StreamBroken extends Error {}

/**
 * Writes a JSON array answer without ever holding it whole: a small list is one write with
 * Content-Length; a bigger one (or one with `rest` still to read) is sent in chunks of CHUNK_BYTES as its
 * items come, chunked.
 *
 * - Backpressure: once the socket reports its buffer full (`write()` false), the answer builds nothing more
 *   until `drain`, so a client that reads slowly (or not at all) pins at most what one turn builds (about
 *   128 KiB) plus the socket's buffer, whatever the list's size; `rest` is read only as fast as the client takes it.
 * - The event loop: one `JSON.stringify` covers about one chunk at most, and an answer builds about TURN_BYTES
 *   (8 chunks) per turn (./write-turns.ts): a few answers build per turn of the loop, so no answer holds the
 *   loop for more than about a millisecond at a time, and however many are written, the rest still runs.
 *   A batch of `rest` is read on a turn and serialised as it arrives: its records die young.
 * - A client that goes away stops the writing and the reading of `rest` (its iterator is returned); what
 *   fails after that (a batch whose read was abandoned) is nobody's concern and is not reported.
 * - Failure midway (reading `rest` fails, an item fails its check): before the first byte, the error is
 *   thrown and answered as any other; after it, the connection is destroyed and `StreamBroken` thrown. A
 *   client never gets a truncated array in a complete message: without the final chunk, the answer is
 *   an error on the client's side, never a shorter list.
 * - HEAD: the headers a GET would send but its framing (a list that GET sends chunked has neither `Content-Length`
 *   nor `Transfer-Encoding` here, as Node sends a HEAD answer without either), no body, and nothing read from `rest`.
 */
export function writeJsonList<T>(res: ServerResponse, status: number, list: JsonList<T>, options: StreamOptions): Promise<void> | void {
  const { checkItem } = options;
  if (!list.rest && list.items.length <= WHOLE_ITEMS) {
    if (checkItem) for (const item of list.items) checkItem(item);
    return sendText(res, status, JSON_TYPE, options.whole ? options.whole(list.items) : JSON.stringify(list.items), options.headers);
  }
  // From here nothing keeps `list`: its batches go one at a time (this function is not async, because a
  // suspended async function keeps its arguments, and with them the first batch, until the last byte).
  const batches = batchesOf(list.items, list.rest);
  return streamed(res, status, JSON_TYPE, options, async (out) => {
    out.text += '[';
    let empty = true;
    try {
      // Each batch is read on a turn of its own and serialised as it arrives (a database batch is about what
      // one turn builds): nothing holds a batch's records once its text is built, whatever the client does.
      for (let first = true; ; first = false) {
        if (!first) await out.turn();
        if (out.gone) break;
        const written: boolean | undefined = await writeNext(out, batches, empty, checkItem);
        if (written === undefined) break;
        empty = written;
      }
    } finally {
      await batches.return?.();
    }
    out.text += ']';
  });
}

/**
 * Reads the next batch and writes it: whether the array is still empty, or undefined when there was none. A
 * function of its own, so that nothing of the batch outlives its writing (a suspended async function keeps
 * its variables).
 */
async function writeNext<T>(out: ChunkWriter, batches: AsyncIterator<readonly T[]>, empty: boolean, checkItem?: (item: unknown) => void): Promise<boolean | undefined> {
  const next = await batches.next();
  return next.done ? undefined : out.items(next.value, empty, checkItem);
}

/**
 * A list's batches, its first items and then `rest`'s, each held only until it is handed out. An iterator, not
 * a generator: a generator suspended at `yield` keeps the batch it yielded (V8 keeps a suspended generator's
 * variables), which for a client that stopped reading is until its connection closes.
 */
function batchesOf<T>(items: readonly T[], rest: AsyncIterable<readonly T[]> | undefined): AsyncIterator<readonly T[]> {
  // No first items (a store that reads a long list only as it is pulled): `rest`'s first batch comes first, on the
  // turn the answer starts with, rather than after a turn spent writing nothing.
  let first: readonly T[] | undefined = items.length > 0 ? items : undefined;
  let more: AsyncIterator<readonly T[]> | undefined;
  const done = { done: true as const, value: undefined };
  return {
    next: async () => {
      if (first) {
        const batch = first;
        first = undefined;
        return { done: false, value: batch };
      }
      more ??= rest?.[Symbol.asyncIterator]();
      return more ? more.next() : done;
    },
    return: async () => {
      first = undefined;
      await more?.return?.();
      return done;
    },
  };
}

/**
 * Writes a JSON value that may be large (a GraphQL result over many records) as `writeJsonList` writes a
 * list: in chunks, with backpressure, yielding between chunks. Objects and arrays are walked; a record
 * (an object or array holding no object) is serialised whole, and a list of records a slice at a time.
 */
export function writeJsonValue(res: ServerResponse, status: number, type: string, value: unknown, options: StreamOptions): Promise<void> {
  return streamed(res, status, type, options, (out) => out.value(value));
}

/** Starts a chunked answer, runs `write`, and ends it; or ends the connection if it fails once under way. */
async function streamed(res: ServerResponse, status: number, type: string, options: StreamOptions, write: (out: ChunkWriter) => Promise<void>): Promise<void> {
  // Its head is written with its first chunk, implicitly: its headers are set one at a time (./head.ts).
  setHead(res, options.headers);
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.removeHeader('Content-Length');
  if (options.head) {
    res.end();
    return;
  }
  const out = new ChunkWriter(res, options.turns);
  try {
    await out.turn();
    await write(out);
    out.end();
  } catch (err) {
    if (out.gone) return;
    if (!res.headersSent) throw err;
    res.destroy();
    throw new StreamBroken('an answer failed after its first bytes were sent: connection ended', { cause: err });
  }
}
