import {
  getNamedType,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { show, type KitContext } from './context';
import { gql } from './graphql-client';
import { CheckFailure, expect } from './reporter';

/** What a query selects: a leaf, or an object with its own selection. */
interface Selected {
  type: GraphQLOutputType;
  fields?: Map<string, Selected>;
}

const MAX_NESTING = 3;

/** Every field without required arguments: leaves, and objects down to MAX_NESTING (no type twice on a path). */
function selectionOf(type: GraphQLObjectType, seen: string[]): { text: string; fields: Map<string, Selected> } {
  const fields = new Map<string, Selected>();
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) {
      fields.set(field.name, { type: field.type });
      parts.push(field.name);
    } else if (isObjectType(named) && seen.length < MAX_NESTING && !seen.includes(named.name)) {
      const inner = selectionOf(named, [...seen, named.name]);
      fields.set(field.name, { type: field.type, fields: inner.fields });
      parts.push(`${field.name} { ${inner.text} }`);
    }
  }
  return { text: parts.join(' '), fields };
}

function scalarMatches(typeName: string, value: unknown): boolean {
  switch (typeName) {
    case 'ID':
    case 'String':
      return typeof value === 'string';
    case 'Int':
      return Number.isInteger(value);
    case 'Float':
      return typeof value === 'number';
    case 'Boolean':
      return typeof value === 'boolean';
    default:
      return true; // a custom scalar: any JSON value
  }
}

/** The value has exactly the shape the selection asks for, with the schema's nullability and types. */
function expectShape(value: unknown, selected: Selected, at: string): void {
  let type = selected.type;
  if (isNonNullType(type)) {
    expect(value !== null && value !== undefined, `${at} is null, but the schema says non-null`);
    type = type.ofType;
  }
  if (value === null) return;
  expect(value !== undefined, `${at} is missing`);
  if (isListType(type)) {
    expect(Array.isArray(value), `${at} should be a list, got ${show(value)}`);
    value.forEach((item, i) => expectShape(item, { type: type.ofType, fields: selected.fields }, `${at}[${i}]`));
    return;
  }
  if (isScalarType(type)) {
    expect(scalarMatches(type.name, value), `${at} should be ${type.name}, got ${JSON.stringify(value)}`);
  } else if (isEnumType(type)) {
    expect(type.getValues().some((v) => v.name === value), `${at}: ${JSON.stringify(value)} is not a ${type.name} value`);
  } else if (selected.fields) {
    expect(typeof value === 'object' && !Array.isArray(value), `${at} should be an object`);
    const record = value as Record<string, unknown>;
    const extra = Object.keys(record).filter((k) => !selected.fields!.has(k));
    expect(extra.length === 0, `${at} has fields nobody selected: ${extra.join(', ')}`);
    for (const [name, child] of selected.fields) expectShape(record[name], child, `${at}.${name}`);
  }
}

/** A value for a required argument: an id read from a list field of the same type, or a plain literal. */
async function argumentValues(
  ctx: KitContext,
  schema: GraphQLSchema,
  field: GraphQLField<unknown, unknown>,
  path: string,
): Promise<{ values: Record<string, unknown>; idFromList: boolean } | undefined> {
  const values: Record<string, unknown> = {};
  let idFromList = false;
  for (const arg of field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined)) {
    const argType = getNamedType(arg.type).name;
    if (argType !== 'ID') {
      values[arg.name] = argType === 'Int' ? 1 : argType === 'Boolean' ? true : argType === 'Float' ? 1.5 : 'contract-kit';
      continue;
    }
    const target = getNamedType(field.type).name;
    const lister = Object.values(schema.getQueryType()!.getFields()).find(
      (f) => isListType(isNonNullType(f.type) ? f.type.ofType : f.type) && getNamedType(f.type).name === target && !f.args.some((a) => isNonNullType(a.type)),
    );
    if (!lister) return undefined;
    const res = await gql(ctx, path, `{ ${lister.name} { ${arg.name} } }`);
    const first = (res.body.data?.[lister.name] as Record<string, unknown>[] | undefined)?.[0]?.[arg.name];
    if (first === undefined) return undefined;
    values[arg.name] = first;
    idFromList = true;
  }
  return { values, idFromList };
}

/** For every Query root field: select every field it offers, and check the answer's shape. */
export async function runSchemaQueries(ctx: KitContext, schema: GraphQLSchema, path: string): Promise<void> {
  const query = schema.getQueryType();
  if (!query) return;
  for (const field of Object.values(query.getFields())) {
    const named = getNamedType(field.type);
    const selection = isObjectType(named) ? selectionOf(named, [named.name]) : undefined;
    const found = await argumentValues(ctx, schema, field, path);
    const args = found?.values;
    if (!found || !args) {
      ctx.note(`# note: Query.${field.name}: no value found for its arguments; skipped`);
      continue;
    }
    const declared = field.args
      .filter((a) => a.name in args)
      .map((a) => `$${a.name}: ${a.type.toString()}`)
      .join(', ');
    const passed = Object.keys(args).map((name) => `${name}: $${name}`).join(', ');
    const text = `query${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection ? ` { ${selection.text} }` : ''} }`;
    await ctx.reporter.check(`POST ${path} ${text} ${JSON.stringify(args)} -> data of the selected shape, no errors`, async () => {
      const res = await gql(ctx, path, text, args);
      expect(res.status === 200, `status ${res.status}: ${show(res.body, 200)}`);
      expect(!res.body.errors, `errors: ${show(res.body.errors, 300)}`);
      expect(res.body.data && typeof res.body.data === 'object', 'no data');
      const keys = Object.keys(res.body.data);
      expect(keys.length === 1 && keys[0] === field.name, `data has ${keys.join(', ')}, expected ${field.name}`);
      // An id read from the list itself must find its record.
      if (found.idFromList && res.body.data[field.name] === null) throw new CheckFailure(`${field.name} is null for an id the list returned`);
      expectShape(res.body.data[field.name], { type: field.type, fields: selection?.fields }, field.name);
    });
  }
}
