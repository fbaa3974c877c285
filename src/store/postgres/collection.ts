import type { ChildCollection, Collection, ListResult, Page } from '../types';
import { ident, type Queryable } from './pool';
import { selectList, type TableDef } from './tables';

/**
 * A collection stored in one table. Every method is one SQL statement, so each is atomic on its own
 * and no method holds a connection between statements. Ids come from the table's identity sequence.
 */
export class PgCollection<T extends { id: number }> implements Collection<T> {
  protected readonly table: string;
  protected readonly select: string;

  constructor(
    protected readonly db: Queryable,
    schema: string,
    protected readonly def: TableDef,
  ) {
    this.table = `${ident(schema)}.${ident(def.name)}`;
    this.select = selectList(def);
  }

  async list(page: Page = {}): Promise<ListResult<T>> {
    // One statement, one snapshot: the total and the page agree. LIMIT NULL means no limit.
    const [row] = await this.db.query<{ total: number; items: T[] }>(
      `WITH page AS (SELECT ${this.select} FROM ${this.table} ORDER BY id LIMIT $1 OFFSET $2)
       SELECT (SELECT count(*) FROM ${this.table}) AS total,
              (SELECT coalesce(json_agg(page ORDER BY id), '[]'::json) FROM page) AS items`,
      [page.limit ?? null, page.offset ?? 0],
    );
    return { items: row.items, total: row.total };
  }

  async get(id: number): Promise<T | undefined> {
    const [row] = await this.db.query<T>(`SELECT ${this.select} FROM ${this.table} WHERE id = $1`, [id]);
    return row;
  }

  async getMany(ids: readonly number[]): Promise<(T | undefined)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<T>(`SELECT ${this.select} FROM ${this.table} WHERE id = ANY($1::bigint[])`, [[...ids]]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  }

  async create(data: Omit<T, 'id'>): Promise<T> {
    const values = this.def.columns.map((c) => (data as Record<string, unknown>)[c.field]);
    const present = this.def.columns.filter((_, i) => values[i] !== undefined);
    if (present.length === 0) {
      const [row] = await this.db.query<T>(`INSERT INTO ${this.table} DEFAULT VALUES RETURNING ${this.select}`);
      return row;
    }
    const [row] = await this.db.query<T>(
      `INSERT INTO ${this.table} (${present.map((c) => ident(c.column)).join(', ')})
       VALUES (${present.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${this.select}`,
      values.filter((v) => v !== undefined),
    );
    return row;
  }

  async update(id: number, patch: Partial<Omit<T, 'id'>>): Promise<T | undefined> {
    const record = patch as Record<string, unknown>;
    const present = this.def.columns.filter((c) => record[c.field] !== undefined);
    if (present.length === 0) return this.get(id);
    const [row] = await this.db.query<T>(
      `UPDATE ${this.table} SET ${present.map((c, i) => `${ident(c.column)} = $${i + 2}`).join(', ')}
       WHERE id = $1 RETURNING ${this.select}`,
      [id, ...present.map((c) => record[c.field])],
    );
    return row;
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.query(`DELETE FROM ${this.table} WHERE id = $1 RETURNING id`, [id]);
    return rows.length > 0;
  }
}

export class PgChildCollection<T extends { id: number }, K extends keyof T & string>
  extends PgCollection<T>
  implements ChildCollection<T, K>
{
  private readonly parentColumn: string;

  constructor(db: Queryable, schema: string, def: TableDef, readonly parentKey: K) {
    super(db, schema, def);
    const column = def.columns.find((c) => c.field === parentKey);
    if (!column) throw new Error(`table ${def.name} has no column for ${parentKey}`);
    this.parentColumn = ident(column.column);
  }

  /** One statement for any number of parents. */
  async listByParents(parentIds: readonly number[]): Promise<T[]> {
    if (parentIds.length === 0) return [];
    return this.db.query<T>(`SELECT ${this.select} FROM ${this.table} WHERE ${this.parentColumn} = ANY($1::bigint[]) ORDER BY id`, [
      [...parentIds],
    ]);
  }
}
