import { postgres } from '../sql/dialect';
import { writtenColumns, type ColumnDef, type TableDef } from '../tables';
import { ident, prepared, type Queryable, type Statement } from './pool';

/** Which of a table's columns a record sets, as a key: records with the same key are inserted by one statement. */
export type ColumnSet = string;

/**
 * Inserts with ids from the collection's counter row (`id_counters`): one statement raises the counter by the number of
 * records and inserts them with the ids it passed over, in order. The row stays locked until COMMIT, so the next insert
 * (of any process) gets the ids after these, and a rollback or a crash leaves no gap.
 */
export class PgInserts<T extends { id: number }> {
  private readonly statements = new Map<ColumnSet, { statement: Statement; columns: ColumnDef[] }>();
  private readonly select: string;
  private readonly table: string;
  private readonly counters: string;

  constructor(
    schema: string,
    private readonly def: TableDef,
  ) {
    this.table = `${ident(schema)}.${ident(def.name)}`;
    this.counters = `${ident(schema)}.id_counters`;
    this.select = ['id', ...def.columns.map((c) => (c.column === c.field ? ident(c.column) : `${ident(c.column)} AS ${ident(c.field)}`))].join(', ');
  }

  /** The columns `record` sets. */
  columnSet(record: object): ColumnSet {
    const fields = record as Record<string, unknown>;
    return writtenColumns(this.def).map((c) => (fields[c.field] === undefined ? '-' : '+')).join('');
  }

  /** Inserts `records` (their written columns' fields), which all set the same columns, on `db`; answers the stored rows in the same order. */
  async insert(db: Queryable, records: readonly object[]): Promise<T[]> {
    const { statement, columns } = this.statementFor(this.columnSet(records[0]));
    const values = columns.map((c) => records.map((r) => postgres.bind(c, (r as Record<string, unknown>)[c.field])));
    const rows = await db.query<T>(statement, [this.def.name, records.length, ...values]);
    if (rows.length !== records.length) throw new Error(`id_counters has no row for ${this.def.name}`);
    // Ids follow the records' order; RETURNING's order is not promised.
    return rows.sort((a, b) => a.id - b.id);
  }

  private statementFor(set: ColumnSet) {
    let known = this.statements.get(set);
    if (!known) {
      const columns = writtenColumns(this.def).filter((_, i) => set[i] === '+');
      const names = columns.map((c) => `, ${ident(c.column)}`).join('');
      const source = columns.length
        ? `unnest(${columns.map((c, i) => `$${i + 3}::${c.type}[]`).join(', ')}) WITH ORDINALITY AS r(${columns.map((_, i) => `v${i}, `).join('')}n)`
        : 'generate_series(1, $2) AS r(n)';
      const statement = prepared(
        `WITH next AS (UPDATE ${this.counters} SET last_id = last_id + $2 WHERE name = $1 RETURNING last_id)
         INSERT INTO ${this.table} (id${names})
         SELECT next.last_id - $2 + r.n${columns.map((_, i) => `, r.v${i}`).join('')} FROM next, ${source}
         RETURNING ${this.select}`,
      );
      known = { statement, columns };
      this.statements.set(set, known);
    }
    return known;
  }
}
