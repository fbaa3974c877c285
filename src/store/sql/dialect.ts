import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Expression,
  type RawBuilder,
} from 'kysely';
import type { ColumnDef } from '../tables';

/** Any table of the contract: the statements are built from the model (tables.ts), not from a typed schema. */
export type AnyDb = Record<string, Record<string, unknown>>;

/**
 * What differs between SQLite and PostgreSQL in the statements: the SQL each compiles to, how values are bound and read
 * back, a few quirks. Kysely builds and compiles only (a Kysely instance on a DummyDriver, as its documentation shows);
 * the stores run the SQL on their own connections (docs/maintainers/design.md, "The query engine").
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  readonly db: Kysely<AnyDb>;
  /** A text column as it compares and sorts: by code point (PostgreSQL's `COLLATE "C"`; SQLite's BINARY is the default). */
  text(ref: Expression<unknown>): Expression<unknown>;
  /** `ref` is one of the values bound to `list` (one parameter, whatever the number of values). */
  oneOf(ref: Expression<unknown>, list: unknown, column: Pick<ColumnDef, 'type'>): RawBuilder<unknown>;
  /** The parameter that binds `values` for `oneOf`. */
  listValue(values: readonly unknown[]): unknown;
  /** A value as the database binds it. */
  bind(column: Pick<ColumnDef, 'kind'>, value: unknown): unknown;
  /** Booleans come back as 0/1 and JSON as text (SQLite), to be turned into JS values. */
  readonly decodes: boolean;
  /** A conditional write locks the row it read (`FOR UPDATE`); SQLite's writer holds the database alone anyway. */
  readonly locksRows: boolean;
}

const kysely = (adapter: SqliteAdapter | PostgresAdapter, compiler: () => SqliteQueryCompiler | PostgresQueryCompiler, introspector: typeof SqliteIntrospector | typeof PostgresIntrospector) =>
  new Kysely<AnyDb>({
    dialect: {
      createAdapter: () => adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new introspector(db),
      createQueryCompiler: compiler,
    },
  });

/** An unpaired surrogate (see toSql): both drivers would store it as U+FFFD, silently. The edge refuses it before (src/text-rule.ts). */
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/u;

export const sqlite: Dialect = {
  name: 'sqlite',
  db: kysely(new SqliteAdapter(), () => new SqliteQueryCompiler(), SqliteIntrospector),
  text: (ref) => ref,
  oneOf: (ref, list) => sql`${ref} IN (SELECT value FROM json_each(${list}))`,
  listValue: (values) => JSON.stringify(values),
  bind(column, value) {
    if (value === null || value === undefined) return null;
    if (column.kind === 'boolean') return value ? 1 : 0;
    if (column.kind === 'json') return JSON.stringify(value);
    if (typeof value === 'string' && UNPAIRED_SURROGATE.test(value)) throw new TypeError(`${(column as ColumnDef).field} holds an unpaired surrogate, which SQLite cannot store as it is`);
    return value;
  },
  decodes: true,
  locksRows: false,
};

export const postgres: Dialect = {
  name: 'postgres',
  db: kysely(new PostgresAdapter(), () => new PostgresQueryCompiler(), PostgresIntrospector),
  text: (ref) => sql`${ref} COLLATE "C"`,
  oneOf: (ref, list, column) => sql`${ref} = ANY(${list}::${sql.raw(column.type)}[])`,
  listValue: (values) => values,
  bind: (column, value) => (column.kind === 'json' && value !== null && value !== undefined ? JSON.stringify(value) : value),
  decodes: false,
  locksRows: true,
};
