import { OverloadedError, StorageUnavailableError } from '../errors';
import type { Connection } from './driver';
import { abortsTransaction, sqliteCode, translate } from './errors';

interface Job {
  /** A plain write (synchronous), or a piece of keyed work (asynchronous, with its own savepoint). */
  run: () => unknown;
  keyed: boolean;
  /** For keyed work: whether its writes stay (false rolls them back to its savepoint). */
  keep?: (result: unknown) => boolean;
  /** Run right after the COMMIT that stored the write, before anything else runs (the store's cache follows it). */
  afterCommit?: (result: unknown) => void;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * The store's one writing connection: writes queued while the event loop is busy run in one transaction, one COMMIT
 * (one fsync) for all, each write's promise settled after it (docs/maintainers/storage.md, "Creates share commits").
 * - A plain write is synchronous, its one change its last statement: check and write with nothing in between. A failed
 *   statement (a constraint) is undone alone: that write is refused, the batch goes on.
 * - Keyed work (store.idempotent) is asynchronous: alone, in a savepoint of the batch; `keep` false or a throw rolls it back.
 * - When SQLite may have rolled the transaction back (disk full, I/O error, lock), or COMMIT fails, every write of the
 *   batch fails with StorageUnavailableError; a COMMIT I/O error is the one unknown outcome.
 */
export class Writer {
  private queue: Job[] = [];
  private scheduled = false;
  private running: Promise<void> | undefined;
  private closed = false;
  /** The changes to make once the keyed work running now is committed (its writes' afterCommit). */
  private keyedEffects: (() => void)[] | undefined;
  private readonly begin;
  private readonly commit;
  private readonly rollback;

  constructor(private readonly db: Connection) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /** Whether keyed work is running now: its writes are in the open transaction, not committed yet. */
  get inKeyedWork(): boolean {
    return this.keyedEffects !== undefined;
  }

  /** Runs `write` in the next batch; resolves with its result once the batch is committed, after `afterCommit` ran with it. */
  write<R>(write: () => R, afterCommit?: (result: R) => void): Promise<R> {
    return this.enqueue(write, false, undefined, afterCommit as ((result: unknown) => void) | undefined);
  }

  /** For a write made inside the keyed work running now: `effect` runs once that work's writes are committed, never if they are rolled back. */
  afterKeyedCommit(effect: () => void): void {
    if (!this.keyedEffects) throw new Error('no keyed work is running');
    this.keyedEffects.push(effect);
  }

  /** Runs `work` alone in the next batch, in a savepoint: its writes stay only when `keep` says so, and are committed with the batch. */
  keyed<R>(work: () => Promise<R>, keep: (result: R) => boolean): Promise<R> {
    return this.enqueue(work, true, keep as (result: unknown) => boolean);
  }

  /** Writes still queued run; then nothing more is taken. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running || this.queue.length > 0) await (this.running ?? this.flush());
  }

  private enqueue<R>(run: Job['run'], keyed: boolean, keep?: Job['keep'], afterCommit?: Job['afterCommit']): Promise<R> {
    if (this.closed) return Promise.reject(new StorageUnavailableError('Storage is closed'));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ run, keyed, keep, afterCommit, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled && !this.running) {
        this.scheduled = true;
        // setImmediate: after the requests already read from the sockets have queued their writes.
        setImmediate(() => void this.flush());
      }
    });
  }

  private flush(): Promise<void> {
    this.scheduled = false;
    // One batch at a time: the running one's end flushes what was queued meanwhile.
    if (this.running) return this.running;
    this.running = this.runBatch(this.queue.splice(0)).finally(() => {
      this.running = undefined;
      if (this.queue.length > 0) void this.flush();
    });
    return this.running;
  }

  private async runBatch(jobs: Job[]): Promise<void> {
    if (jobs.length === 0) return;
    const done: (() => void)[] = [];
    let committing = false;
    try {
      this.begin.run();
      for (const job of jobs) {
        const outcome = job.keyed ? await this.runKeyed(job) : this.runPlain(job);
        if (outcome) done.push(outcome);
      }
      committing = true;
      this.commit.run();
    } catch (err) {
      this.abandon(err, jobs, committing);
      return;
    }
    for (const settle of done) settle();
  }

  /** A plain write: its result settles after COMMIT; its own failure settles it at once (nothing of it was written). */
  private runPlain(job: Job): (() => void) | undefined {
    try {
      const result = job.run();
      return () => {
        job.afterCommit?.(result);
        job.resolve(result);
      };
    } catch (err) {
      if (abortsTransaction(err)) throw err;
      job.reject(translate(err));
      return undefined;
    }
  }

  private async runKeyed(job: Job): Promise<(() => void) | undefined> {
    this.db.exec('SAVEPOINT keyed');
    const effects: (() => void)[] = (this.keyedEffects = []);
    let result: unknown;
    try {
      result = await job.run();
    } catch (err) {
      this.undoKeyed(err);
      job.reject(translate(err));
      return undefined;
    } finally {
      this.keyedEffects = undefined;
    }
    if (!job.keep!(result)) {
      this.undoKeyed();
      job.resolve(result);
      return undefined;
    }
    this.db.exec('RELEASE keyed');
    return () => {
      for (const effect of effects) effect();
      job.resolve(result);
    };
  }

  private undoKeyed(err?: unknown): void {
    if (err !== undefined && abortsTransaction(err)) throw err;
    this.db.exec('ROLLBACK TO keyed; RELEASE keyed');
  }

  /** The batch failed as a whole: rolled back, and every write not settled yet fails (none of them was acknowledged). */
  private abandon(err: unknown, jobs: Job[], committing: boolean): void {
    try {
      this.rollback.run();
    } catch {
      // SQLite rolled it back already.
    }
    let failure = translate(err);
    if (committing && sqliteCode(err) === 'SQLITE_IOERR') {
      failure = new StorageUnavailableError('COMMIT failed: the write may or may not be stored', { cause: err, outcomeUnknown: true });
    } else if (!(failure instanceof StorageUnavailableError || failure instanceof OverloadedError)) {
      failure = new StorageUnavailableError('Storage is unreachable', { cause: err });
    }
    // Writes refused on their own, and keyed work whose answer was not kept, are settled already: this changes nothing for them.
    for (const job of jobs) job.reject(failure);
  }
}
