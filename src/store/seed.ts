import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GraphQLObjectType, GraphQLScalarType, buildSchema, getNullableType, isNonNullType } from 'graphql';
import { loadGraphqlSdl, loadOpenApi, projectRoot } from '../spec';
import { SpecSchemas } from '../spec-schemas';
import { GRAPHQL_TYPES, REST_SCHEMAS } from './fields';
import { COLLECTIONS, type SeedData } from './types';

export const defaultSeedPath = path.join(projectRoot, 'seed', 'default.json');

export class SeedError extends Error {}

/** `default`, `empty` or a path to a seed file -> validated seed data. */
export function loadSeed(choice: string): SeedData {
  if (choice === 'empty') return emptySeed();
  const file = choice === 'default' ? defaultSeedPath : choice;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SeedError(`cannot read seed file ${file}: ${(err as Error).message}`);
  }
  return validateSeed(raw, file);
}

export function emptySeed(): SeedData {
  return { books: [], todos: [], notes: [], items: [], tasks: [], users: [], posts: [], comments: [] };
}

/** Defaults of the fields the contract makes optional on create, applied to seed records too. */
const SEED_DEFAULTS: Record<string, Record<string, unknown>> = { books: { pages: 0 }, todos: { done: false }, tasks: { done: false } };

/**
 * Each GraphQL-only collection's parent link. REST records are checked against their openapi.yaml
 * schema (REST_SCHEMAS), GraphQL-only ones against their schema.graphql type (GRAPHQL_TYPES).
 */
const PARENTS = {
  users: undefined,
  posts: { key: 'userId', collection: 'users' },
  comments: { key: 'postId', collection: 'posts' },
} as const satisfies Record<keyof typeof GRAPHQL_TYPES, unknown>;

/**
 * Checks seed data against the specs: REST records against openapi.yaml's schemas, GraphQL records
 * against schema.graphql's scalar fields, ids positive and unique, parent links pointing at records.
 */
export function validateSeed(raw: unknown, source = 'seed'): SeedData {
  const fail = (msg: string): never => {
    throw new SeedError(`invalid seed data in ${source}: ${msg}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('expected an object of collections');
  const data = raw as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (!(COLLECTIONS as readonly string[]).includes(key)) fail(`unknown collection "${key}"`);
  }
  const seed = emptySeed() as unknown as Record<string, Record<string, unknown>[]>;
  for (const name of COLLECTIONS) {
    const list = data[name] ?? [];
    if (!Array.isArray(list)) fail(`${name} must be an array`);
    const ids = new Set<number>();
    (list as unknown[]).forEach((record, index) => {
      const id = (record as { id?: unknown })?.id;
      if (!Number.isSafeInteger(id) || (id as number) < 1) fail(`${name}[${index}].id must be an integer >= 1`);
      if (ids.has(id as number)) fail(`${name}[${index}].id ${id} is used twice`);
      ids.add(id as number);
    });
    // Optional fields take the same defaults as a create (a book without pages has 0).
    seed[name] = (list as Record<string, unknown>[]).map((record) => ({ ...SEED_DEFAULTS[name], ...record }));
  }

  const schemas = new SpecSchemas(loadOpenApi());
  for (const [name, schemaName] of Object.entries(REST_SCHEMAS)) {
    const problem = schemas.validator(`/components/schemas/${schemaName}`);
    seed[name].forEach((record, index) => {
      // Notes store `body`; the REST shape adds the deprecated `text` alias.
      const shown = name === 'notes' ? { ...record, text: record.body } : record;
      const found = problem(shown);
      if (found) fail(`${name}[${index}] ${found}`);
    });
  }

  const schema = buildSchema(loadGraphqlSdl());
  for (const [name, type] of Object.entries(GRAPHQL_TYPES)) {
    const parent = PARENTS[name as keyof typeof PARENTS];
    const objectType = schema.getType(type) as GraphQLObjectType;
    const parentIds = parent && new Set(seed[parent.collection].map((record) => record.id));
    seed[name].forEach((record, index) => {
      const allowed = new Set<string>(['id']);
      for (const field of Object.values(objectType.getFields())) {
        const scalar = getNullableType(field.type);
        if (!(scalar instanceof GraphQLScalarType) || field.name === 'id') continue;
        allowed.add(field.name);
        const value = record[field.name];
        if (value === undefined || value === null) {
          if (isNonNullType(field.type)) fail(`${name}[${index}].${field.name} is required by ${type}.${field.name}`);
          continue;
        }
        if (scalar.name === 'String' && (typeof value !== 'string' || !/\S/.test(value))) {
          fail(`${name}[${index}].${field.name} must be a non-blank string`);
        }
      }
      if (parent) {
        allowed.add(parent.key);
        if (!parentIds!.has(record[parent.key])) fail(`${name}[${index}].${parent.key} matches no ${parent.collection} record`);
      }
      for (const key of Object.keys(record)) if (!allowed.has(key)) fail(`${name}[${index}] has unknown field "${key}"`);
    });
  }
  return seed as unknown as SeedData;
}
