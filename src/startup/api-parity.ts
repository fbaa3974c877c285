import {
  buildSchema,
  getNullableType,
  isEnumType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLType,
} from 'graphql';
import { resolveSchema, type OpenApiDocument } from '../spec';
import type { ContractModel } from '../store/model';

type Json = Record<string, unknown>;

/** GraphQL's `Int`: a signed 32-bit integer (graphql-js refuses to serialise anything outside it). */
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/**
 * Where a record both APIs serve could not be answered the same by both: a field of a REST collection's record
 * schema (openapi.yaml) that schema.graphql's type of the same record shows under the same name, when a value
 * REST accepts and stores is one GraphQL cannot serialise, or would serialise as another value. Once stored,
 * such a value breaks every GraphQL query that selects the field (graphql-js: "Int cannot represent non 32-bit
 * signed integer value"), so the contract is refused before anything is stored: at generate time and at start.
 * One entry per field, naming it and what to change:
 * - `Int`: an integer whose `minimum` and `maximum` fit in 32 bits (without them REST takes 3000000000);
 * - `Float`: a number or an integer; `Boolean`: a boolean; `String`: a string (GraphQL would answer `5` as
 *   `"5"`); `ID`: a string or an integer;
 * - an enum: a string whose `enum` lists only the GraphQL enum's values;
 * - a list: an array, its items compared the same way;
 * - and a property `writeOnly` in openapi.yaml (REST never shows it) that GraphQL would show.
 * Custom scalars and object types are not compared. A field GraphQL shows with a resolver of its own under the
 * same name is compared all the same: the stored value is what a record has.
 */
export function parityProblems(doc: OpenApiDocument, sdl: string, model: ContractModel): string[] {
  const schema = buildSchema(sdl);
  const problems: string[] = [];
  for (const [typeName, resource] of model.byType) {
    if (!resource.schema) continue;
    const type = schema.getType(typeName);
    if (!isObjectType(type)) continue;
    const record = resolveSchema(doc, { $ref: `#/components/schemas/${resource.schema}` });
    const properties = (record.properties ?? {}) as Json;
    for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
      if (field.name === 'id' || !(field.name in properties)) continue;
      const property = resolveSchema(doc, properties[field.name]);
      const where = { rest: `openapi.yaml ${resource.schema}.${field.name}`, graphql: `schema.graphql ${typeName}.${field.name}` };
      if (property.writeOnly === true) {
        problems.push(`${where.graphql} shows a field that ${where.rest} declares writeOnly (REST never answers it): remove it from the GraphQL type, or drop writeOnly`);
        continue;
      }
      const problem = mismatch(doc, property, field.type);
      if (problem) problems.push(`${where.graphql} is ${String(getNullableType(field.type))} but ${where.rest} ${problem}`);
    }
  }
  return problems;
}

/** The JSON types a schema allows, `null` aside (`type: [integer, 'null']` is integer). */
function typesOf(schema: Json): string[] {
  const declared = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type === undefined ? [] : [schema.type as string];
  return declared.filter((t) => t !== 'null');
}

/** Why values of `schema` would not be served alike as the GraphQL type (nullability aside), or undefined. */
function mismatch(doc: OpenApiDocument, schema: Json, graphqlType: GraphQLType): string | undefined {
  const type = getNullableType(graphqlType);
  const types = typesOf(schema);
  const only = (...allowed: string[]) => types.length > 0 && types.every((t) => allowed.includes(t));
  const is = types.length ? `is ${types.join(' or ')}` : 'has no type';
  if (isListType(type)) {
    if (!only('array')) return `${is}: make it an array`;
    const inner = mismatch(doc, resolveSchema(doc, schema.items), type.ofType);
    return inner && `has items that ${inner.replace(/^is /, 'are ')}`;
  }
  if (isEnumType(type)) {
    const allowed = new Set(type.getValues().map((v) => v.name));
    if (!only('string') || !Array.isArray(schema.enum)) return `${is} without an enum: list the GraphQL enum's values (${[...allowed].join(', ')}) in its enum`;
    const extra = (schema.enum as unknown[]).filter((v) => v !== null && !allowed.has(String(v)));
    return extra.length ? `allows ${extra.map((v) => JSON.stringify(v)).join(', ')}, which the GraphQL enum does not have: add them to the enum ${type.name}, or remove them from openapi.yaml` : undefined;
  }
  if (!isScalarType(type)) return undefined;
  switch (type.name) {
    case 'Int': {
      if (!only('integer')) return `${is}: make it an integer (GraphQL Int has no fractions)`;
      const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const fixes = [
        ...(max === undefined || max > INT_MAX ? [`maximum: ${INT_MAX}`] : []),
        ...(min === undefined || min < INT_MIN ? [`minimum: ${INT_MIN} (or 0)`] : []),
      ];
      if (!fixes.length) return undefined;
      const range = `${min === undefined ? 'no minimum' : `minimum ${min}`} and ${max === undefined ? 'no maximum' : `maximum ${max}`}`;
      return `is an integer with ${range}, and GraphQL Int holds 32 bits: give it ${fixes.join(' and ')}`;
    }
    case 'Float':
      return only('number', 'integer') ? undefined : `${is}: make it a number`;
    case 'Boolean':
      return only('boolean') ? undefined : `${is}: make it a boolean`;
    case 'String':
      return only('string') ? undefined : `${is}, which GraphQL String would answer as text: make it a string, or the GraphQL field ${types[0] === 'integer' ? 'Int' : types[0] === 'boolean' ? 'Boolean' : types[0] === 'number' ? 'Float' : 'of its type'}`;
    case 'ID':
      return only('string', 'integer') ? undefined : `${is}: an ID is a string or an integer`;
    default:
      return undefined; // a custom scalar: its own serialisation decides
  }
}
