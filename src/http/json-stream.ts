import type { ServerResponse } from 'node:http';
import { JSON_TYPE, sendText } from './send';
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
}

/**
 * How much JSON is handed to the socket at a time. Node writes a string of up to 16 KiB from a buffer on the
 * stack, and a longer one through a buffer it allocates for each write: with 64 KiB chunks, 100 clients that
 * do not read a 5 MiB list took the process's RSS from 127 to 240 MiB, with 16 KiB chunks to 158 MiB.
 */
export const CHUNK_BYTES = 16 * 1024;
/** About how much JSON one answer builds on one turn of the event loop (./write-turns.ts) before it waits for the next. */
export const TURN_BYTES = 128 * 1024;
/** A list of at most this many items and no `rest` is written whole, with Content-Length. */
const WHOLE_ITEMS = 256;
/** Items serialised in one `JSON.stringify`: adapted to the items' size so a slice is about one chunk. */
const MIN_SLICE = 16;
const MAX_SLICE = 4096;

/** Thrown (after the connection was ended) when an answer failed after its first bytes were sent. */
export class StreamBroken extends Error {}

/**
 * Writes a JSON array answer without ever holding it whole: a small list is one write with
 * Content-Length; a bigger one (or one with `rest` still to read) is sent in chunks of CHUNK_BYTES as its
 * items come, chunked.
 *
 * - Backpressure: once the socket reports its buffer full (`write()` false), the answer builds nothing more
 *   until `drain`, so a client that reads slowly (or not at all) pins at most what one turn builds (about
 *   128 KiB) plus the socket's buffer, whatever the list's size; `rest` is read only as fast as the client takes it.
 * - The event loop: one `JSON.stringify` covers about one chunk at most, and an answer builds about two
 *   chunks per turn (./write-turns.ts): a few answers build per turn of the loop, so no answer holds the
 *   loop for more than about a millisecond at a time, and however many are written, the rest still runs.
 *   A batch of `rest` is read on a turn and serialised as it arrives: its records die young.
 * - A client that goes away stops the writing and the reading of `rest` (its iterator is returned); what
 *   fails after that (a batch whose read was abandoned) is nobody's concern and is not reported.
 * - Failure midway (reading `rest` fails, an item fails its check): before the first byte, the error is
 *   thrown and answered as any other; after it, the connection is destroyed and `StreamBroken` thrown. A
 *   client never gets a truncated array in a complete message: without the final chunk, the answer is
 *   an error on the client's side, never a shorter list.
 * - HEAD: the headers a GET would send (chunked or not), no body, and nothing read from `rest`.
 */
export function writeJsonList<T>(res: ServerResponse, status: number, list: JsonList<T>, options: StreamOptions): Promise<void> | void {
  const { checkItem } = options;
  if (!list.rest && list.items.length <= WHOLE_ITEMS) {
    if (checkItem) for (const item of list.items) checkItem(item);
    return sendText(res, status, JSON_TYPE, JSON.stringify(list.items));
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
  let first: readonly T[] | undefined = items;
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
  } finally {
    out.release();
  }
}

/** Whether a value is written with one JSON.stringify: a scalar, or an object or array with no object inside. */
function isFlat(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  for (const field of Object.values(value)) if (typeof field === 'object' && field !== null) return false;
  return true;
}

/**
 * JSON text built a piece at a time and handed to the socket a chunk at a time. A chunk is written as soon as it
 * is full, without waiting: a socket that reports its buffer full is waited for (`drain`) only before the next
 * turn, so the part built on one turn (a database batch) is text before anything waits, and no record is held
 * while a slow client reads.
 */
class ChunkWriter {
  text = '';
  private slice = 64;
  /** Characters built since this answer's last turn. */
  private built = 0;
  /** The socket said its buffer is full: wait for `drain` before building more. */
  private full = false;
  /** Set when the response closes before it was finished: the client went away, or the connection was destroyed. */
  gone = false;
  private readonly onClose = () => {
    if (!this.res.writableFinished) this.gone = true;
  };

  constructor(
    private readonly res: ServerResponse,
    private readonly turns: WriteTurns,
  ) {
    res.on('close', this.onClose);
  }

  release(): void {
    this.res.off('close', this.onClose);
  }

  /** Waits until the socket has taken what was written, then for a turn of the event loop to build on (./write-turns.ts). */
  async turn(): Promise<void> {
    if (this.full && !this.gone) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.res.off('drain', done);
          this.res.off('close', done);
          resolve();
        };
        this.res.on('drain', done);
        this.res.on('close', done);
      });
    }
    this.full = false;
    this.built = 0;
    await this.turns.next();
  }

  /** Any JSON value: records whole, objects and arrays that hold objects walked. */
  async value(value: unknown): Promise<void> {
    if (isFlat(value)) {
      const json = JSON.stringify(value) ?? 'null';
      this.text += json;
      this.built += json.length;
    } else if (Array.isArray(value)) {
      this.text += '[';
      if (value.every(isFlat)) {
        await this.items(value, true);
      } else {
        for (let i = 0; i < value.length && !this.gone; i++) {
          if (i > 0) this.text += ',';
          await this.value(value[i] === undefined ? null : value[i]);
        }
      }
      this.text += ']';
    } else {
      this.text += '{';
      let first = true;
      for (const [key, field] of Object.entries(value as object)) {
        if (field === undefined || typeof field === 'function') continue;
        this.text += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        await this.value(field);
      }
      this.text += '}';
    }
    await this.written(true);
  }

  /**
   * The items of an array (after its `[`), a slice per JSON.stringify, a comma before them unless `empty`
   * (nothing written in the array yet). Answers whether the array is still empty.
   */
  async items(items: readonly unknown[], empty: boolean, checkItem?: (item: unknown) => void): Promise<boolean> {
    for (let start = 0; start < items.length && !this.gone; ) {
      const end = Math.min(items.length, start + this.slice);
      const part = items.slice(start, end);
      if (checkItem) for (const item of part) checkItem(item);
      const json = JSON.stringify(part);
      if (json.length > 2) {
        this.text += (empty ? '' : ',') + json.slice(1, -1);
        empty = false;
      }
      // The next slice sized to make about one chunk from this one's bytes per item.
      this.slice = Math.max(MIN_SLICE, Math.min(MAX_SLICE, Math.floor((part.length * CHUNK_BYTES) / Math.max(json.length, 1))));
      start = end;
      this.built += json.length;
      // The last slice of a batch waits for no turn here: the caller asks for one before the next batch.
      await this.written(start < items.length);
    }
    return empty;
  }

  end(): void {
    if (!this.gone) this.res.end(this.text);
  }

  /** Hands a full chunk to the socket; with `more` to build and about TURN_BYTES built, waits for the socket and the next turn. */
  private async written(more: boolean): Promise<void> {
    if (this.text.length >= CHUNK_BYTES && !this.gone) {
      if (!this.res.write(this.text)) this.full = true;
      this.text = '';
    }
    if (more && this.built >= TURN_BYTES) await this.turn();
  }
}
