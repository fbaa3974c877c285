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
  private readonly lists: KeptInOrder<string, { items: readonly T[]; extra: unknown }>;

  constructor(recordsKept = RECORDS_KEPT, listedKept = LISTED_KEPT) {
    this.records = new KeptInOrder(recordsKept, () => 1);
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
    if (Math.max(1, items.length) > this.lists.bound) return;
    for (const item of items) Object.freeze(item);
    this.lists.keep(key, { items: items.slice(), extra });
  }

  /** A committed write to record `id` (created, changed or deleted): its record and every list go. */
  written(id: number): void {
    this.records.forget(id);
    this.lists.clear();
  }
}

/**
 * Values by key, at most `bound` in weight together: keeping one past the bound drops the one kept longest (kept
 * again, a key counts from then). Each step costs the same however many were kept and dropped before: the order
 * is a queue of its own, not the `Map`'s, whose first key is slow to find once many were deleted before it (V8
 * keeps a deleted entry's slot until the table is rebuilt; docs/maintainers/design.md).
 */
class KeptInOrder<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number; turn: number }>();
  /** Keys in the order they were kept, each with the turn it was kept on; a key kept again or forgotten since is stale here. */
  private queue: { key: K; turn: number }[] = [];
  private head = 0;
  private turns = 0;
  private weight = 0;

  constructor(
    readonly bound: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  keep(key: K, value: V): void {
    this.forget(key);
    const turn = ++this.turns;
    const weight = this.weigh(value);
    this.entries.set(key, { value, weight, turn });
    this.queue.push({ key, turn });
    this.weight += weight;
    while (this.weight > this.bound && this.head < this.queue.length) {
      const oldest = this.queue[this.head++];
      if (this.entries.get(oldest.key)?.turn === oldest.turn) this.forget(oldest.key);
    }
    // Stale places are dropped once they are most of the queue: the queue stays within twice the entries kept.
    if (this.queue.length - this.head > 2 * this.entries.size + 16) {
      this.queue = [...this.entries].map(([k, entry]) => ({ key: k, turn: entry.turn }));
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  forget(key: K): void {
    const kept = this.entries.get(key);
    if (!kept) return;
    this.entries.delete(key);
    this.weight -= kept.weight;
  }

  clear(): void {
    this.entries.clear();
    this.queue = [];
    this.head = 0;
    this.weight = 0;
  }
}
