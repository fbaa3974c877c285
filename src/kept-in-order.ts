/**
 * Values by key, at most `bound` in weight together: keeping one past the bound drops the one kept longest (kept
 * again, a key counts from then); one heavier than the whole bound is not kept. Each step costs the same however many were kept and dropped before: the order
 * is a queue of its own, not the `Map`'s, whose first key is slow to find once many were deleted before it (V8
 * keeps a deleted entry's slot until the table is rebuilt; docs/maintainers/design.md).
 */
export class KeptInOrder<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number; turn: number }>();
  /** Keys in the order they were kept, each with the turn it was kept on; a key kept again or forgotten since is stale here. */
  private queue: { key: K; turn: number }[] = [];
  private head = 0;
  private turns = 0;
  private weight = 0;

  constructor(
    private readonly bound: number,
    /** A value's weight: 1 each unless told, so the bound is a count. */
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  /** How many values are kept. */
  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Keeps `value` under `key`; false (and nothing changed) when it is heavier than the whole bound. */
  keep(key: K, value: V): boolean {
    const weight = this.weigh(value);
    if (weight > this.bound) return false;
    this.forget(key);
    const turn = ++this.turns;
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
    return true;
  }

  forget(key: K): void {
    const kept = this.entries.get(key);
    if (!kept) return;
    this.entries.delete(key);
    this.weight -= kept.weight;
  }

  clear(): void {
    // Nothing made when there is nothing to drop: V8's Map#clear allocates a new table even for an empty Map.
    if (this.entries.size > 0) this.entries.clear();
    if (this.queue.length > 0) this.queue = [];
    this.head = 0;
    this.weight = 0;
  }
}
