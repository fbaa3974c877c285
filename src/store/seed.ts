import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadOpenApi, projectRoot } from '../spec';
import { schemasOf } from '../spec-schemas';
import { recordShaper, specModel, withDefaults, type ContractModel, type FieldModel } from './model';
import { fits } from './query';
import type { SeedData } from './types';

export const defaultSeedPath = path.join(projectRoot, 'seed', 'default.json');

export class SeedError extends Error {}

/** `default`, `empty` or a path to a seed file -> validated seed data. */
export function loadSeed(choice: string, model: ContractModel = specModel()): SeedData {
  if (choice === 'empty') return emptySeed();
  const file = choice === 'default' ? defaultSeedPath : choice;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SeedError(`cannot read seed file ${file}: ${(err as Error).message}`);
  }
  return validateSeed(raw, file, model);
}

export function emptySeed(): SeedData {
  return { books: [], todos: [], notes: [], items: [], tasks: [], users: [], posts: [], comments: [] };
}

/** Whether a value is of a field's kind, as a GraphQL-only record's seed gives it (text not blank). */
const ofKind = (field: FieldModel, value: unknown): boolean => field.kind === 'json' || (fits(field.kind, value) && (field.kind !== 'text' || /\S/.test(value as string)));

/**
 * Checks seed data against the contract (model.ts): known collections, ids >= 1 and unique, defaults as a create gets
 * them; a REST record must match its schema, a GraphQL-only one its type's fields, its parent link a parent.
 */
export function validateSeed(raw: unknown, source = 'seed', model: ContractModel = specModel()): SeedData {
  const fail = (msg: string): never => {
    throw new SeedError(`invalid seed data in ${source}: ${msg}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('expected an object of collections');
  const data = raw as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (!model.resources.has(key)) fail(`unknown collection "${key}"`);
  }
  const seed = emptySeed() as Record<string, Record<string, unknown>[]>;
  for (const resource of model.resources.values()) {
    const { name } = resource;
    const list = data[name] ?? [];
    if (!Array.isArray(list)) fail(`${name} must be an array`);
    const ids = new Set<number>();
    (list as unknown[]).forEach((record, index) => {
      if (typeof record !== 'object' || record === null || Array.isArray(record)) fail(`${name}[${index}] must be an object`);
      const id = (record as { id?: unknown }).id;
      if (!Number.isSafeInteger(id) || (id as number) < 1) fail(`${name}[${index}].id must be an integer >= 1`);
      if (ids.has(id as number)) fail(`${name}[${index}].id ${id} is used twice`);
      ids.add(id as number);
    });
    // Fields a record leaves out take the same defaults as a create (a book without pages has 0).
    seed[name] = (list as Record<string, unknown>[]).map((record) => withDefaults(resource, record) as Record<string, unknown>);
  }

  const schemas = schemasOf(loadOpenApi());
  for (const resource of model.resources.values()) {
    const { name } = resource;
    if (resource.schema) {
      const problem = schemas.validator(`/components/schemas/${resource.schema}`);
      const shape = recordShaper<Record<string, unknown>>(resource);
      seed[name].forEach((record, index) => {
        // Checked as answers show it (aliases such as a note's `text` filled in), with the fields the contract does not know, which the schema names.
        const shown = shape(record);
        for (const key of Object.keys(record)) if (!resource.shown.includes(key)) shown[key] = record[key];
        const found = problem(shown);
        if (found) fail(`${name}[${index}] ${found}`);
      });
      continue;
    }
    const allowed = new Set(['id', ...resource.fields.map((f) => f.name)]);
    seed[name].forEach((record, index) => {
      for (const field of resource.fields) {
        const value = record[field.name];
        if ((value === undefined || value === null) && !field.parent) {
          if (field.required) fail(`${name}[${index}].${field.name} is required by ${resource.label}.${field.name}`);
          continue;
        }
        if (field.parent) {
          if (!seed[field.parent]?.some((parent) => parent.id === value)) fail(`${name}[${index}].${field.name} matches no ${field.parent} record`);
        } else if (!ofKind(field, value)) {
          fail(`${name}[${index}].${field.name} must be ${field.kind === 'text' ? 'a non-blank string' : `of kind ${field.kind}`}`);
        }
      }
      for (const key of Object.keys(record)) if (!allowed.has(key)) fail(`${name}[${index}] has unknown field "${key}"`);
    });
  }
  return seed as unknown as SeedData;
}
