import { sql, type Compilable, type Expression, type RawBuilder } from 'kysely';
import { KeptInOrder } from '../../kept-in-order';
import { decodeCursor, fits, QueryError, sortOf, type Condition, type ListQuery } from '../query';
import { writtenColumns, type ColumnDef, type TableDef } from '../tables';
import { after, condition, orderBy, type Bind, type Keyed } from './conditions';
import type { Dialect } from './dialect';

/** A statement's SQL and its parameters, some of them slots a call fills (`bindings`). */
export interface Compiled {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /**
   * Whether a database should keep it prepared: statements of a fixed shape. A list with filters is not: clients
   * choose which filters, so their shapes are many, and a prepared statement lives as long as its connection.
   */
  readonly prepare: boolean;
}

/** Most statement shapes a table keeps compiled; the one made longest ago goes first. */
const SHAPES_KEPT = 256;

/** A placeholder for the `i`-th value of a call: statements are built and compiled once per shape, then reused. */
class Slot {
  constructor(readonly i: number) {}
}

/** The parameters of one call of `statement`, its slots filled with `values`. */
export function bindings(statement: Compiled, values: readonly unknown[]): unknown[] {
  return statement.parameters.map((p) => (p instanceof Slot ? values[p.i] : p));
}

/** The meta columns of a list's first statement: the list's total and the collection's version. */
export const TOTAL = '_total';
export const VERSION = '_version';

/**
 * What a store adds to a list's first statement: a one-row source of the collection's record count (`total`) and
 * version (`version`), as SQL read in one scan (a subquery to select from).
 */
export interface Stats {
  of(table: string): Expression<unknown>;
}

/**
 * One table's statements, built with Kysely from its model (tables.ts) and compiled once per shape (which columns a
 * write sets; which filters, sort and page a list has): a shape's SQL never changes.
 */
export class TableSql {
  readonly byId: Compiled;
  /** The record a write to it is decided on; with the dialect's `rowVersion`, its version and the server's clock after its columns. */
  readonly byIdForWrite: Compiled;
  /** `DELETE ... WHERE id = ? RETURNING id`; slot 0 is the id, then the dialect's `rowVersion` condition's two. */
  readonly delete: Compiled;
  readonly byParents?: Compiled;
  private readonly select: RawBuilder<unknown>[];
  private readonly shapes = new KeptInOrder<string, Compiled>(SHAPES_KEPT);
  private readonly columns: Map<string, ColumnDef>;
  /** The columns a write sets (the record's and the lower-cased copies), by field. */
  private readonly writable: Map<string, ColumnDef>;

  constructor(
    readonly def: TableDef,
    readonly dialect: Dialect,
    private readonly stats: Stats,
    private readonly qualified: string,
  ) {
    this.columns = new Map(def.columns.map((c) => [c.field, c]));
    this.writable = new Map(writtenColumns(def).map((c) => [c.field, c]));
    this.select = [sql.ref('id') as RawBuilder<unknown>, ...def.columns.map((c) => (c.column === c.field ? sql.ref(c.column) : sql`${sql.ref(c.column)} AS ${sql.ref(c.field)}`) as RawBuilder<unknown>)];
    const from = this.from();
    this.byId = compile(from.where('id', '=', new Slot(0)));
    const version = dialect.rowVersion;
    this.byIdForWrite = version ? compile(from.select(version.read as never).where('id', '=', new Slot(0))) : this.byId;
    this.delete = compile(this.unchanged(dialect.db.deleteFrom(this.qualified).where('id', '=', new Slot(0)), 1).returning('id'));
    const parent = def.resource.parentKey && this.columns.get(def.resource.parentKey);
    if (parent) this.byParents = compile(from.where(dialect.oneOf(sql.ref(parent.column), new Slot(0), { type: 'bigint' }) as never).orderBy('id'));
  }

  private from() {
    return this.dialect.db.selectFrom(this.qualified).select(this.select as never);
  }

  /** `INSERT ... RETURNING` the record, for a record setting `present` (written columns' fields, in order); values per call. */
  insert(present: readonly string[]): Compiled {
    return this.shaped(`i:${present}`, true, () => {
      const values = Object.fromEntries(present.map((field, i) => [this.written(field).column, new Slot(i)]));
      return this.dialect.db.insertInto(this.qualified).values(values).returning(this.select as never);
    });
  }

  /** `UPDATE ... WHERE id = ? RETURNING` the record; slot 0 is the id, then the fields of `present`, then the dialect's `rowVersion` condition's two. */
  update(present: readonly string[]): Compiled {
    return this.shaped(`u:${present}`, true, () => {
      const values = Object.fromEntries(present.map((field, i) => [this.written(field).column, new Slot(i + 1)]));
      return this.unchanged(this.dialect.db.updateTable(this.qualified).set(values).where('id', '=', new Slot(0)), present.length + 1).returning(this.select as never);
    });
  }

  /** A write to one record, on the dialect's `rowVersion` condition (its version and deadline in slots `from` and `from + 1`), if it has one. */
  private unchanged<W extends { where(condition: never): W }>(write: W, from: number): W {
    const version = this.dialect.rowVersion;
    return version ? write.where(version.unchanged(new Slot(from), new Slot(from + 1)) as never) : write;
  }

  private written(field: string): ColumnDef {
    return this.writable.get(field)!;
  }

  /** A written field's value as the database binds it. */
  bind(field: string, value: unknown): unknown {
    return this.dialect.bind(this.written(field), value);
  }

  /**
   * A list query as statements: the first (total, version, the first `size` records) with its values, and the next
   * batch's after a record. A cursor of another list or sort, or with values of wrong kinds, is a QueryError (`after`).
   */
  plan(query: ListQuery, counted: boolean, size: number) {
    const keys = sortOf(query).map((key): Keyed => ({ ...key, column: key.field === 'id' ? ID : this.columns.get(key.field)! }));
    const filters = query.where ?? [];
    // The filters, then the records after `at` (a cursor's or the last record read's): bound into `values`, in order.
    const conditions = (values: unknown[], at?: unknown[]) => {
      const bind: Bind = (value) => new Slot(values.push(value) - 1);
      const where = filters.map((c) => condition(this.dialect, this.columns.get(c.field)!, c, bind));
      return { bind, where: at ? [...where, after(this.dialect, keys, at, bind)] : where, shape: `${shapeOf(filters, keys)}${at ? `a${at.map((v) => (v === null ? 0 : 1)).join('')}` : ''}` };
    };
    const page = (where: Expression<unknown>[]) => this.from().where((eb) => eb.and(where as never)).orderBy(orderBy(this.dialect, keys) as never);
    let at: unknown[] | undefined;
    if (query.after !== undefined) {
      at = decodeCursor(query.after, this.def.name, keys);
      if (at.some((v, i) => !(v === null ? keys[i].field !== 'id' && !keys[i].column.required : fits(keys[i].column.kind, v)))) throw new QueryError('after', 'after holds values this list cannot have');
    }
    const values: unknown[] = [];
    const { bind, where, shape } = conditions(values, at);
    const [limit, offset] = [bind(size), bind(query.offset ?? 0)];
    const first = this.shaped(`l${shape}${counted ? 'c' : ''}`, !filters.length, () => {
      const total = counted && filters.length ? sql`(SELECT count(*) FROM ${sql.table(this.qualified)} WHERE ${sql.join(where.slice(0, filters.length), sql` AND `)})` : sql`m.total`;
      const records = page(where).limit(limit as number).offset(offset as number);
      // One row with the total and the version (its record columns NULL), then the records in the list's order.
      // The order is the outer query's: a UNION's own ORDER BY takes result columns only, not the sort's expressions,
      // and numbering the records instead (a window function) costs the database more per page (design.md).
      const nulls = sql.join([ID, ...this.def.columns].map((c) => sql`NULL${sql.raw(this.dialect.name === 'postgres' ? `::${c.type}` : '')} AS ${sql.ref(c.field)}`));
      return this.raw(sql`SELECT * FROM (SELECT 0 AS "_n", ${nulls}, ${total} AS ${sql.ref(TOTAL)}, m.version AS ${sql.ref(VERSION)} FROM ${this.stats.of(this.def.name)} AS m
        UNION ALL SELECT 1, p.*, NULL, NULL FROM (${records}) AS p) AS u ORDER BY u."_n", ${orderBy(this.dialect, keys, 'u')}`);
    });
    const next = (last: Record<string, unknown>, batch: number) => {
      const more: unknown[] = [];
      const step = conditions(more, keys.map((k) => last[k.field] ?? null));
      const limited = step.bind(batch);
      return { statement: this.shaped(`n${step.shape}`, !filters.length, () => page(step.where).limit(limited as number)), values: more };
    };
    return { first, values, next, keys };
  }

  /** A raw statement, compiled for this dialect. */
  private raw(statement: RawBuilder<unknown>): Compilable<unknown> {
    return { compile: () => statement.compile(this.dialect.db) };
  }

  private shaped(key: string, prepare: boolean, build: () => Compilable<unknown>): Compiled {
    let known = this.shapes.get(key);
    if (!known) {
      this.shapes.keep(key, (known = compile(build(), prepare)));
    }
    return known;
  }
}

/** What makes a list's statement differ from another's: which filters (not their values) and which sort. */
const shapeOf = (filters: readonly Condition[], keys: readonly Keyed[]) => `${filters.map((c) => `${c.field}:${c.op}`).join(',')}|${keys.map((k) => `${k.desc ? '-' : ''}${k.field}`).join(',')}|`;

/** The id's column, as a sort key sees it. */
const ID: ColumnDef = { name: 'id', field: 'id', column: 'id', kind: 'integer', type: 'bigint', small: false, required: true, nullable: false };

function compile(query: Compilable<unknown>, prepare = true): Compiled {
  const { sql: text, parameters } = query.compile();
  return { sql: text, parameters, prepare };
}
