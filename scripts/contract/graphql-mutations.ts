import { getNamedType, isLeafType, isListType, isNonNullType, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { KitContext } from './context';
import { gql } from './graphql-client';
import { expect } from './reporter';

/** A root query field listing the type a mutation returns (to count records before and after). */
function listerOf(schema: GraphQLSchema, typeName: string): GraphQLField<unknown, unknown> | undefined {
  return Object.values(schema.getQueryType()?.getFields() ?? {}).find(
    (f) =>
      isListType(isNonNullType(f.type) ? f.type.ofType : f.type) &&
      getNamedType(f.type).name === typeName &&
      !f.args.some((a) => isNonNullType(a.type)),
  );
}

async function count(ctx: KitContext, path: string, lister: GraphQLField<unknown, unknown> | undefined): Promise<number | undefined> {
  if (!lister) return undefined;
  const res = await gql(ctx, path, `{ ${lister.name} { __typename } }`);
  const list = res.body.data?.[lister.name];
  return Array.isArray(list) ? list.length : undefined;
}

/**
 * Mutations whose description promises BAD_USER_INPUT for blank input: sent blank strings for all
 * their (String) arguments, each must fail with that code, no data, and store nothing. Nothing is
 * created when the service keeps its contract, so these checks are safe against any instance.
 */
export async function runBadInputMutations(ctx: KitContext, schema: GraphQLSchema, path: string): Promise<void> {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    if (!field.description?.includes('BAD_USER_INPUT')) continue;
    const required = field.args.filter((a) => isNonNullType(a.type));
    if (required.length === 0 || required.some((a) => getNamedType(a.type).name !== 'String')) continue;
    const declared = required.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
    const passed = required.map((a) => `${a.name}: $${a.name}`).join(', ');
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    const query = `mutation(${declared}) { ${field.name}(${passed})${selection} }`;
    const variables = Object.fromEntries(required.map((a) => [a.name, '   ']));
    await ctx.reporter.check(`POST ${path} ${query} with blank strings -> BAD_USER_INPUT, nothing stored`, async () => {
      const lister = listerOf(schema, getNamedType(field.type).name);
      const before = await count(ctx, path, lister);
      const res = await gql(ctx, path, query, variables);
      expect(!res.body.data || res.body.data[field.name] == null, `the mutation returned data: ${JSON.stringify(res.body.data)}`);
      const codes = (res.body.errors ?? []).map((e) => e.extensions?.code);
      expect(codes.includes('BAD_USER_INPUT'), `expected an error with extensions.code BAD_USER_INPUT, got ${JSON.stringify(res.body.errors)}`);
      const after = await count(ctx, path, lister);
      expect(before === after, `${lister?.name} held ${before} records before and ${after} after`);
    });
  }
}
