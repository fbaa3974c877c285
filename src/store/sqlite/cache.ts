/** Most records one collection's cache keeps (about 100 bytes each for a book); the oldest kept goes first. */
export const CACHE_SIZE = 10000;

/**
 * Records of one collection as last committed, by id, frozen: `get` answers from here without a statement,
 * and the registrar's ETag memo (src/rest/conditional.ts) recognises a record it has tagged before. Measured
 * with `node bench/sqlite.js --part=service` (medians, SQLite against memory in the same rounds): `GET /books/1`
 * at 0.71x without the cache, 1.05x with it (Node 20).
 *
 * Coherent because this process is the file's only writer (lock.ts): an entry is filled from the reading
 * connection (committed data) in the same synchronous step as that read, and every write changes its entry
 * only after its COMMIT (writer.ts runs the changes then, before anything else can run); a write rolled
 * back changes nothing here. A write made by another program while the service runs is not seen here.
 */
export class RecordCache<T extends { id: number }> {
  private readonly records = new Map<number, T>();

  constructor(private readonly size = CACHE_SIZE) {}

  get(id: number): T | undefined {
    return this.records.get(id);
  }

  /** Keeps `record` (frozen: callers share it, and cannot change it) and answers it. */
  keep(record: T): T {
    Object.freeze(record);
    this.records.delete(record.id);
    this.records.set(record.id, record);
    if (this.records.size > this.size) this.records.delete(this.records.keys().next().value!);
    return record;
  }

  forget(id: number): void {
    this.records.delete(id);
  }
}

/**
 * Lists of records by key, the records frozen and each list handed out as a copy of the caller's own; a list
 * weighs `weight(list)`, and while the lists kept weigh more than `size`, the list kept longest goes first.
 * A list that alone weighs more than `size` is not kept. The children cache and the page cache below.
 */
class FrozenLists<K, T> {
  private readonly lists = new Map<K, readonly T[]>();
  private held = 0;

  constructor(
    private readonly size: number,
    private readonly weight: (list: readonly T[]) => number,
  ) {}

  get(key: K): T[] | undefined {
    return this.lists.get(key)?.slice();
  }

  keep(key: K, list: readonly T[]): void {
    const weight = this.weight(list);
    if (weight > this.size) return;
    for (const item of list) Object.freeze(item);
    this.forget(key);
    this.lists.set(key, list.slice());
    this.held += weight;
    for (const [oldest, kept] of this.lists) {
      if (this.held <= this.size) break;
      this.forget(oldest, kept);
    }
  }

  clear(): void {
    this.lists.clear();
    this.held = 0;
  }

  private forget(key: K, kept = this.lists.get(key)): void {
    if (!kept) return;
    this.lists.delete(key);
    this.held -= this.weight(kept);
  }
}

/** Most children one child collection's cache keeps, over all its parents; the parent kept longest goes first. */
export const CHILDREN_CACHE_SIZE = 20000;

/**
 * A child collection's records by parent, as last committed, each parent's in id order (the records frozen):
 * `listByParents` answers the parents kept here without a statement, and reads only the others. Measured with
 * `node bench/sqlite.js --part=service` (GraphQL users with their posts and comments, SQLite against memory).
 * A parent counts as one child at least, so parents with no children are kept, and bounded, too; a parent with
 * more children than the cache holds is not kept.
 *
 * Coherent as RecordCache is: a parent's children are kept in the same synchronous step as the read that
 * found them, and every committed write to the collection empties the cache (a child created, changed, moved
 * to another parent or deleted), before anything else can run. Posts and comments are written far more
 * rarely than they are read; a collection written often only reads its children as it would without it.
 */
export class ChildrenCache<T extends { id: number }> extends FrozenLists<number, T> {
  constructor(size = CHILDREN_CACHE_SIZE) {
    super(size, (children) => Math.max(1, children.length));
  }
}

/** Most pages one collection's page cache keeps (each of at most one batch, LIST_BATCH records). */
export const PAGE_CACHE_SIZE = 16;

/**
 * Pages of one collection that fit in one batch (the records frozen), read at the collection's current
 * version: `list` answers a page from here when the version it reads (collection_stats, with the total) is
 * still that one, and reads the records otherwise. No write has to reach it: every write changes the version
 * in the same transaction, and the first page kept at a new version drops every page kept before. At most
 * PAGE_CACHE_SIZE pages are kept; the page kept longest goes first.
 */
export class PageCache<T extends { id: number }> {
  private readonly pages: FrozenLists<string, T>;
  private version = '';

  constructor(size = PAGE_CACHE_SIZE) {
    this.pages = new FrozenLists(size, () => 1);
  }

  /** The page (a list of the caller's own) when it was kept at `version`. */
  get(page: string, version: string): T[] | undefined {
    return version === this.version ? this.pages.get(page) : undefined;
  }

  keep(page: string, version: string, items: readonly T[]): void {
    if (version !== this.version) {
      this.pages.clear();
      this.version = version;
    }
    this.pages.keep(page, items);
  }
}
