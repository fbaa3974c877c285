import { KeptInOrder } from '../../kept-in-order';

/** Most records the cache of one collection keeps by id; the one kept longest goes first. */
export const RECORDS_KEPT = 10000;
/** Most records the lists (pages, children by parent) of one collection's cache hold together; the list kept longest goes first. */
export const LISTED_KEPT = 20000;

/**
 * What a store on SQLite read of one collection, as committed: records by id (frozen, shared) and lists by what they
 * answer (each handed out a copy). An entry is kept in the same synchronous step as the read that found it; a committed
 * write drops its record and every list before anything else runs (sqlite/writer.ts), and this process is the only
 * writer (sqlite/lock.ts). Keyed work, and memory's reads while keyed work holds its one connection, use none (design.md).
 */
export class CommittedCache<T extends { id: number }> {
  private readonly records: KeptInOrder<number, T>;
  /** Pages by their query's text, and children by their parent's id: a number, so no key is built per parent. */
  private readonly lists: KeptInOrder<string | number, { items: readonly T[]; extra: unknown }>;

  constructor(recordsKept = RECORDS_KEPT, listedKept = LISTED_KEPT) {
    this.records = new KeptInOrder(recordsKept);
    this.lists = new KeptInOrder(listedKept, (list) => Math.max(1, list.items.length));
  }

  record(id: number): T | undefined {
    return this.records.get(id);
  }

  /** Keeps `record` (frozen) and answers it. */
  keepRecord(record: T): T {
    Object.freeze(record);
    this.records.keep(record.id, record);
    return record;
  }

  /** The list kept under `key` (a copy of the caller's own) and what was kept with it. */
  list<E = undefined>(key: string): { items: T[]; extra: E } | undefined {
    const kept = this.lists.get(key);
    return kept && { items: kept.items.slice(), extra: kept.extra as E };
  }

  /** Keeps a list (its records frozen; a list weighs its length, at least 1) with `extra`; one heavier than the bound is not kept. */
  keepList(key: string, items: readonly T[], extra?: unknown): void {
    this.keep(key, items, extra);
  }

  /** The children kept of parent `parentId` (a copy of the caller's own). */
  children(parentId: number): T[] | undefined {
    return this.lists.get(parentId)?.items.slice();
  }

  /** Keeps the children of parent `parentId`, as a list is kept (they count in the same bound). */
  keepChildren(parentId: number, items: readonly T[]): void {
    this.keep(parentId, items, undefined);
  }

  private keep(key: string | number, items: readonly T[], extra: unknown): void {
    if (this.lists.keep(key, { items: items.slice(), extra })) for (const item of items) Object.freeze(item);
  }

  /**
   * A committed write to record `id` (created, changed or deleted): every list goes, and so does its record, replaced
   * by `record` (as written) when one was kept: a record no read asked for (a new one) is kept once a read finds it.
   */
  written(id: number, record?: T): void {
    this.lists.clear();
    // Keeping a record replaces the one kept under its id.
    if (record && this.records.get(id) !== undefined) this.keepRecord(record);
    else this.records.forget(id);
  }
}
