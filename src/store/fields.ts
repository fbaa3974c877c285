import { Kind, parse } from 'graphql';
import { loadGraphqlSdl, loadOpenApi, type OpenApiDocument } from '../spec';
import { COLLECTIONS, type CollectionName } from './types';

/** The openapi.yaml schema each REST collection's records are shown as. */
export const REST_SCHEMAS = { books: 'Book', todos: 'Todo', notes: 'Note', items: 'Item', tasks: 'Task' } as const;
/** The schema.graphql type each GraphQL-only collection's records are shown as. */
export const GRAPHQL_TYPES = { users: 'User', posts: 'Post', comments: 'Comment' } as const satisfies Record<
  Exclude<CollectionName, keyof typeof REST_SCHEMAS>,
  string
>;

/** Each collection's fields in the order every answer shows them. */
export type FieldOrder = Readonly<Record<CollectionName, readonly string[]>>;

/**
 * The order of each collection's fields, from the specs: a REST record's fields in the order of its
 * openapi.yaml schema's `properties` (which lists `id` first), a GraphQL-only record's in the order
 * of its schema.graphql type's fields. A stored field the spec does not show (a post's `userId`)
 * comes after them; a shown field the record does not store (a note's derived `text`) is skipped.
 */
function fieldOrder(openapi: OpenApiDocument, sdl: string): FieldOrder {
  const schemas = openapi.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
  const types = new Map<string, string[]>();
  for (const def of parse(sdl, { noLocation: true }).definitions) {
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION) types.set(def.name.value, (def.fields ?? []).map((f) => f.name.value));
  }
  const order = {} as Record<CollectionName, readonly string[]>;
  for (const name of COLLECTIONS) {
    const fields =
      name in REST_SCHEMAS
        ? Object.keys(schemas[REST_SCHEMAS[name as keyof typeof REST_SCHEMAS]]?.properties ?? {})
        : (types.get(GRAPHQL_TYPES[name as keyof typeof GRAPHQL_TYPES]) ?? []);
    // id leads whatever the spec says; the spec's own schemas list it first anyway.
    order[name] = Object.freeze(['id', ...fields.filter((f) => f !== 'id')]);
  }
  return order;
}

let ofTheSpecs: FieldOrder | undefined;

/**
 * fieldOrder of the service's own openapi.yaml and schema.graphql. Worked out once per process and
 * kept: the files do not change while it runs, and reading them costs tens of milliseconds, too much
 * for every store a test suite makes. The value is frozen, so nothing can change it once kept.
 */
export function specFieldOrder(): FieldOrder {
  ofTheSpecs ??= Object.freeze(fieldOrder(loadOpenApi(), loadGraphqlSdl()));
  return ofTheSpecs;
}

/**
 * A function that copies a record with its fields in `order` (fields not in `order` follow, in the
 * record's own order). Records are flat (every field a scalar), so this copy is the whole copy.
 */
export function inOrder<T extends object>(order: readonly string[]): (record: T) => T {
  const known = new Set(order);
  return (record) => {
    const source = record as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const field of order) if (source[field] !== undefined) copy[field] = source[field];
    for (const field of Object.keys(source)) if (!known.has(field)) copy[field] = source[field];
    return copy as T;
  };
}
