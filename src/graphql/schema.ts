import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { Resolvers } from '../../generated/graphql';
import { loadGraphqlSdl } from '../spec';
import { resolvers as defaultResolvers } from './resolvers';

/** The executable schema: schema.graphql (the source of truth) plus the typed resolvers. */
export function buildSchema(resolvers: Resolvers = defaultResolvers): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: loadGraphqlSdl(),
    resolvers,
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
