import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { JSON_TYPE, sendText } from './send';

/** A JSON array to write: its first items, and the rest as a store reads them (src/store/types.ts ListResult). */
export interface JsonList<T> {
  items: readonly T[];
  rest?: AsyncIterable<readonly T[]>;
}

export interface StreamOptions {
  /** Checks one list item before it is written (response validation); throws to refuse it. */
  checkItem?: (item: unknown) => void;
  /** A HEAD request (which the edge runs as a GET): the headers only, and nothing read from `rest`. */
  head?: boolean;
}

/** About how much JSON is built before it is handed to the socket, and so the most a stalled reader pins. */
export const CHUNK_BYTES = 64 * 1024;
/** A list of at most this many items and no `rest` is written whole, with Content-Length. */
const WHOLE_ITEMS = 256;
/** Items serialised in one `JSON.stringify`: adapted to the items' size so a slice is about one chunk. */
const MIN_SLICE = 16;
const MAX_SLICE = 4096;

/** Thrown (after the connection was ended) when an answer failed after its first bytes were sent. */
export class StreamBroken extends Error {}

/**
 * Writes a JSON array answer without ever holding it whole: a small list is one write with
 * Content-Length; a bigger one (or one with `rest` still to read) is sent in chunks of about
 * CHUNK_BYTES as its items come, chunked.
 *
 * - Backpressure: when the socket takes a chunk but reports its buffer full (`write()` false), the next
 *   chunk waits for `drain`, so a client that reads slowly (or not at all) pins about one chunk plus the
 *   socket's buffer, whatever the list's size; `rest` is read only as fast as the client takes it.
 * - The event loop: one `JSON.stringify` covers about one chunk at most, and the writer yields between
 *   chunks, so no answer holds the loop for more than about a millisecond at a time.
 * - A client that goes away stops the writing and the reading of `rest` (its iterator is returned).
 * - Failure midway (reading `rest` fails, an item fails its check): before the first byte, the error is
 *   thrown and answered as any other; after it, the connection is destroyed and `StreamBroken` thrown. A
 *   client never gets a truncated array in a complete message: without the final chunk, the answer is
 *   an error on the client's side, never a shorter list.
 * - HEAD: the headers a GET would send (chunked or not), no body, and nothing read from `rest`.
 */
export async function writeJsonList<T>(res: ServerResponse, status: number, list: JsonList<T>, options: StreamOptions = {}): Promise<void> {
  const { checkItem, head = false } = options;
  if (!list.rest && list.items.length <= WHOLE_ITEMS) {
    if (checkItem) for (const item of list.items) checkItem(item);
    return sendText(res, status, JSON_TYPE, JSON.stringify(list.items));
  }
  await streamed(res, status, JSON_TYPE, head, async (out) => {
    out.text += '[';
    let empty = await out.items(list.items, true, checkItem);
    if (list.rest) {
      for await (const batch of list.rest) {
        if (out.gone) break;
        empty = await out.items(batch, empty, checkItem);
      }
    }
    out.text += ']';
  });
}

/**
 * Writes a JSON value that may be large (a GraphQL result over many records) as `writeJsonList` writes a
 * list: in chunks, with backpressure, yielding between chunks. Objects and arrays are walked; a record
 * (an object or array holding no object) is serialised whole, and a list of records a slice at a time.
 */
export async function writeJsonValue(res: ServerResponse, status: number, type: string, value: unknown, head = false): Promise<void> {
  await streamed(res, status, type, head, (out) => out.value(value));
}

/** Starts a chunked answer, runs `write`, and ends it; or ends the connection if it fails once under way. */
async function streamed(res: ServerResponse, status: number, type: string, head: boolean, write: (out: ChunkWriter) => Promise<void>): Promise<void> {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.removeHeader('Content-Length');
  if (head) {
    res.end();
    return;
  }
  const out = new ChunkWriter(res);
  try {
    await write(out);
    out.end();
  } catch (err) {
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

/** JSON text built a piece at a time and handed to the socket a chunk at a time. */
class ChunkWriter {
  text = '';
  private slice = 64;
  /** Set when the response closes before it was finished: the client went away, or the connection was destroyed. */
  gone = false;
  private readonly onClose = () => {
    if (!this.res.writableFinished) this.gone = true;
  };

  constructor(private readonly res: ServerResponse) {
    res.on('close', this.onClose);
  }

  release(): void {
    this.res.off('close', this.onClose);
  }

  /** Any JSON value: records whole, objects and arrays that hold objects walked. */
  async value(value: unknown): Promise<void> {
    if (isFlat(value)) {
      this.text += JSON.stringify(value) ?? 'null';
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
    if (this.text.length >= CHUNK_BYTES) await this.flush();
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
      if (this.text.length >= CHUNK_BYTES) await this.flush();
    }
    return empty;
  }

  end(): void {
    if (!this.gone) this.res.end(this.text);
  }

  /** Hands the chunk to the socket; waits for `drain` when the socket's buffer is full, else lets other work run. */
  private async flush(): Promise<void> {
    if (this.gone) return;
    const chunk = this.text;
    this.text = '';
    if (this.res.write(chunk)) {
      await nextTurn();
      return;
    }
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
}
