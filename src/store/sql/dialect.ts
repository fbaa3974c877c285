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
  /**
   * PostgreSQL: a write to one record holds no lock between its read and its write. The read also answers the row's
   * version and the server's clock (`read`, after the record's columns), and the write is made on the condition that
   * the row is still that version (if the write was decided on it) and the server reaches it before a deadline on
   * its own clock (`unchanged`; src/store/postgres/record-writes.ts). SQLite has none: its writer holds the database
   * alone, so a write reads and writes with nothing in between.
   */
  readonly rowVersion?: {
    readonly read: readonly RawBuilder<unknown>[];
    unchanged(version: unknown, deadlineMs: unknown): RawBuilder<boolean>;
  };
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
};

export const postgres: Dialect = {
  name: 'postgres',
  db: kysely(new PostgresAdapter(), () => new PostgresQueryCompiler(), PostgresIntrospector),
  text: (ref) => sql`${ref} COLLATE "C"`,
  oneOf: (ref, list, column) => sql`${ref} = ANY(${list}::${sql.raw(column.type)}[])`,
  listValue: (values) => values,
  bind: (column, value) => (column.kind === 'json' && value !== null && value !== undefined ? JSON.stringify(value) : value),
  decodes: false,
  rowVersion: {
    // xmin: the transaction that wrote this version of the row; every write of the row makes a new version.
    read: [sql`xmin::text`, sql`extract(epoch FROM clock_timestamp())::float8 * 1000`],
    // A null version: the write was decided on nothing read (no condition), so any version will do.
    unchanged: (version, deadlineMs) =>
      sql<boolean>`(${version}::xid IS NULL OR xmin = ${version}::xid) AND clock_timestamp() < to_timestamp(${deadlineMs}::float8 / 1000)`,
  },
};
