import { batchesAfter, LIST_BATCH, type ListResult, type Page } from '../types';
import { ident, prepared, type Queryable, type Statement } from './pool';
import { selectList, type TableDef } from '../tables';

/**
 * A collection's lists, read in batches of at most LIST_BATCH records: the first batch in one statement
 * with the total and the version (so all three come from one snapshot), the rest by keyset
 * (`id > last`), one statement per batch, each sent only when the consumer asks for the batch. No
 * connection is held between batches.
 */
export class PgLists<T extends { id: number }> {
  /** The total and the version (first row), then the page's first batch (`LIMIT $2 OFFSET $3`); rows as arrays. */
  private readonly first: Statement;
  /** Up to `$2` records after id `$1`. */
  private readonly after: Statement;
  /** Field names of the record columns, in select order. */
  private readonly fields: string[];
  /** The collection's name in `collection_writes`. */
  private readonly name: string;
  /** A row as the contract shapes a record (tables.ts), when rows need it. */
  private readonly shape?: (row: Record<string, unknown>) => Record<string, unknown>;

  constructor(schema: string, def: TableDef) {
    const table = `${ident(schema)}.${ident(def.name)}`;
    const select = selectList(def);
    this.fields = ['id', ...def.columns.map((c) => c.field)];
    // The version: the data set's id, the server's start (a server restored from a backup starts anew), and
    // the count of writes, which every committed write raises (triggers of migration 3). Snapshots see
    // commits in one order, so two snapshots with the same count see the same writes.
    const meta = `SELECT sum(records)::bigint AS total,
        (SELECT value FROM ${ident(schema)}.store_meta WHERE key = 'data_set')
          || '.' || floor(extract(epoch FROM pg_postmaster_start_time()) * 1000000)::bigint::text
          || '.' || sum(writes)::text AS version
      FROM ${ident(schema)}.collection_writes WHERE name = $1`;
    // The total and the version once, in a first row of their own (its record columns NULL), then the records.
    const none = def.columns.map((c) => `, NULL::${c.type}`).join('');
    this.first = prepared(
      `SELECT NULL::bigint AS id${none}, m.total, m.version FROM (${meta}) AS m
       UNION ALL
       (SELECT ${select}, NULL, NULL FROM ${table} ORDER BY id LIMIT $2 OFFSET $3)
       ORDER BY id NULLS FIRST`,
      'array',
    );
    this.after = prepared(`SELECT ${select} FROM ${table} WHERE id > $1 ORDER BY id LIMIT $2`);
    this.name = def.name;
    this.shape = def.shape;
  }

  /** One page on `db` (all of the collection without a limit or offset). */
  async list(db: Queryable, page: Page = {}): Promise<ListResult<T>> {
    const offset = page.offset ?? 0;
    const wanted = page.limit ?? Infinity;
    const batch = Math.min(wanted, LIST_BATCH);
    const rows = await db.query<unknown[]>(this.first, [this.name, batch, offset]);
    const width = this.fields.length;
    const total = rows[0][width] as number;
    const version = rows[0][width + 1] as string;
    const items: T[] = new Array(rows.length - 1);
    for (let i = 1; i < rows.length; i += 1) items[i - 1] = this.record(rows[i]);
    const left = wanted - items.length;
    const more = items.length === batch && left > 0 && offset + items.length < total;
    return { items, rest: more ? this.rest(db, items[items.length - 1].id, left) : undefined, total, version };
  }

  /** The records after id `last`, at most `left` of them, a batch per pull (each a statement on `db`). */
  private rest(db: Queryable, last: number, left: number): AsyncIterable<T[]> {
    const { after, shape } = this;
    return batchesAfter(last, left, async (from, size) => {
      const rows = await db.query<T>(after, [from, size]);
      return shape ? rows.map((row) => shape(row) as T) : rows;
    });
  }

  /** A record from an array row, its fields in select order (the spec's, see tables.ts). */
  private record(row: unknown[]): T {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < this.fields.length; i += 1) record[this.fields[i]] = row[i];
    return (this.shape ? this.shape(record) : record) as T;
  }
}
