import { withDefaults } from '../model';
import { batchesAfter, LIST_BATCH, STALE, type ChildCollection, type Collection, type Expect, type ListResult, type NewRecord, type Page, type Stale } from '../types';
import type { Connection, Statement } from './driver';
import { translating as reading } from './errors';
import { insertSql, type SqliteTable } from './tables';

/**
 * Runs a write: in the next batch of the store's writer, or at once inside keyed work that holds the writer.
 * `afterCommit` runs with its result once it is committed (never when it is rolled back).
 */
export type Writes = <R>(write: () => R, afterCommit?: (result: R) => void) => Promise<R>;

/** Prepared statements, made on first use and reused. */
class Statements {
  private readonly made = new Map<string, Statement>();
  constructor(private readonly db: Connection) {}
  get(sql: string): Statement {
    let statement = this.made.get(sql);
    if (!statement) this.made.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

/**
 * A collection stored in one SQLite table. Reads run on `reader` at once (SQLite answers synchronously, from
 * its page cache; a record or a page of one batch from `cache` when it holds them, CommittedCache below); writes through
 * `writes`, on `writer`, where a conditional write reads the current row and writes with nothing in between,
 * and the cache follows each write once it is committed. In keyed work both connections are the writing one,
 * so the work sees its own uncommitted writes: there no read uses or fills the cache (`committedReads` false).
 */
export class SqliteCollection<T extends { id: number }> implements Collection<T> {
  protected readonly reads: Statements;
  private readonly writeStatements: Statements;
  private readonly name: string;
  /** The hot statements' text, made once (each is prepared on first use, per connection). */
  private readonly sql: Record<'stats' | 'first' | 'next' | 'get' | 'delete', string>;

  constructor(
    reader: Connection,
    writer: Connection,
    protected readonly table: SqliteTable<T>,
    private readonly writes: Writes,
    /** Differs at every open of the file: with the write counter, a version never names two contents. */
    private readonly epoch: string,
    /** What was read of the collection as committed (CommittedCache), shared by the store and its keyed work. */
    protected readonly cache: CommittedCache<T>,
    protected readonly committedReads: boolean,
  ) {
    this.reads = new Statements(reader);
    this.writeStatements = reader === writer ? this.reads : new Statements(writer);
    this.name = table.def.name;
    const select = `SELECT ${table.select} FROM ${this.name}`;
    this.sql = {
      stats: 'SELECT total, writes FROM collection_stats WHERE name = ?',
      first: `${select} ORDER BY id LIMIT ? OFFSET ?`,
      next: `${select} WHERE id > ? ORDER BY id LIMIT ?`,
      get: `${select} WHERE id = ?`,
      delete: `DELETE FROM ${this.name} WHERE id = ?`,
    };
  }

  /**
   * The total and the version, and the page's records: read now when they fit in one batch (its statements
   * run one after another in this one synchronous step, and this process is the file's only writer, lock.ts,
   * so the total, the version and the records agree), or taken from the cache when it kept this page; otherwise
   * batch by batch (the first by offset, the
   * rest by id from the last one read) as `rest` is pulled. A longer list's first batch is read on the
   * writer's turn too (src/http/write-turns.ts): a burst of requests for a big list reads no records, and
   * holds none, until each answer is being written.
   */
  async list(page: Page = {}): Promise<ListResult<T>> {
    const limit = page.limit ?? Infinity;
    const offset = page.offset ?? 0;
    const key = `p${offset}:${limit}`;
    const kept = this.committedReads ? this.cache.list<{ total: number; version: string }>(key) : undefined;
    if (kept) return { items: kept.items, ...kept.extra };
    return reading(() => {
      const stats = this.reads.get(this.sql.stats).get(this.name)!;
      const total = Number(stats.total);
      const version = `${this.epoch}.${stats.writes}`;
      const size = Math.max(0, Math.min(limit, total - offset));
      if (size > LIST_BATCH) return { items: [], rest: this.batches(offset, limit), total, version };
      const items = this.reads.get(this.sql.first).all(Math.min(limit, LIST_BATCH), offset).map((row) => this.table.fromRow(row));
      if (this.committedReads) this.cache.keepList(key, items, { total, version });
      return { items, total, version };
    });
  }

  /** The page from `offset`, at most `limit` records, a batch per pull (each read when asked for). */
  private batches(offset: number, limit: number): AsyncIterable<T[]> {
    const first = this.reads.get(this.sql.first);
    const next = this.reads.get(this.sql.next);
    const fromRow = (row: Record<string, unknown>) => this.table.fromRow(row);
    return batchesAfter(undefined, limit, (from, size) => reading(() => (from === undefined ? first.all(size, offset) : next.all(from, size))).map(fromRow));
  }

  async get(id: number): Promise<T | undefined> {
    if (!this.committedReads) return reading(() => this.getOn(this.reads, id));
    const cached = this.cache.record(id);
    if (cached) return cached;
    const record = reading(() => this.getOn(this.reads, id));
    return record && this.cache.keepRecord(record);
  }

  private getOn(statements: Statements, id: number): T | undefined {
    const row = statements.get(this.sql.get).get(id);
    return row && this.table.fromRow(row);
  }

  /** The id is AUTOINCREMENT's, given by the INSERT in the batch's transaction (schema.ts). */
  async create(data: NewRecord<T>): Promise<T> {
    const { columns, values } = this.table.present(withDefaults(this.table.def.resource, data));
    const sql = `${insertSql(this.name, columns.map((c) => c.column))} RETURNING ${this.table.select}`;
    return this.writes(
      () => this.table.fromRow(this.writeStatements.get(sql).get(...values)!),
      (record) => this.committed(record.id, record),
    );
  }

  update(id: number, patch: Partial<Omit<T, 'id'>>): Promise<T | undefined>;
  update(id: number, patch: Partial<Omit<T, 'id'>>, expect: Expect<T> | undefined): Promise<T | undefined | Stale>;
  async update(id: number, patch: Partial<Omit<T, 'id'>>, expect?: Expect<T>): Promise<T | undefined | Stale> {
    const { columns, values } = this.table.present(patch);
    if (columns.length === 0 && !expect) return this.get(id);
    const sql = `UPDATE ${this.name} SET ${columns.map((c) => `"${c.column}" = ?`).join(', ')} WHERE id = ? RETURNING ${this.table.select}`;
    return this.writes(() => {
      if (expect || columns.length === 0) {
        const current = this.getOn(this.writeStatements, id);
        if (!current) return undefined;
        if (expect && !expect(current)) return STALE;
        if (columns.length === 0) return current;
      }
      const row = this.writeStatements.get(sql).get(...values, id);
      return row && this.table.fromRow(row);
    }, (result) => {
      if (result && result !== STALE) this.committed(id, result);
    });
  }

  delete(id: number): Promise<boolean>;
  delete(id: number, expect: Expect<T> | undefined): Promise<boolean | Stale>;
  async delete(id: number, expect?: Expect<T>): Promise<boolean | Stale> {
    return this.writes(() => {
      if (expect) {
        const current = this.getOn(this.writeStatements, id);
        if (!current) return false;
        if (!expect(current)) return STALE;
      }
      return Number(this.writeStatements.get(this.sql.delete).run(id).changes) > 0;
    }, (deleted) => {
      if (deleted === true) this.committed(id);
    });
  }

  /** Once a write to record `id` is committed: the cache drops what it changed, and keeps the record as written. */
  private committed(id: number, record?: T): void {
    this.cache.written(id);
    if (record) this.cache.keepRecord(record);
  }
}

export class SqliteChildCollection<T extends { id: number }, K extends keyof T & string>
  extends SqliteCollection<T>
  implements ChildCollection<T, K>
{
  private readonly byParents: string;

  constructor(
    reader: Connection,
    writer: Connection,
    table: SqliteTable<T>,
    readonly parentKey: K,
    writes: Writes,
    epoch: string,
    cache: CommittedCache<T>,
    committedReads: boolean,
  ) {
    super(reader, writer, table, writes, epoch, cache, committedReads);
    const column = table.def.columns.find((c) => c.field === parentKey);
    if (!column) throw new Error(`table ${table.def.name} has no column for ${parentKey}`);
    this.byParents = `SELECT ${table.select} FROM ${table.def.name} WHERE "${column.column}" IN (SELECT value FROM json_each(?)) ORDER BY id`;
  }

  /**
   * The parents' children, answered synchronously (as the memory store does: see ChildCollection): those of
   * parents the cache holds from there, the others' with one statement for all of them, then kept.
   */
  listByParents(parentIds: readonly number[]): Map<number, T[]> {
    const byParent = new Map<number, T[]>();
    const missing: number[] = [];
    for (const id of parentIds) {
      if (byParent.has(id)) continue;
      const kept = this.committedReads ? this.cache.list(`c${id}`)?.items : undefined;
      byParent.set(id, kept ?? []);
      if (!kept) missing.push(id);
    }
    if (missing.length === 0) return byParent;
    const rows = reading(() => this.reads.get(this.byParents).all(JSON.stringify(missing)));
    for (const row of rows) {
      const child = this.table.fromRow(row);
      byParent.get(child[this.parentKey] as number)?.push(child);
    }
    if (this.committedReads) for (const id of missing) this.cache.keepList(`c${id}`, byParent.get(id)!);
    return byParent;
  }
}

/** Most records the cache of one collection keeps by id; the one kept longest goes first. */
export const RECORDS_KEPT = 10000;
/** Most records the lists (pages, children by parent) of one collection's cache hold together; the list kept longest goes first. */
export const LISTED_KEPT = 20000;

/**
 * What the SQLite store read of one collection, as committed: records by id, and lists (a page of the
 * collection with its total and version, a parent's children) by what they answer. Records are frozen:
 * callers share them and cannot change them; each list handed out is a copy of the caller's own.
 *
 * One rule keeps it coherent: an entry is kept in the same synchronous step as the read on the reading
 * connection (committed data) that found it, and a committed write to the collection drops what it may have
 * changed (its record, and every list) before anything else runs (writer.ts runs it right after COMMIT). This
 * process is the file's only writer (lock.ts); a write rolled back changes nothing here. Keyed work, which
 * reads its own uncommitted writes, uses no cache. What it buys, and how it was measured: docs/design.md.
 */
export class CommittedCache<T extends { id: number }> {
  private readonly records = new Map<number, T>();
  private readonly lists = new Map<string, { items: readonly T[]; extra: unknown }>();
  private listed = 0;

  constructor(
    private readonly recordsKept = RECORDS_KEPT,
    private readonly listedKept = LISTED_KEPT,
  ) {}

  record(id: number): T | undefined {
    return this.records.get(id);
  }

  /** Keeps `record` (frozen) and answers it. */
  keepRecord(record: T): T {
    Object.freeze(record);
    this.records.delete(record.id);
    this.records.set(record.id, record);
    if (this.records.size > this.recordsKept) this.records.delete(this.records.keys().next().value!);
    return record;
  }

  /** The list kept under `key` (a copy of the caller's own) and what was kept with it. */
  list<E = undefined>(key: string): { items: T[]; extra: E } | undefined {
    const kept = this.lists.get(key);
    return kept && { items: kept.items.slice(), extra: kept.extra as E };
  }

  /** Keeps a list (its records frozen; a list weighs its length, at least 1) with `extra`; one heavier than the bound is not kept. */
  keepList(key: string, items: readonly T[], extra?: unknown): void {
    const weight = Math.max(1, items.length);
    if (weight > this.listedKept) return;
    for (const item of items) Object.freeze(item);
    this.forgetList(key);
    this.lists.set(key, { items: items.slice(), extra });
    this.listed += weight;
    for (const oldest of this.lists.keys()) {
      if (this.listed <= this.listedKept) break;
      this.forgetList(oldest);
    }
  }

  /** A committed write to record `id` (created, changed or deleted): its record and every list go. */
  written(id: number): void {
    this.records.delete(id);
    this.lists.clear();
    this.listed = 0;
  }

  private forgetList(key: string): void {
    const kept = this.lists.get(key);
    if (!kept) return;
    this.lists.delete(key);
    this.listed -= Math.max(1, kept.items.length);
  }
}
