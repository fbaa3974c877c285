import { recordShaper, type FieldKind, type FieldModel, type ResourceModel } from './model';
import { FOLDING } from './query';

/** A stored field as a SQL column: the model's field (model.ts) and its PostgreSQL type. */
export interface ColumnDef extends FieldModel {
  /** The record field the column holds (the model's `name`). */
  readonly field: string;
  /** PostgreSQL's type for the column (casts and seed rows use it too). */
  readonly type: 'bigint' | 'integer' | 'text' | 'boolean' | 'double precision' | 'jsonb';
  /** For a lower-cased copy (`contains`, `startsWith`): the field it copies. */
  readonly folds?: string;
}

/**
 * An index the contract's queries need: on a filterable or sortable field, then id (the order ties take). A sortable
 * field has a second one, `descending`, on the field then `-id`: read backwards, it is the order of a descending sort
 * (the field going down, ties by id going up), so a page of that sort is a range of the index (sql/conditions.ts).
 */
export interface IndexDef {
  readonly name: string;
  readonly column: ColumnDef;
  readonly descending?: boolean;
}

/** How one collection's records map onto its table, both SQL stores alike. */
export interface TableDef {
  readonly name: string;
  readonly resource: ResourceModel;
  /** Every column of a record but `id`, in answer order. */
  readonly columns: readonly ColumnDef[];
  /**
   * Lower-cased copies (`_fold_title`) of the text fields clients may search (`contains`, `startsWith`), written with
   * every write as JavaScript's `toLowerCase()` makes them: a search ignores case the same way on every store.
   */
  readonly folds: readonly ColumnDef[];
  readonly indexes: readonly IndexDef[];
  /** A record as stores hand it out, from a row of fields (model.ts `recordShaper`); undefined when every field is required and there is no alias. */
  readonly shape?: (row: Record<string, unknown>) => Record<string, unknown>;
}

const PG_TYPES: Record<FieldKind, ColumnDef['type']> = { text: 'text', integer: 'bigint', number: 'double precision', boolean: 'boolean', json: 'jsonb' };

/** The column of a lower-cased copy: a name no field can have (fields start with a letter). */
export const foldColumn = (column: string): string => `_fold_${column}`;
/** The prefix of the indexes the store makes for queries (and drops when the contract no longer asks for them). */
export const INDEX_PREFIX = 'q_';
/** The end of the name of a field's index for descending sorts (IndexDef.descending). */
const DESCENDING_SUFFIX = '_desc';
/** The tie-breaking column of a query index: `id`, or `-id` in one for descending sorts. */
export const indexTail = (index: IndexDef): string => (index.descending ? '(-id)' : 'id');

/** The table of a collection of the model. */
export function tableOf(resource: ResourceModel): TableDef {
  const columns = resource.fields.map((field): ColumnDef => ({ ...field, field: field.name, type: field.kind === 'integer' && field.small ? 'integer' : PG_TYPES[field.kind] }));
  const { filters, sortable } = resource.query;
  const folds = columns
    .filter((c) => FOLDING.some((op) => filters.get(c.field)?.has(op)))
    .map((c): ColumnDef => ({ name: foldColumn(c.column), field: foldColumn(c.column), column: foldColumn(c.column), kind: 'text', type: 'text', small: false, required: false, nullable: true, folds: c.field }));
  const indexes = columns
    .filter((c) => filters.has(c.field) || sortable.has(c.field))
    .flatMap((column): IndexDef[] => {
      const name = `${INDEX_PREFIX}${resource.name}_${column.column}`;
      return sortable.has(column.field) && column.required && !column.nullable ? [{ name, column }, { name: `${name}${DESCENDING_SUFFIX}`, column, descending: true }] : [{ name, column }];
    });
  const plain = resource.aliases.size === 0 && columns.every((c) => c.required && !c.nullable);
  return { name: resource.name, resource, columns, folds, indexes, ...(plain ? {} : { shape: recordShaper(resource) }) };
}

/** Every column a write sets: the record's and its lower-cased copies. */
export const writtenColumns = (table: TableDef): readonly ColumnDef[] => [...table.columns, ...table.folds];

/** Sets in `values` each lower-cased copy from the field it copies, for the fields `values` sets; answers `values`. */
export function addFolds(table: TableDef, values: Record<string, unknown>): Record<string, unknown> {
  for (const fold of table.folds) {
    const source = values[fold.folds!];
    if (source !== undefined) values[fold.field] = typeof source === 'string' ? source.toLowerCase() : null;
  }
  return values;
}
