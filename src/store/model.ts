import { buildSchema, getNullableType, isEnumType, isListType, isNonNullType, isObjectType, isScalarType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { loadGraphqlSdl, loadOpenApi, type OpenApiDocument } from '../spec';
import { withQueries } from './model-queries';
import type { QueryModel } from './query';

/**
 * The stored resources, read from the contract: the collections, each one's fields with their kinds, required,
 * nullable, defaults. Every store makes its tables from this, the seed is checked against it, GraphQL reads it.
 * - A REST collection is a path `/{name}` whose GET answers an array of `#/components/schemas/{Schema}`: that schema is
 *   its record's shape, its properties the fields (in the spec's order); `default` is the schema's, else the create's
 *   (`POST /{name}`). A property with `x-alias-of: other` is not stored: answers show it with `other`'s value.
 * - A GraphQL object type with `id: ID!` is a stored record too: the REST collection's of the same schema name, else a
 *   collection of its own (`User` -> `users`) of its scalar and enum fields (non-null is required). A field
 *   `posts: [Post!]!` of a stored type gives the posts their parent's id (`userId`), which the schema does not show.
 */

/** How a field's values are kept. */
export type FieldKind = 'text' | 'integer' | 'number' | 'boolean' | 'json';

export interface FieldModel {
  /** The record's field (camelCase, as the contract names it). */
  readonly name: string;
  /** The SQL column (snake_case). */
  readonly column: string;
  readonly kind: FieldKind;
  /** An integer the contract bounds to 32 bits (PostgreSQL `integer` rather than `bigint`). */
  readonly small: boolean;
  /** Every record has a value (the schema's `required`, GraphQL non-null). */
  readonly required: boolean;
  /** `null` is a value of the field (`type: [string, 'null']`). */
  readonly nullable: boolean;
  /** What a record that does not give the field gets (the schema's `default`). */
  readonly default?: unknown;
  /** The collection whose record this field points at (the stored parent link). */
  readonly parent?: string;
}

export interface ResourceModel {
  /** The collection: `books`. */
  readonly name: string;
  /** What its records are called in messages and in the contract: `Book`. */
  readonly label: string;
  /** The openapi.yaml schema of a REST collection's records. */
  readonly schema?: string;
  /** The schema.graphql type of its records, when GraphQL shows them. */
  readonly type?: string;
  /** The stored fields, `id` aside, in the order answers show them (the parent link last). */
  readonly fields: readonly FieldModel[];
  /** Fields shown with another field's value, not stored. */
  readonly aliases: ReadonlyMap<string, string>;
  /** Every key of a record as stores hand it out, in order: `id`, the fields and aliases in the contract's order. */
  readonly shown: readonly string[];
  /** The field holding the parent's id, for a collection whose records belong to a parent. */
  readonly parentKey?: string;
  /** What lists of it may be filtered and sorted by, as both specs declare it (model-queries.ts). */
  readonly query: QueryModel;
  /** GraphQL fields shown under another name than the stored field's (`@stored(field:)`): `title` -> `text` for a Todo. */
  readonly graphqlNames: ReadonlyMap<string, string>;
}

const NO_QUERY: QueryModel = { filters: new Map(), sortable: new Set() };

export interface ContractModel {
  /** Every stored collection, REST ones first, in the order the specs declare them. */
  readonly resources: ReadonlyMap<string, ResourceModel>;
  /** The collection behind each GraphQL type that is a stored record. */
  readonly byType: ReadonlyMap<string, ResourceModel>;
}

/** The contract cannot be stored as it is written (a shape this service does not keep); the message is one line. */
export class ModelError extends Error {}

export type Json = Record<string, unknown>;

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const lowerFirst = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);
const INT32 = 2147483647;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A schema with its `$ref`s followed and `allOf` merged; keywords beside a `$ref` win over the target's. */
export function resolve(doc: OpenApiDocument, schema: unknown, seen: string[] = []): Json {
  if (typeof schema !== 'object' || schema === null) return {};
  const own = schema as Json;
  let merged: Json = {};
  if (typeof own.$ref === 'string') {
    const ref = own.$ref;
    if (!ref.startsWith('#/') || seen.includes(ref)) throw new ModelError(`openapi.yaml: cannot follow ${ref}`);
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/')) target = (target as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (target === undefined) throw new ModelError(`openapi.yaml: ${ref} points at nothing`);
    merged = resolve(doc, target, [...seen, ref]);
  }
  if (Array.isArray(own.allOf)) {
    for (const part of own.allOf) {
      const r = resolve(doc, part, seen);
      merged = {
        ...merged,
        ...r,
        properties: { ...(merged.properties as Json), ...(r.properties as Json) },
        required: [...((merged.required as string[]) ?? []), ...((r.required as string[]) ?? [])],
      };
    }
  }
  const rest = Object.fromEntries(Object.entries(own).filter(([k]) => k !== '$ref' && k !== 'allOf'));
  return { ...merged, ...rest };
}

/** The record schema a path's list answers: `#/components/schemas/X` of a GET 200 `type: array` of `$ref`. */
function listedSchema(doc: OpenApiDocument, item: Json | undefined): string | undefined {
  const get = item?.get as Json | undefined;
  const ok = resolve(doc, (get?.responses as Json | undefined)?.['200']);
  const body = ((ok.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
  const ref = (body?.items as Json | undefined)?.$ref;
  if (body?.type !== 'array' || typeof ref !== 'string') return undefined;
  const match = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  return match?.[1];
}

function restKind(schema: Json, where: string): { kind: FieldKind; nullable: boolean; small: boolean } {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type === undefined ? [] : [schema.type as string];
  const nullable = types.includes('null') || schema.nullable === true;
  const real = types.filter((t) => t !== 'null');
  let type = real[0];
  if (real.length > 1) throw new ModelError(`openapi.yaml: ${where} has more than one type (${real.join(', ')}); a stored field has one`);
  if (type === undefined) {
    const sample = schema.const ?? (Array.isArray(schema.enum) ? schema.enum[0] : undefined);
    type = typeof sample === 'string' ? 'string' : typeof sample === 'boolean' ? 'boolean' : typeof sample === 'number' ? 'number' : 'object';
  }
  if (type !== 'integer') return { kind: KINDS[type] ?? 'json', nullable, small: false };
  const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  const min = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
  return { kind: 'integer', nullable, small: max <= INT32 && min >= -INT32 - 1 };
}

/** The kind of a field of a JSON Schema type (`integer` aside) or a GraphQL scalar (other types and scalars: JSON). */
const KINDS: Record<string, FieldKind> = { string: 'text', number: 'number', boolean: 'boolean', String: 'text', ID: 'text', Int: 'integer', Float: 'number', Boolean: 'boolean' };

/** The JSON request body schema of the operation `method` on `path` (resolved; empty when it takes none). */
export function requestSchema(doc: OpenApiDocument, path: string, method: string): Json {
  const op = (doc.paths?.[path] as Json | undefined)?.[method] as Json | undefined;
  const body = resolve(doc, op?.requestBody);
  return resolve(doc, ((body.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema);
}

/** The properties of the JSON body a create (`POST /{name}`) takes, with their keywords resolved. */
function createProperties(doc: OpenApiDocument, name: string): Json {
  return (requestSchema(doc, `/${name}`, 'post').properties ?? {}) as Json;
}

function restResource(doc: OpenApiDocument, name: string, schemaName: string): ResourceModel {
  const schema = resolve(doc, { $ref: `#/components/schemas/${schemaName}` });
  const onCreate = createProperties(doc, name);
  const properties = (schema.properties ?? {}) as Json;
  if (!('id' in properties)) throw new ModelError(`openapi.yaml: ${schemaName}, the records of /${name}, has no id property`);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields: FieldModel[] = [];
  const aliases = new Map<string, string>();
  for (const [field, raw] of Object.entries(properties)) {
    if (field === 'id') continue;
    if (!FIELD_NAME.test(field)) throw new ModelError(`openapi.yaml: ${schemaName}.${field}: a stored field's name is letters, digits and _, starting with a letter`);
    const property = resolve(doc, raw);
    const alias = property['x-alias-of'];
    if (typeof alias === 'string') {
      if (!(alias in properties) || alias === 'id') throw new ModelError(`openapi.yaml: ${schemaName}.${field} is an alias of ${alias}, which ${schemaName} does not have`);
      aliases.set(field, alias);
      continue;
    }
    const { kind, nullable, small } = restKind(property, `${schemaName}.${field}`);
    // The record schema's default, else the create's: what a record that lacks the field gets.
    const created = field in onCreate ? resolve(doc, onCreate[field]) : {};
    const fallback = 'default' in property ? { default: property.default } : 'default' in created ? { default: created.default } : {};
    fields.push({ name: field, column: snake(field), kind, small, required: required.has(field), nullable, ...fallback });
  }
  return { name, label: schemaName, schema: schemaName, fields, aliases, shown: ['id', ...Object.keys(properties).filter((f) => f !== 'id')], query: NO_QUERY, graphqlNames: new Map() };
}

/** Whether a GraphQL type is a stored record: an object type (not a root) with `id: ID!`. */
function isRecordType(schema: GraphQLSchema, type: unknown): type is GraphQLObjectType {
  if (!isObjectType(type) || type.name.startsWith('__')) return false;
  if ([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].includes(type)) return false;
  const id = type.getFields().id;
  return !!id && isNonNullType(id.type) && getNullableType(id.type).toString() === 'ID';
}


/** The contract's stored resources (see the top of this file). Throws a ModelError, one line, for a shape it cannot store. */
export function buildModel(doc: OpenApiDocument, sdl: string): ContractModel {
  const resources = new Map<string, ResourceModel>();
  const bySchema = new Map<string, ResourceModel>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const match = /^\/([a-z][a-z0-9_]*)$/.exec(path);
    const schemaName = match && listedSchema(doc, item as Json);
    if (!match || !schemaName) continue;
    const resource = restResource(doc, match[1], schemaName);
    resources.set(resource.name, resource);
    bySchema.set(schemaName, resource);
  }

  const schema = buildSchema(sdl);
  const byType = new Map<string, ResourceModel>();
  const own: { type: GraphQLObjectType; fields: FieldModel[]; name: string }[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isRecordType(schema, type)) continue;
    const rest = bySchema.get(type.name);
    if (rest) {
      byType.set(type.name, rest);
      continue;
    }
    const name = `${snake(lowerFirst(type.name))}s`;
    if (resources.has(name)) throw new ModelError(`schema.graphql: type ${type.name} would be stored as ${name}, which openapi.yaml serves with another schema`);
    const fields: FieldModel[] = [];
    for (const field of Object.values(type.getFields())) {
      if (field.name === 'id' || field.args.length) continue;
      const inner = getNullableType(field.type);
      if (!isScalarType(inner) && !isEnumType(inner)) continue;
      const kind = isEnumType(inner) ? 'text' : (KINDS[inner.name] ?? 'json');
      // A GraphQL Int is 32 bits.
      const small = !isEnumType(inner) && inner.name === 'Int';
      const required = isNonNullType(field.type);
      fields.push({ name: field.name, column: snake(field.name), kind, small, required, nullable: !required });
    }
    own.push({ type, fields, name });
  }
  // Parent links: `posts: [Post!]!` on a stored type gives each post its parent's id.
  const parents = new Map<string, { key: string; parent: string }>();
  for (const { type, name } of own) {
    for (const field of Object.values(type.getFields())) {
      let inner = getNullableType(field.type);
      if (!isListType(inner)) continue;
      inner = getNullableType(inner.ofType);
      const child = own.find((o) => o.type === inner);
      if (!child) continue;
      const key = `${lowerFirst(type.name)}Id`;
      const known = parents.get(child.name);
      if (known && known.key !== key) throw new ModelError(`schema.graphql: ${child.type.name} is listed by two stored types; a record has one parent`);
      parents.set(child.name, { key, parent: name });
    }
  }
  for (const { type, fields, name } of own) {
    const link = parents.get(name);
    if (link) fields.push({ name: link.key, column: snake(link.key), kind: 'integer', small: false, required: true, nullable: false, parent: link.parent });
    const resource: ResourceModel = {
      name,
      label: type.name,
      type: type.name,
      fields,
      aliases: new Map(),
      shown: ['id', ...fields.map((f) => f.name)],
      ...(link ? { parentKey: link.key } : {}),
      query: NO_QUERY,
      graphqlNames: new Map(),
    };
    resources.set(name, resource);
    byType.set(type.name, resource);
  }
  for (const [typeName, resource] of byType) if (resource.schema) resources.set(resource.name, { ...resource, type: typeName });
  for (const [typeName, resource] of byType) byType.set(typeName, resources.get(resource.name)!);
  return withQueries(doc, schema, { resources, byType });
}

let ofTheSpecs: ContractModel | undefined;

/** The model of the service's own specs, worked out once per process (the files do not change while it runs). */
export function specModel(): ContractModel {
  ofTheSpecs ??= buildModel(loadOpenApi(), loadGraphqlSdl());
  return ofTheSpecs;
}

/**
 * A record filled field by field, settled into a fresh object: its fields held in the object, where JSON.stringify
 * reads them fastest, and one hidden class for every record with the same fields, so the reads of graphql-jit's
 * compiled code and JSON.stringify stay monomorphic. The object filled field by field holds most fields out of line
 * and, past 16, turns into a dictionary; a spread copy gets a class of its own per record on Node 20
 * (docs/maintainers/design.md, "The query engine").
 */
export function settled<T>(filled: Record<string, unknown>): T {
  return Object.assign({}, filled) as T;
}

/**
 * Makes a record as every store hands it out, from what is stored (`raw`: a value, `null` or nothing for each
 * field): `id` first, then the fields and aliases in the contract's order. A field with no value is left out,
 * unless the contract says it is required and may be null (then it is `null`): an optional field a record
 * does not have is absent, never `null`.
 */
export function recordShaper<T>(resource: ResourceModel): (raw: Record<string, unknown>) => T {
  const steps = resource.shown.map((key) => {
    const alias = resource.aliases.get(key);
    const field = resource.fields.find((f) => f.name === key);
    return { key, from: alias ?? key, keepNull: !!field && field.required && field.nullable };
  });
  // Fields the contract does not show (a parent link) follow.
  for (const field of resource.fields) if (!resource.shown.includes(field.name)) steps.push({ key: field.name, from: field.name, keepNull: false });
  return (raw) => {
    const record: Record<string, unknown> = {};
    for (const { key, from, keepNull } of steps) {
      const value = raw[from];
      if (value !== undefined && (value !== null || keepNull)) record[key] = value;
    }
    return settled<T>(record);
  };
}

/** The fields of a new record: what `data` gives, and for each field it does not give, the contract's default. */
export function withDefaults<T extends object>(resource: ResourceModel, data: Partial<T>): Partial<T> {
  let out: Record<string, unknown> | undefined;
  for (const field of resource.fields) {
    if (!('default' in field) || (data as Record<string, unknown>)[field.name] !== undefined) continue;
    out ??= { ...data };
    out[field.name] = structuredClone(field.default);
  }
  return (out ?? data) as Partial<T>;
}
