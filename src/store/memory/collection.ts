import { randomUUID } from 'node:crypto';
import { recordShaper, withDefaults, type ResourceModel } from '../model';
import { STALE, type ChildCollection, type Collection, type Expect, type ListResult, type NewRecord, type Page, type Stale } from '../types';

/**
 * An in-memory collection. Records live in a Map kept in insertion order, which is id order because
 * ids only grow. Stored records are frozen copies shaped as the contract says (model.ts `recordShaper`:
 * fields in its order, an absent optional field absent, aliases filled in), made when they are written (copy on write: an update stores a new frozen record,
 * never changes one in place). Reads hand out those frozen records without copying them, so a list
 * of 10,000 records costs no 10,000 copies, and callers still never change stored data: a write to
 * a returned record throws (strict mode) or is ignored. Records are flat (every field a scalar), so
 * freezing the copy freezes all of it.
 */
export class MemoryCollection<T extends { id: number }> implements Collection<T> {
  protected readonly records = new Map<number, T>();
  private lastId = 0;
  private readonly copy: (record: T) => T;
  /** Counts the writes; with the store's `epoch`, names the collection's contents (ListResult.version). */
  private writes = 0;
  /** The records in id order, built on the first list after a write. */
  private ordered?: T[];

  constructor(
    private readonly resource: ResourceModel,
    seed: readonly T[] = [],
    /** Differs between store instances, so a version never names two contents (a restart starts from the seed again). */
    private readonly epoch: string = randomUUID(),
  ) {
    this.copy = recordShaper<T>(resource) as (record: T) => T;
    for (const record of [...seed].sort((a, b) => a.id - b.id)) {
      this.records.set(record.id, this.frozenCopy(record));
      this.lastId = Math.max(this.lastId, record.id);
    }
  }

  /** The page in one batch: the records are in memory already, and the copy holds references, not records. */
  async list(page: Page = {}): Promise<ListResult<T>> {
    this.ordered ??= [...this.records.values()];
    const offset = page.offset ?? 0;
    const items = this.ordered.slice(offset, page.limit === undefined ? undefined : offset + page.limit);
    return { items, total: this.ordered.length, version: `${this.epoch}.${this.writes}` };
  }

  async get(id: number): Promise<T | undefined> {
    return this.records.get(id);
  }

  async create(data: NewRecord<T>): Promise<T> {
    // Synchronous from here to the set: no other create can interleave, so ids stay unique.
    this.lastId += 1;
    // The id is forced, so a stray `id` in data can never win.
    const record = this.frozenCopy({ ...withDefaults(this.resource, data), id: this.lastId } as unknown as T);
    this.records.set(record.id, record);
    this.stored(record);
    return record;
  }

  // Check and write are one synchronous step (no await in between): a conditional write cannot lose a race.
  update(id: number, patch: Partial<Omit<T, 'id'>>): Promise<T | undefined>;
  update(id: number, patch: Partial<Omit<T, 'id'>>, expect: Expect<T> | undefined): Promise<T | undefined | Stale>;
  async update(id: number, patch: Partial<Omit<T, 'id'>>, expect?: Expect<T>): Promise<T | undefined | Stale> {
    const current = this.records.get(id);
    if (!current) return undefined;
    if (expect && !expect(current)) return STALE;
    const next = { ...current };
    for (const [key, value] of Object.entries(patch)) {
      if (value !== undefined) (next as Record<string, unknown>)[key] = value;
    }
    const stored = this.frozenCopy(next);
    this.records.set(id, stored);
    this.stored(stored, current);
    return stored;
  }

  delete(id: number): Promise<boolean>;
  delete(id: number, expect: Expect<T> | undefined): Promise<boolean | Stale>;
  async delete(id: number, expect?: Expect<T>): Promise<boolean | Stale> {
    const current = this.records.get(id);
    if (!current) return false;
    if (expect && !expect(current)) return STALE;
    this.records.delete(id);
    this.removed(current);
    return true;
  }

  private frozenCopy(record: T): T {
    return Object.freeze(this.copy(record));
  }

  /** Called in the same synchronous step as a write, for indexes kept beside `records`. */
  protected stored(_record: T, _previous?: T): void {
    this.changed();
  }

  protected removed(_record: T): void {
    this.changed();
  }

  private changed(): void {
    this.writes += 1;
    this.ordered = undefined;
  }
}

/** A parent's children: by id, and (once asked for, until a write changes them) as a list in id order. */
interface Children<T> {
  readonly byId: Map<number, T>;
  list?: T[];
}

export class MemoryChildCollection<T extends { id: number }, K extends keyof T>
  extends MemoryCollection<T>
  implements ChildCollection<T, K>
{
  /**
   * Parent id -> its children: a batch costs a lookup per parent, not a scan of the collection. Each
   * parent's list is built and sorted once, until a write to one of its children drops it; a reader
   * gets a copy of it, its own to change. (Not the list itself, frozen: V8 iterates a frozen array
   * with for...of, as graphql-jit walks every list it resolves, more slowly than a plain one, and
   * copying a short plain list costs less than that; measured in docs/design.md, "Speed tricks".)
   */
  private readonly byParent = new Map<T[K], Children<T>>();

  constructor(
    resource: ResourceModel,
    readonly parentKey: K,
    seed: readonly T[] = [],
    epoch?: string,
  ) {
    super(resource, seed, epoch);
    for (const record of this.records.values()) this.stored(record);
  }

  /** Synchronous (see ChildCollection): the records are in memory. */
  listByParents(parentIds: readonly number[]): Map<number, T[]> {
    const out = new Map<number, T[]>();
    for (const parentId of parentIds) out.set(parentId, this.childrenOf(parentId));
    return out;
  }

  private childrenOf(parentId: number): T[] {
    const children = this.byParent.get(parentId as T[K]);
    if (!children) return [];
    // Updates keep a child's place and a moved child joins at the end, so sort: ids give the order.
    children.list ??= [...children.byId.values()].sort((a, b) => a.id - b.id);
    return children.list.slice();
  }

  protected override stored(record: T, previous?: T): void {
    super.stored(record, previous);
    if (previous && previous[this.parentKey] !== record[this.parentKey]) this.removed(previous);
    const parent = record[this.parentKey];
    let children = this.byParent.get(parent);
    if (!children) this.byParent.set(parent, (children = { byId: new Map() }));
    children.byId.set(record.id, record);
    children.list = undefined;
  }

  protected override removed(record: T): void {
    super.removed(record);
    const children = this.byParent.get(record[this.parentKey]);
    if (!children) return;
    children.byId.delete(record.id);
    children.list = undefined;
    if (children.byId.size === 0) this.byParent.delete(record[this.parentKey]);
  }
}
