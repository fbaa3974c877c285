import { recordShaper, type FieldKind, type FieldModel, type ResourceModel } from './model';

/** A stored field as a SQL column: the model's field (model.ts) and its PostgreSQL type. */
export interface ColumnDef extends FieldModel {
  /** The record field the column holds (the model's `name`). */
  readonly field: string;
  /** PostgreSQL's type for the column (casts and seed rows use it too). */
  readonly type: 'bigint' | 'integer' | 'text' | 'boolean' | 'double precision' | 'jsonb';
}

/** How one collection's records map onto its table, both SQL stores alike: every column but `id`, in answer order. */
export interface TableDef {
  readonly name: string;
  readonly resource: ResourceModel;
  readonly columns: readonly ColumnDef[];
  /**
   * A record as stores hand it out, from a row read with `selectList` (booleans and JSON already JS values):
   * absent optional fields dropped, aliases added (model.ts `recordShaper`). Undefined when a row needs
   * nothing of that: every field required and not nullable, no alias.
   */
  readonly shape?: (row: Record<string, unknown>) => Record<string, unknown>;
}

const PG_TYPES: Record<FieldKind, ColumnDef['type']> = { text: 'text', integer: 'bigint', number: 'double precision', boolean: 'boolean', json: 'jsonb' };

/** The table of a collection of the model. */
export function tableOf(resource: ResourceModel): TableDef {
  const columns = resource.fields.map((field): ColumnDef => ({ ...field, field: field.name, type: field.kind === 'integer' && field.small ? 'integer' : PG_TYPES[field.kind] }));
  const plain = resource.aliases.size === 0 && columns.every((c) => c.required && !c.nullable);
  return { name: resource.name, resource, columns, ...(plain ? {} : { shape: recordShaper(resource) }) };
}

/** `id, "title", "user_id" AS "userId", ...`: a select list that yields records with the contract's field names. */
export function selectList(table: TableDef): string {
  const cols = table.columns.map((c) => (c.column === c.field ? `"${c.column}"` : `"${c.column}" AS "${c.field}"`));
  return ['id', ...cols].join(', ');
}

/** A field's value as PostgreSQL binds it: JSON as its text, everything else as it is. */
export function pgValue(column: ColumnDef, value: unknown): unknown {
  return column.kind === 'json' && value !== null && value !== undefined ? JSON.stringify(value) : value;
}
