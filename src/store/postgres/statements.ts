import { PgInserts } from './insert';
import { PgLists } from './list';
import { ident, prepared, type Statement } from './pool';
import { selectList, type TableDef } from '../tables';

/**
 * One table's statements, made once per store and shared by every collection on it: the store's own
 * and those a keyed request's transaction gets (index.ts), which are then cheap to make.
 */
export class TableStatements<T extends { id: number }> {
  /** The schema-qualified table. */
  readonly table: string;
  /** The select list that yields records (tables.ts). */
  readonly select: string;
  readonly lists: PgLists<T>;
  readonly inserts: PgInserts<T>;
  readonly byId: Statement;
  /** The records whose `parentKey` is any of `$1` (child collections only). */
  readonly byParents?: Statement;

  constructor(
    schema: string,
    readonly def: TableDef,
    parentKey?: string,
  ) {
    this.table = `${ident(schema)}.${ident(def.name)}`;
    this.select = selectList(def);
    this.lists = new PgLists(schema, def);
    this.inserts = new PgInserts(schema, def);
    this.byId = prepared(`SELECT ${this.select} FROM ${this.table} WHERE id = $1`);
    if (parentKey !== undefined) {
      const column = def.columns.find((c) => c.field === parentKey);
      if (!column) throw new Error(`table ${def.name} has no column for ${parentKey}`);
      this.byParents = prepared(`SELECT ${this.select} FROM ${this.table} WHERE ${ident(column.column)} = ANY($1::bigint[]) ORDER BY id`);
    }
  }
}
