import { withDefaults } from '../model';
import { STALE, type ChildCollection, type Collection, type Expect, type ListResult, type NewRecord, type Page, type Stale } from '../types';
import { CreateGroups, type Grouping } from './create-groups';
import { ident, type Queryable } from './pool';
import type { TableStatements } from './statements';
import type { Writes } from './transaction';
import { pgValue, type TableDef } from '../tables';

/**
 * A collection stored in one table. Reads are one SQL statement each (a long list one per batch, see
 * list.ts), the frequent ones prepared. Writes (create, update, delete) run through `writes`: a
 * transaction with a server-side deadline (transaction.ts), so a write that reaches a stalled server
 * after the service answered 503 is rolled back, not applied. With `grouping`, concurrent creates
 * share transactions (create-groups.ts).
 */
export class PgCollection<T extends { id: number }> implements Collection<T> {
  protected readonly table: string;
  protected readonly select: string;
  protected readonly def: TableDef;
  private readonly groups?: CreateGroups<T>;

  constructor(
    protected readonly db: Queryable,
    protected readonly statements: TableStatements<T>,
    /** How a write runs: in its own transaction (the store) or in the caller's (an idempotent request). */
    private readonly writes: Writes = (work) => work(db),
    grouping?: Grouping,
  ) {
    ({ table: this.table, select: this.select, def: this.def } = statements);
    if (grouping) this.groups = new CreateGroups(statements.inserts, grouping);
  }

  list(page?: Page): Promise<ListResult<T>> {
    return this.statements.lists.list(this.db, page);
  }

  async get(id: number): Promise<T | undefined> {
    const [row] = await this.db.query<T>(this.statements.byId, [id]);
    return row && this.shaped(row);
  }

  /** A row as the contract shapes a record (tables.ts): optional fields without a value absent, aliases filled in. */
  protected shaped(row: T): T {
    return this.def.shape ? (this.def.shape(row as never) as T) : row;
  }

  /**
   * Ids: previous largest + 1, gapless and in the order creates are answered (insert.ts). Runs through
   * `writes` or in a group's transaction, so a 503 never hides a committed create.
   */
  async create(data: NewRecord<T>): Promise<T> {
    const complete = withDefaults(this.def.resource, data);
    if (this.groups) return this.groups.create(complete);
    const [row] = await this.writes((db) => this.statements.inserts.insert(db, [complete]));
    return row;
  }

  update(id: number, patch: Partial<Omit<T, 'id'>>): Promise<T | undefined>;
  update(id: number, patch: Partial<Omit<T, 'id'>>, expect: Expect<T> | undefined): Promise<T | undefined | Stale>;
  async update(id: number, patch: Partial<Omit<T, 'id'>>, expect?: Expect<T>): Promise<T | undefined | Stale> {
    const record = patch as Record<string, unknown>;
    const present = this.def.columns.filter((c) => record[c.field] !== undefined);
    const set = present.map((c, i) => `${ident(c.column)} = $${i + 2}`).join(', ');
    const values = [id, ...present.map((c) => pgValue(c, record[c.field]))];
    if (!expect) {
      if (present.length === 0) return this.get(id);
      const [row] = await this.writes((db) => db.query<T>(`UPDATE ${this.table} SET ${set} WHERE id = $1 RETURNING ${this.select}`, values));
      return row && this.shaped(row);
    }
    return this.conditionally(id, expect, async (current) => {
      if (present.length === 0) return current;
      const guard = this.unchanged(current, values.length + 1);
      const [row] = await this.writes((db) =>
        db.query<T>(`UPDATE ${this.table} SET ${set} WHERE id = $1 AND ${guard.sql} RETURNING ${this.select}`, [...values, ...guard.values]),
      );
      return row && this.shaped(row);
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
    return { sql, values: this.def.columns.map((c) => pgValue(c, (current as Record<string, unknown>)[c.field] ?? null)) };
  }
}

export class PgChildCollection<T extends { id: number }, K extends keyof T & string>
  extends PgCollection<T>
  implements ChildCollection<T, K>
{
  constructor(db: Queryable, statements: TableStatements<T>, readonly parentKey: K, writes?: Writes, grouping?: Grouping) {
    super(db, statements, writes, grouping);
  }

  /** One statement for any number of parents; the rows (in id order) are grouped here. */
  async listByParents(parentIds: readonly number[]): Promise<Map<number, T[]>> {
    const byParent = new Map<number, T[]>(parentIds.map((id) => [id, []]));
    if (parentIds.length === 0) return byParent;
    const rows = await this.db.query<T>(this.statements.byParents!, [parentIds]);
    for (const row of rows) byParent.get(row[this.parentKey] as number)?.push(this.shaped(row));
    return byParent;
  }
}
