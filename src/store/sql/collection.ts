import { settled, withDefaults } from '../model';
import { checkQuery, encodeCursor, type ListQuery, type QueryLimits } from '../query';
import { addFolds } from '../tables';
import { batchesAfter, LIST_BATCH, STALE, then, type ChildCollection, type Counted, type Collection, type Expect, type ListResult, type MaybePromise, type NewRecord, type Stale, type Store } from '../types';
import type { CommittedCache } from './cache';
import { bindings, TOTAL, VERSION, type Compiled, type TableSql } from './table';

export type Row = Record<string, unknown>;
/** Runs one statement: its rows (objects, or arrays in select order: PostgreSQL's, cheaper to read), at once (SQLite) or as a promise. */
export type Run = (statement: Compiled, parameters: unknown[]) => MaybePromise<(Row | unknown[])[]>;

/** A write to one record (an update or a delete), as SqlCollection hands it to its Database. */
export interface RecordWrite<R> {
  /** Decides on the record as stored (its row, there is one): a result that writes nothing, or undefined to write. Absent: the write depends on nothing read. */
  check?(row: Row | unknown[]): { result: R } | undefined;
  /** The write (slot 0 the id) and its slots' values; the dialect's `rowVersion` slots, if any, are the Database's to add. */
  statement: Compiled;
  slots: unknown[];
  /** The result from the rows the statement answered (none: there was no record). */
  written(rows: (Row | unknown[])[]): R;
}

/** A store's per-database part: where reads run, how a write is made atomic and durable, how a new record gets its id. */
export interface Database {
  /** Runs a read on committed data (in keyed work: on the work's own connection). */
  read: Run;
  /**
   * One write to record `id`, atomic with the read it is decided on (the record it checks cannot change before it is
   * written); `afterCommit` once committed. Its result is `write.written` of the rows the statement answers, none when
   * there is no record; or what `write.check` answers, unwritten.
   */
  writeRecord<R>(table: TableSql, id: number, write: RecordWrite<R>, afterCommit?: (result: R) => void): Promise<R>;
  /** Stores a new record (its written columns' values, lower-cased copies included) with the next id; answers its row. */
  create(table: TableSql, values: Row): Promise<Row | unknown[]>;
  /** Whether reads may use and fill the committed cache now (the memory store's one connection may hold keyed work). */
  readonly cacheable: () => boolean;
}

/**
 * A collection of the contract in one SQL table: the one implementation every store runs, parameterised by its
 * Database. With `cache` (stores on SQLite, the only writer), reads of committed data are kept (cache.ts).
 */
export class SqlCollection<T extends { id: number }> implements Collection<T> {
  private readonly name: string;

  constructor(
    protected readonly table: TableSql,
    protected readonly db: Database,
    protected readonly cache: CommittedCache<T> | undefined,
    private readonly limits: QueryLimits,
  ) {
    this.name = table.def.name;
  }

  /** A row as the contract shapes a record: its fields only, SQLite's 0/1 and JSON text read back, absent optional fields left out, aliases added. */
  protected record(row: Row | unknown[], from = 0): T {
    const { columns, shape } = this.table.def;
    const decodes = this.table.dialect.decodes;
    const array = Array.isArray(row);
    const record: Row = { id: array ? row[from] : row.id };
    // A plain loop over the columns, no closure per row: a page of 50 decodes 50 rows per request.
    for (let i = 0; i < columns.length; i += 1) {
      const c = columns[i];
      const value = array ? row[from + i + 1] : row[c.field];
      record[c.field] = !decodes || value === null ? value : c.kind === 'boolean' ? value === 1 : c.kind === 'json' ? JSON.parse(value as string) : value;
    }
    return shape ? (shape(record) as T) : settled<T>(record);
  }

  protected caching(): CommittedCache<T> | undefined {
    return this.cache && this.db.cacheable() ? this.cache : undefined;
  }

  /**
   * The total, the version and the page's first records in one statement (one snapshot); a page longer than a batch
   * reads its rest batch by batch, by keyset from the last record read, as it is pulled. A cursor page is read whole
   * (limit + 1 records: the one past the page says whether another follows).
   */
  list(query?: ListQuery & { after?: undefined }): Promise<Counted<T>>;
  list(query: ListQuery): Promise<ListResult<T>>;
  async list(query: ListQuery = {}): Promise<ListResult<T>> {
    checkQuery(this.table.def.resource, query, this.limits);
    const cache = this.caching();
    const key = cache && JSON.stringify(query);
    const cursorPage = query.limit !== undefined && query.offset === undefined;
    const wanted = query.limit ?? Infinity;
    const size = cursorPage ? wanted + 1 : Math.min(wanted, LIST_BATCH);
    let planned: ReturnType<TableSql['plan']> | undefined;
    const planOf = () => (planned ??= this.table.plan(query, query.after === undefined, size));
    // Each later batch is kept as a page is (under the list's key and the record it follows: the cache holds one
    // version of the collection), so a long list read again costs no statement until a write to the collection drops it.
    const read = (last: T, n: number) => {
      const at = this.caching();
      const batchKey = key && at && `${key}@${last.id}:${n}`;
      const keptBatch = batchKey ? at!.list(batchKey) : undefined;
      if (keptBatch) return keptBatch.items;
      const next = planOf().next(last as Row, n);
      return then(this.db.read(next.statement, bindings(next.statement, next.values)), (more) => {
        const batch = more.map((row) => this.record(row));
        if (batchKey) at!.keepList(batchKey, batch);
        return batch;
      });
    };
    const kept = key ? cache!.list<Omit<ListResult<T>, 'items'> & { left?: number }>(key) : undefined;
    if (kept) {
      const { left, ...extra } = kept.extra;
      return { items: kept.items, ...(left ? { rest: batchesAfter(kept.items[kept.items.length - 1], left, read) } : {}), ...extra };
    }
    const plan = planOf();
    return then(this.db.read(plan.first, bindings(plan.first, plan.values)), (rows): ListResult<T> => {
      // The first row holds the total and the version, the others a record each (after their place in the answer).
      const meta = rows[0] as Row & unknown[];
      const [total, version] = Array.isArray(meta) ? [Number(meta.at(-2)), String(meta.at(-1))] : [Number(meta[TOTAL]), String(meta[VERSION])];
      // Filled by push, never preallocated: a preallocated array stays "holey" in V8, and JSON.stringify takes its
      // slow path (a property lookup per element) for holey arrays when the page is written.
      const items: T[] = [];
      for (let i = 1; i < rows.length; i += 1) items.push(this.record(rows[i], 1));
      const result: Omit<ListResult<T>, 'items'> = { version, ...(query.after === undefined ? { total } : {}) };
      if (cursorPage) {
        if (items.length > wanted) {
          items.length = wanted;
          result.next = encodeCursor(this.name, plan.keys, items[wanted - 1] as Row);
        }
      } else if (items.length === size && wanted > size && !((query.offset ?? 0) + size >= result.total!)) {
        if (key) cache!.keepList(key, items, { ...result, left: wanted - size });
        return { items, rest: batchesAfter(items[items.length - 1], wanted - size, read), ...result };
      }
      if (key && items.length <= LIST_BATCH) cache!.keepList(key, items, result);
      return { items, ...result };
    });
  }

  async get(id: number): Promise<T | undefined> {
    const cache = this.caching();
    const kept = cache?.record(id);
    if (kept) return kept;
    return then(this.db.read(this.table.byId, [id]), ([row]) => {
      const record = row && this.record(row);
      return record && cache ? cache.keepRecord(record) : record;
    });
  }

  async create(data: NewRecord<T>): Promise<T> {
    const values = this.written(withDefaults(this.table.def.resource, data) as Row);
    const record = this.record(await this.db.create(this.table, values));
    this.committed(record.id, record);
    return record;
  }

  /** The fields a write sets (a required field is never set to null), with their lower-cased copies, as bound. */
  private written(fields: Row): Row {
    const set: Row = {};
    for (const c of this.table.def.columns) {
      const value = fields[c.field];
      if (value !== undefined && (value !== null || !c.required || c.nullable)) set[c.field] = value;
    }
    return addFolds(this.table.def, set);
  }

  update(id: number, patch: Partial<Omit<T, 'id'>>): Promise<T | undefined>;
  update(id: number, patch: Partial<Omit<T, 'id'>>, expect: Expect<T> | undefined): Promise<T | undefined | Stale>;
  async update(id: number, patch: Partial<Omit<T, 'id'>>, expect?: Expect<T>): Promise<T | undefined | Stale> {
    const values = this.written(patch as Row);
    const fields = Object.keys(values);
    if (fields.length === 0 && !expect) return this.get(id);
    const statement = this.table.update(fields);
    const check =
      expect || fields.length === 0
        ? (row: Row | unknown[]): { result: T | Stale } | undefined => {
            const current = this.record(row);
            if (expect && !expect(current)) return { result: STALE };
            return fields.length === 0 ? { result: current } : undefined;
          }
        : undefined;
    return this.db.writeRecord<T | undefined | Stale>(
      this.table,
      id,
      { check, statement, slots: [id, ...fields.map((f) => this.table.bind(f, values[f]))], written: ([row]) => row && this.record(row) },
      (result) => {
        if (result && result !== STALE) this.committed(id, result);
      },
    );
  }

  delete(id: number): Promise<boolean>;
  delete(id: number, expect: Expect<T> | undefined): Promise<boolean | Stale>;
  async delete(id: number, expect?: Expect<T>): Promise<boolean | Stale> {
    const check = expect && ((row: Row | unknown[]) => (expect(this.record(row)) ? undefined : { result: STALE }));
    return this.db.writeRecord<boolean | Stale>(this.table, id, { check, statement: this.table.delete, slots: [id], written: (rows) => rows.length > 0 }, (deleted) => {
      if (deleted === true) this.committed(id);
    });
  }

  /** Once a write to record `id` is committed: the cache drops what it changed, and a kept record is replaced by the record as written. */
  private committed(id: number, record?: T): void {
    this.cache?.written(id, record && this.db.cacheable() ? record : undefined);
  }
}

/** A collection whose records belong to a parent (posts to users): its children by parent, in one statement for a batch of parents. */
export class SqlChildCollection<T extends { id: number }, K extends keyof T & string> extends SqlCollection<T> implements ChildCollection<T, K> {
  readonly parentKey: K;

  constructor(table: TableSql, db: Database, cache: CommittedCache<T> | undefined, limits: QueryLimits) {
    super(table, db, cache, limits);
    this.parentKey = table.def.resource.parentKey as K;
  }

  /** Synchronous on SQLite (as GraphQL's loaders like it): those of parents the cache holds from there, the others read at once, then kept. */
  listByParents(parentIds: readonly number[]): MaybePromise<Map<number, T[]>> {
    const cache = this.caching();
    const byParent = new Map<number, T[]>();
    const missing: number[] = [];
    for (const id of parentIds) {
      if (byParent.has(id)) continue;
      const kept = cache?.children(id);
      byParent.set(id, kept ?? []);
      if (!kept) missing.push(id);
    }
    if (missing.length === 0) return byParent;
    return then(this.db.read(this.table.byParents!, [this.table.dialect.listValue(missing)]), (rows) => {
      for (const row of rows) {
        const child = this.record(row);
        byParent.get(child[this.parentKey] as number)?.push(child);
      }
      if (cache) for (const id of missing) cache.keepChildren(id, byParent.get(id)!);
      return byParent;
    });
  }
}

/** A store's collections as the Store interface shows them: each under its name, and any of them through `collection(name)`. */
export type Collections = Omit<Store, 'kind' | 'idempotent' | 'ping' | 'close' | 'poolStats'>;

const OWN = new Set(['kind', 'idempotent', 'ping', 'close', 'poolStats', 'collection']);

/** A collection of each table on `db`, as a store shows them; `collection(name)` reads the store's own property (a replaced one answers). */
export function collectionsOf(tables: readonly TableSql[], db: Database, limits: QueryLimits, caches?: readonly CommittedCache<never>[]): Collections {
  const byName = new Map<string, Collection<never>>();
  tables.forEach((table, i) => {
    if (OWN.has(table.def.name)) throw new Error(`a collection cannot be named ${table.def.name}`);
    byName.set(table.def.name, table.def.resource.parentKey ? new SqlChildCollection(table, db, caches?.[i], limits) : new SqlCollection(table, db, caches?.[i], limits));
  });
  function collection(this: Record<string, unknown>, name: string) {
    if (!byName.has(name)) throw new Error(`the contract has no stored collection ${name}`);
    return this[name];
  }
  return { ...(Object.fromEntries(byName) as unknown as Omit<Collections, 'collection'>), collection: collection as Collections['collection'] };
}
