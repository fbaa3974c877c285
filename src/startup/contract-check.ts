import {
  buildSchema,
  isAbstractType,
  isObjectType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { HTTP_METHODS } from '../http/routes';
import type { OpenApiDocument } from '../spec';
import { buildModel, specModel, type ContractModel } from '../store/model';
import { parityProblems } from './api-parity';
import { storedShapeProblems } from './stored-shapes';

/** The contract is only partly implemented: the service must not start. The message is one line. */
export class ContractError extends Error {}

/** A resolver map as graphql-tools takes it: type name -> field name -> resolver (or a scalar). */
export type ResolverMap = Readonly<Record<string, unknown>>;

export interface ContractParts {
  openapi: OpenApiDocument;
  /** REST handlers keyed by operationId. */
  handlers: Readonly<Record<string, unknown>>;
  /** schema.graphql's text; omit both it and `resolvers` to check REST only. */
  sdl?: string;
  resolvers?: ResolverMap;
  /** The stored resources (defaults to the contract's own, src/store/model.ts): a field of a stored record needs no resolver. */
  model?: ContractModel;
}

/** Every openapi.yaml operation whose operationId has no handler function: `createBook (POST /books)`. */
function missingHandlers(openapi: OpenApiDocument, handlers: Readonly<Record<string, unknown>>): string[] {
  const missing: string[] = [];
  for (const [template, item] of Object.entries(openapi.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method] as { operationId?: string } | undefined;
      if (!op) continue;
      const id = op.operationId;
      if (!id) missing.push(`(no operationId) ${method.toUpperCase()} ${template}`);
      else if (typeof handlers[id] !== 'function') missing.push(`${id} (${method.toUpperCase()} ${template})`);
    }
  }
  return missing;
}

function fieldResolver(resolvers: ResolverMap, type: string, field: string): unknown {
  const forType = resolvers[type] as Record<string, unknown> | undefined;
  const entry = forType?.[field];
  // graphql-tools accepts a function or an object with a `resolve` function.
  return typeof entry === 'object' && entry !== null ? (entry as { resolve?: unknown }).resolve : entry;
}

function rootTypes(schema: GraphQLSchema): Set<GraphQLNamedType> {
  return new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t) => !!t));
}

/** The fields of each GraphQL type's stored record (src/store/model.ts): `id`, the stored fields and aliases. */
export function recordFieldsOf(model: ContractModel): Map<string, ReadonlySet<string>> {
  return new Map([...model.byType].map(([type, resource]) => [type, new Set(resource.shown)]));
}

/**
 * A type of a Relay cursor connection (`BookConnection { edges pageInfo }`, `BookEdge { cursor node }`, `PageInfo`): its
 * values are built whole by the resolver of the connection field, so its fields need none of their own.
 */
function relayPart(type: GraphQLObjectType): boolean {
  const fields = Object.keys(type.getFields()).sort().join(',');
  return type.name === 'PageInfo' || (type.name.endsWith('Connection') && fields === 'edges,pageInfo') || (type.name.endsWith('Edge') && fields === 'cursor,node');
}

/**
 * Every schema.graphql field that needs a resolver and has none: root fields (Query, Mutation,
 * Subscription) always; an object type's field when its stored record has no property of that name
 * (src/store/model.ts); `__resolveType` for interfaces and unions. Object types that are no stored record
 * (no `id: ID!`) need a resolver for every field.
 */
export function missingResolvers(sdl: string, resolvers: ResolverMap, model: ContractModel = specModel()): string[] {
  const recordFields = recordFieldsOf(model);
  const schema = buildSchema(sdl);
  const roots = rootTypes(schema);
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isAbstractType(type)) {
      const forType = resolvers[type.name] as Record<string, unknown> | undefined;
      if (typeof forType?.__resolveType !== 'function') missing.push(`${type.name}.__resolveType`);
      continue;
    }
    if (!isObjectType(type)) continue;
    if (relayPart(type)) continue;
    const record = (!roots.has(type) && recordFields.get(type.name)) || new Set<string>();
    for (const field of Object.keys(type.getFields())) {
      if (record.has(field)) continue;
      if (typeof fieldResolver(resolvers, type.name, field) !== 'function') missing.push(`${type.name}.${field}`);
    }
  }
  return missing;
}

/** What the service does not implement: operations as `createBook (POST /books)`, GraphQL parts as missingResolvers names them. */
export interface MissingParts {
  operations: string[];
  fields: string[];
}

/** Every operation without a handler and every field without a resolver (the GraphQL half when `sdl` and `resolvers` are given). */
export function missingParts(parts: ContractParts): MissingParts {
  const operations = missingHandlers(parts.openapi, parts.handlers);
  const fields = parts.sdl !== undefined && parts.resolvers ? missingResolvers(parts.sdl, parts.resolvers, parts.model) : [];
  return { operations, fields };
}

/** Throws a ContractError, one line naming everything missing, unless every operation and field is implemented. */
export function assertContractImplemented(parts: ContractParts): void {
  const problems: string[] = [];
  const { operations, fields } = missingParts(parts);
  if (operations.length) problems.push(`openapi.yaml operations without a handler: ${operations.join(', ')}`);
  if (fields.length) problems.push(`schema.graphql fields without a resolver: ${fields.join(', ')}`);
  const shapes = storedShapeProblems(parts.openapi, parts.sdl, parts.model ?? specModel());
  if (shapes.length) problems.push(`operations that do not fit their records: ${shapes.join(', ')}`);
  if (problems.length) throw new ContractError(`Contract not fully implemented: ${problems.join('; ')}`);
}

/** Throws a ContractError, one line, when an operation does not fit the record it stores (stored-shapes.ts): also checked while what is missing is mocked. */
export function assertStoredShapes(parts: ContractParts): void {
  const shapes = storedShapeProblems(parts.openapi, parts.sdl, parts.model ?? specModel());
  if (shapes.length) throw new ContractError(`Contract not fully implemented: operations that do not fit their records: ${shapes.join(', ')}`);
}

/** What a refusal of a field the two APIs cannot serve alike starts with (api-parity.ts). */
export const PARITY_REFUSAL = 'The contract cannot be served alike over REST and GraphQL: ';

/**
 * Throws a ContractError, one line naming each field, when a record both APIs serve has a field they could not
 * answer the same (api-parity.ts: an integer wider than GraphQL's Int, ...). Checked at every start, mocked or
 * not, and by `npm run generate` before it writes anything.
 */
export function assertServedAlike(parts: Pick<ContractParts, 'openapi' | 'sdl' | 'model'>): void {
  if (parts.sdl === undefined) return;
  const problems = parityProblems(parts.openapi, parts.sdl, parts.model ?? specModel());
  if (problems.length) throw new ContractError(`${PARITY_REFUSAL}${problems.join('; ')}`);
}

/**
 * What the two specs get wrong whatever is implemented, one line each: a shape no store keeps (src/store/model.ts),
 * an operation that does not fit its record (stored-shapes.ts), a field the two APIs cannot serve alike
 * (api-parity.ts). `npm run generate` refuses such specs before it writes anything (scripts/codegen.js); a start
 * refuses them too.
 */
export function specProblems(openapi: OpenApiDocument, sdl: string): string[] {
  let model: ContractModel;
  try {
    model = buildModel(openapi, sdl);
  } catch (err) {
    return [String((err as Error).message).split('\n')[0]];
  }
  return [...storedShapeProblems(openapi, sdl, model), ...parityProblems(openapi, sdl, model)];
}
