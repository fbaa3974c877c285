import { OverloadedError, StorageUnavailableError } from '../errors';
import type { PgInserts } from './insert';
import type { Queryable } from './pool';
import { serverAnswered } from './pool';
import type { Writes } from './transaction';

/** Most creates one transaction inserts. */
const MAX_GROUP = 500;

interface Member<T> {
  record: object;
  resolve: (stored: T) => void;
  reject: (err: unknown) => void;
  /** The signal of the request that asked: a request whose client went away before its group formed is not created. */
  signal?: AbortSignal;
}

/** The server refused a statement for what it holds (an SQLSTATE, not an outage): the rows, not the database, are at fault. */
const refused = (err: unknown): boolean => !(err instanceof StorageUnavailableError) && serverAnswered(err);

/** How the store's own collections share create transactions (see CreateGroups). */
export interface Grouping {
  /** Runs one group's transaction. */
  transaction: Writes;
  /** The signal of the request being served. */
  signal: () => AbortSignal | undefined;
  /** Most creates of one collection waiting for their group; one more fails at once with OverloadedError. */
  limit: number;
}

/**
 * Creates of one collection that share transactions: the creates that arrive while a group commits are the next group
 * (up to MAX_GROUP): one counter update, one INSERT, one COMMIT, consecutive ids; each answered once its group committed,
 * with its record or the group's error. A group the server refuses is retried in halves, so only a bad row fails. Ids
 * keep the order of answers (groups commit in turn: across processes under the counter row's lock).
 */
export class CreateGroups<T extends { id: number }> {
  private waiting: Member<T>[] = [];
  private running = false;

  constructor(
    private readonly inserts: PgInserts<T>,
    private readonly grouping: Grouping,
  ) {}

  create(record: object): Promise<T> {
    // Waiting for a group is waiting for storage: bounded like the wait for a connection (queue.ts).
    if (this.waiting.length >= this.grouping.limit) {
      return Promise.reject(new OverloadedError(`Server busy: ${this.waiting.length} creates already wait for storage`));
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ record, resolve, reject, signal: this.grouping.signal() });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) await this.commit();
    } finally {
      this.running = false;
    }
  }

  /** One group: `fixed`, or the creates waiting when its transaction has begun (so the ones that arrive during BEGIN join). */
  private async commit(fixed?: Member<T>[]): Promise<void> {
    let group = fixed;
    try {
      const stored = await this.grouping.transaction((db: Queryable) => {
        group ??= this.take();
        return group.length ? this.inserts.insert(db, group.map((m) => m.record)) : Promise.resolve([]);
      });
      group!.forEach((member, i) => member.resolve(stored[i]));
    } catch (err) {
      group ??= this.take();
      if (group.length > 1 && refused(err)) {
        // Halves, each its own group, in order: the bad row is found in log2(size) steps, the others still share commits.
        const half = Math.ceil(group.length / 2);
        await this.commit(group.slice(0, half));
        await this.commit(group.slice(half));
        return;
      }
      for (const member of group) member.reject(err);
    }
  }

  /** The next group: the first waiting create and those after it that set the same columns; an aborted one is dropped, uncreated. */
  private take(): Member<T>[] {
    const group: Member<T>[] = [];
    const kept: Member<T>[] = [];
    let set: string | undefined;
    for (const member of this.waiting) {
      if (group.length === MAX_GROUP) kept.push(member);
      else if (member.signal?.aborted) member.reject(member.signal.reason);
      else {
        const own = this.inserts.columnSet(member.record);
        set ??= own;
        (own === set ? group : kept).push(member);
      }
    }
    this.waiting = kept;
    return group;
  }
}
