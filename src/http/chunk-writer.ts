import type { ServerResponse } from 'node:http';
import type { WriteTurns } from './write-turns';

/**
 * How much JSON is handed to the socket at a time. Node writes a string of up to 16 KiB from a buffer on the
 * stack, and a longer one through a buffer it allocates for each write: with 64 KiB chunks, 100 clients that
 * do not read a 5 MiB list took the process's RSS from 127 to 240 MiB, with 16 KiB chunks to 158 MiB.
 */
export const CHUNK_BYTES = 16 * 1024;
/** About how much JSON one answer builds on one turn of the event loop (./write-turns.ts) before it waits for the next. */
export const TURN_BYTES = 128 * 1024;
/** Items serialised in one `JSON.stringify`: adapted to the items' size so a slice is about one chunk. */
const MIN_SLICE = 16;
const MAX_SLICE = 4096;

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
export class ChunkWriter {
  text = '';
  private slice = 64;
  /** Characters built since this answer's last turn. */
  private built = 0;
  /** The socket said its buffer is full: wait for `drain` before building more. */
  private full = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly turns: WriteTurns,
  ) {}

  /** The client went away, or the connection was destroyed: nothing more is built or written. */
  get gone(): boolean {
    return this.res.destroyed;
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
