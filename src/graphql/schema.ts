import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { Resolvers } from '../../generated/graphql';
import { mockUnimplemented } from '../mock/graphql';
import { loadGraphqlSdl } from '../spec';
import { resolvers as defaultResolvers } from './resolvers';

export interface SchemaOptions {
  /** schema.graphql's text (read from the file by default). */
  typeDefs?: string;
  /** Fields (`Type.field`) with no resolver, answered with mocked values (MOCK_UNIMPLEMENTED; src/mock/graphql.ts). */
  mock?: readonly string[];
}

/** The executable schema: schema.graphql (the source of truth) plus the typed resolvers. */
export function buildSchema(resolvers: Resolvers = defaultResolvers, { typeDefs = loadGraphqlSdl(), mock = [] }: SchemaOptions = {}): GraphQLSchema {
  if (mock.length > 0) return mockUnimplemented({ typeDefs, resolvers, fields: mock });
  return makeExecutableSchema({
    typeDefs,
    resolvers,
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
