import {
  buildClientSchema,
  buildSchema,
  findBreakingChanges,
  getIntrospectionQuery,
  getNamedType,
  isLeafType,
  isNonNullType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { serverAudits } from 'graphql-http';
import type { KitContext } from './context';
import { joinUrl } from './http';
import { gql } from './graphql-client';
import { runBadInputMutations } from './graphql-mutations';
import { runSchemaQueries } from './graphql-queries';
import { CheckFailure, expect } from './reporter';

async function runAudits(ctx: KitContext, path: string): Promise<void> {
  for (const audit of serverAudits({ url: joinUrl(ctx.baseUrl, path), fetchFn: fetch })) {
    await ctx.reporter.check(`graphql-http audit ${audit.id}: ${audit.name}`, async () => {
      const result = await audit.fn();
      // MUST ('error') and SHOULD ('warn') must pass; a MAY not taken ('notice') is only reported.
      if (result.status === 'notice') ctx.note(`# note: ${audit.id} not taken (optional): ${result.reason}`);
      else if (result.status !== 'ok') throw new CheckFailure(`${result.status}: ${result.reason}`);
    });
  }
}

/** The schema the server serves (introspection) matches schema.graphql, both ways. */
async function servedSchema(ctx: KitContext, path: string, spec: GraphQLSchema): Promise<void> {
  await ctx.reporter.check(`POST ${path} introspection: the served schema matches schema.graphql`, async () => {
    const res = await gql(ctx, path, getIntrospectionQuery());
    expect(res.status === 200 && !res.body.errors && res.body.data, `introspection failed: ${res.status} ${JSON.stringify(res.body.errors ?? '')}`);
    const served = buildClientSchema(res.body.data as unknown as IntrospectionQuery);
    const missing = findBreakingChanges(spec, served).map((c) => `served schema: ${c.description}`);
    const extra = findBreakingChanges(served, spec).map((c) => `schema.graphql lacks what is served: ${c.description}`);
    const problems = [...missing, ...extra];
    expect(problems.length === 0, problems.slice(0, 5).join('; '));
  });
}

/** Standard validation: an unknown field is an error with the standard message and no data. */
async function unknownField(ctx: KitContext, path: string): Promise<void> {
  await ctx.reporter.check(`POST ${path} { contractKitUnknownField } -> "Cannot query field" error, no data`, async () => {
    const res = await gql(ctx, path, '{ contractKitUnknownField }');
    expect(res.body.data === undefined || res.body.data === null, `expected no data, got ${JSON.stringify(res.body.data)}`);
    expect(/Cannot query field/.test(res.body.errors?.[0]?.message ?? ''), `errors: ${JSON.stringify(res.body.errors)}`);
    // GraphQL over HTTP: a validation error is a 4xx with application/graphql-response+json (200 is legacy JSON's).
    const okStatus = res.media === 'application/json' ? res.status === 200 || res.status === 400 : res.status >= 400 && res.status < 500;
    expect(okStatus, `status ${res.status} with ${res.media}`);
  });
}

/**
 * The one rule of GraphQL over HTTP that graphql-http's audits miss: with
 * `application/graphql-response+json`, a variable coercion failure has no data and is a 4xx.
 */
async function variableCoercion(ctx: KitContext, path: string, schema: GraphQLSchema): Promise<void> {
  const fields = Object.values(schema.getQueryType()?.getFields() ?? {});
  const field = fields.find((f) => f.args.some((a) => isNonNullType(a.type)));
  const arg = field?.args.find((a) => isNonNullType(a.type));
  if (!field || !arg) return;
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  const query = `query($v: ${arg.type.toString()}) { ${field.name}(${arg.name}: $v)${selection} }`;
  await ctx.reporter.check(`POST ${path} ${query} with an uncoercible variable (graphql-response+json) -> 4xx, no data`, async () => {
    const res = await ctx.send({
      method: 'POST',
      path,
      headers: { accept: 'application/graphql-response+json' },
      body: { query, variables: { v: { contractKit: true } } },
    });
    expect(res.status >= 400 && res.status < 500, `expected a 4xx, got ${res.status}: ${res.text.slice(0, 200)}`);
    const body = JSON.parse(res.text) as { data?: unknown; errors?: unknown[] };
    expect(!('data' in body), `the response has a data entry: ${res.text.slice(0, 200)}`);
    expect(Array.isArray(body.errors) && body.errors.length > 0, 'no errors entry');
  });
}

/**
 * GraphQL checks against `<base>/graphql`: graphql-http's server audits (the GraphQL over HTTP
 * spec), the served schema against schema.graphql, and schema-driven queries.
 */
export async function runGraphqlChecks(ctx: KitContext, sdl: string, path = '/graphql'): Promise<void> {
  const schema = buildSchema(sdl);
  await runAudits(ctx, path);
  await servedSchema(ctx, path, schema);
  await unknownField(ctx, path);
  await variableCoercion(ctx, path, schema);
  await runSchemaQueries(ctx, schema, path);
  await runBadInputMutations(ctx, schema, path);
}
