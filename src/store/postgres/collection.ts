import { STALE, type ChildCollection, type Collection, type Expect, type ListResult, type Page, type Stale } from '../types';
import { ident, type Queryable } from './pool';
import { selectList, type TableDef } from './tables';

/** Runs a write's statements: on its own transaction, or on one already open. */
export type Writes = <R>(work: (db: Queryable) => Promise<R>) => Promise<R>;

/**
 * A collection stored in one table. Reads are one SQL statement each. Writes (create, update,
 * delete) run through `writes`: a transaction with a server-side deadline (transaction.ts), so a
 * write that reaches a stalled server after the service answered 503 is rolled back, not applied.
 */
export class PgCollection<T extends { id: number }> implements Collection<T> {
  protected readonly table: string;
  protected readonly select: string;
  private readonly counters: string;

  constructor(
    protected readonly db: Queryable,
    schema: string,
    protected readonly def: TableDef,
    /** How a write runs: in its own transaction (the store) or in the caller's (an idempotent request). */
    private readonly writes: Writes = (work) => work(db),
  ) {
    this.table = `${ident(schema)}.${ident(def.name)}`;
    this.counters = `${ident(schema)}.id_counters`;
    this.select = selectList(def);
  }

  async list(page: Page = {}): Promise<ListResult<T>> {
    // One statement, one snapshot: the total and the page agree. LIMIT NULL means no limit.
    const [row] = await this.db.query<{ total: number; items: T[]; version: string }>(
      `WITH page AS (SELECT ${this.select} FROM ${this.table} ORDER BY id LIMIT $1 OFFSET $2),
            body AS (SELECT coalesce(json_agg(page ORDER BY id), '[]'::json) AS items FROM page)
       SELECT (SELECT count(*) FROM ${this.table}) AS total, items, md5(items::text) AS version FROM body`,
      [page.limit ?? null, page.offset ?? 0],
    );
    return { items: row.items, total: row.total, version: row.version };
  }

  async get(id: number): Promise<T | undefined> {
    const [row] = await this.db.query<T>(`SELECT ${this.select} FROM ${this.table} WHERE id = $1`, [id]);
    return row;
  }

  /**
   * The id comes from the collection's counter row, incremented in the same statement (so the same
   * transaction) as the insert: a failed or rolled-back create, or a crash before COMMIT, leaves no
   * gap, and the row lock makes concurrent creates take turns. Runs through `writes` (a transaction
   * with a deadline, see transaction.ts), so a 503 never hides a committed create.
   */
  async create(data: Omit<T, 'id'>): Promise<T> {
    const record = data as Record<string, unknown>;
    const present = this.def.columns.filter((c) => record[c.field] !== undefined);
    const text = `WITH next AS (UPDATE ${this.counters} SET last_id = last_id + 1 WHERE name = $1 RETURNING last_id)
       INSERT INTO ${this.table} (id${present.map((c) => `, ${ident(c.column)}`).join('')})
       SELECT last_id${present.map((c, i) => `, $${i + 2}::${c.type}`).join('')} FROM next RETURNING ${this.select}`;
    const [row] = await this.writes((db) => db.query<T>(text, [this.def.name, ...present.map((c) => record[c.field])]));
    if (!row) throw new Error(`id_counters has no row for ${this.def.name}`);
    return row;
  }

  update(id: number, patch: Partial<Omit<T, 'id'>>): Promise<T | undefined>;
  update(id: number, patch: Partial<Omit<T, 'id'>>, expect: Expect<T> | undefined): Promise<T | undefined | Stale>;
  async update(id: number, patch: Partial<Omit<T, 'id'>>, expect?: Expect<T>): Promise<T | undefined | Stale> {
    const record = patch as Record<string, unknown>;
    const present = this.def.columns.filter((c) => record[c.field] !== undefined);
    const set = present.map((c, i) => `${ident(c.column)} = $${i + 2}`).join(', ');
    const values = [id, ...present.map((c) => record[c.field])];
    if (!expect) {
      if (present.length === 0) return this.get(id);
      const [row] = await this.writes((db) => db.query<T>(`UPDATE ${this.table} SET ${set} WHERE id = $1 RETURNING ${this.select}`, values));
      return row;
    }
    return this.conditionally(id, expect, async (current) => {
      if (present.length === 0) return current;
      const guard = this.unchanged(current, values.length + 1);
      const [row] = await this.writes((db) =>
        db.query<T>(`UPDATE ${this.table} SET ${set} WHERE id = $1 AND ${guard.sql} RETURNING ${this.select}`, [...values, ...guard.values]),
      );
      return row;
    });
  }

  delete(id: number): Promise<boolean>;
  delete(id: number, expect: Expect<T> | undefined): Promise<boolean | Stale>;
  async delete(id: number, expect?: Expect<T>): Promise<boolean | Stale> {
    if (!expect) {
      const rows = await this.writes((db) => db.query(`DELETE FROM ${this.table} WHERE id = $1 RETURNING id`, [id]));
      return rows.length > 0;
    }
    const outcome = await this.conditionally(id, expect, async (current) => {
      const guard = this.unchanged(current, 2);
      const rows = await this.writes((db) => db.query(`DELETE FROM ${this.table} WHERE id = $1 AND ${guard.sql} RETURNING id`, [id, ...guard.values]));
      return rows.length > 0 ? true : undefined;
    });
    return outcome ?? false;
  }

  /**
   * A conditional write in single statements, holding no connection or lock in between: read the
   * record, check `expect`, then `write`, whose WHERE must hold only while the row still has exactly
   * the values read (see `unchanged`); `write` answers undefined when it did not. Then another write
   * landed in between, so read and check again. Check and write are thus atomic as one step, and
   * every retry means some other write succeeded.
   */
  private async conditionally<R>(id: number, expect: Expect<T>, write: (current: T) => Promise<R | undefined>): Promise<R | undefined | Stale> {
    for (;;) {
      const current = await this.get(id);
      if (!current) return undefined;
      if (!expect(current)) return STALE;
      const written = await write(current);
      if (written !== undefined) return written;
    }
  }

  /** A WHERE condition true only while every column still holds `current`'s value; parameters from `$first`. */
  private unchanged(current: T, first: number): { sql: string; values: unknown[] } {
    const sql = this.def.columns.map((c, i) => `${ident(c.column)} IS NOT DISTINCT FROM $${first + i}`).join(' AND ');
    return { sql, values: this.def.columns.map((c) => (current as Record<string, unknown>)[c.field]) };
  }
}

export class PgChildCollection<T extends { id: number }, K extends keyof T & string>
  extends PgCollection<T>
  implements ChildCollection<T, K>
{
  private readonly parentColumn: string;

  constructor(db: Queryable, schema: string, def: TableDef, readonly parentKey: K, writes?: Writes) {
    super(db, schema, def, writes);
    const column = def.columns.find((c) => c.field === parentKey);
    if (!column) throw new Error(`table ${def.name} has no column for ${parentKey}`);
    this.parentColumn = ident(column.column);
  }

  /** One statement for any number of parents; the rows (in id order) are grouped here. */
  async listByParents(parentIds: readonly number[]): Promise<Map<number, T[]>> {
    const byParent = new Map<number, T[]>(parentIds.map((id) => [id, []]));
    if (parentIds.length === 0) return byParent;
    const rows = await this.db.query<T>(`SELECT ${this.select} FROM ${this.table} WHERE ${this.parentColumn} = ANY($1::bigint[]) ORDER BY id`, [
      [...parentIds],
    ]);
    for (const row of rows) byParent.get(row[this.parentKey] as number)?.push(row);
    return byParent;
  }
}
