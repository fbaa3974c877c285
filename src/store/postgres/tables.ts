import type { FieldOrder } from '../fields';
import type { CollectionName } from '../types';

export interface ColumnDef {
  /** The record field (camelCase). */
  field: string;
  /** The SQL column (snake_case). */
  column: string;
  /** SQL type, used to read seed rows from JSON. */
  type: 'bigint' | 'integer' | 'text' | 'boolean';
}

export interface TableDef {
  name: CollectionName;
  /** Every column but `id`. */
  columns: ColumnDef[];
}

const col = (field: string, type: ColumnDef['type'], column = field): ColumnDef => ({ field, column, type });

/** How each collection's records map onto its table. The DDL is in migrations.ts. */
export const TABLES: Record<CollectionName, TableDef> = {
  books: { name: 'books', columns: [col('title', 'text'), col('pages', 'integer')] },
  todos: { name: 'todos', columns: [col('text', 'text'), col('done', 'boolean')] },
  notes: { name: 'notes', columns: [col('body', 'text')] },
  items: { name: 'items', columns: [col('name', 'text')] },
  tasks: { name: 'tasks', columns: [col('title', 'text'), col('done', 'boolean')] },
  users: { name: 'users', columns: [col('name', 'text'), col('email', 'text')] },
  posts: { name: 'posts', columns: [col('userId', 'bigint', 'user_id'), col('title', 'text'), col('body', 'text')] },
  comments: { name: 'comments', columns: [col('postId', 'bigint', 'post_id'), col('body', 'text')] },
};

/**
 * TABLES with each table's columns in `order` (see fields.ts): the select lists then yield records
 * with their fields in the order answers show them. Columns `order` does not name keep their place after.
 */
export function orderedTables(order: FieldOrder): Record<CollectionName, TableDef> {
  const tables = {} as Record<CollectionName, TableDef>;
  for (const [name, def] of Object.entries(TABLES) as [CollectionName, TableDef][]) {
    const rank = (c: ColumnDef) => {
      const index = order[name].indexOf(c.field);
      return index === -1 ? order[name].length : index;
    };
    tables[name] = { ...def, columns: [...def.columns].sort((a, b) => rank(a) - rank(b)) };
  }
  return tables;
}

/** `id, user_id AS "userId", ...`: a select list that yields records with the service's field names. */
export function selectList(table: TableDef): string {
  const cols = table.columns.map((c) => (c.column === c.field ? `"${c.column}"` : `"${c.column}" AS "${c.field}"`));
  return ['id', ...cols].join(', ');
}
