import type { CodegenConfig } from '@graphql-codegen/cli';

// Resolver signatures typed against the stored records (mappers), so a resolver's `parent` is what
// the store returns: `Todo.title` reads `parent.text`, `User.posts` gets a `UserRecord`.
const config: CodegenConfig = {
  overwrite: true,
  schema: './schema.graphql',
  generates: {
    './generated/graphql.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useIndexSignature: true,
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: '../src/graphql/context#GraphQLContext',
        mappers: {
          User: '../src/store/types#UserRecord',
          Post: '../src/store/types#PostRecord',
          Comment: '../src/store/types#CommentRecord',
          Book: '../src/store/types#BookRecord',
          Todo: '../src/store/types#TodoRecord',
        },
        scalars: { ID: { input: 'string', output: 'string | number' } },
      },
    },
  },
};

export default config;
