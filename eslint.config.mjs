// Code and schema lint (`npm run lint:code`, `npm run lint:graphql`; both run by `npm run lint`).
import js from '@eslint/js';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const graphqlSchemaRules = graphqlPlugin.configs['flat/schema-recommended'].rules;

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'generated/', 'coverage/', 'artifacts/'] },

  // TypeScript: the recommended rule sets, plus a few rules for bugs a type-check does not catch.
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    rules: {
      // `_next` in Express error handlers and `_`-prefixed placeholders are intentional.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Stripping control characters from messages is deliberate (src/http/errors.ts).
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-throw-literal': 'error',
      'no-return-assign': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-constant-binary-expression': 'error',
    },
  },
  // Layers point one way: src/http (server, route table, bodies, errors, security) sits below REST,
  // GraphQL, the docs and the metrics, which register their routes with it; it imports none of them.
  {
    files: ['src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['rest', 'graphql', 'docs', 'ops'].flatMap((layer) => [`../${layer}`, `../${layer}/*`, `../../${layer}`, `../../${layer}/*`]),
              message: 'src/http is below src/rest, src/graphql, src/docs and src/ops: pass what it needs in instead.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  // Tests may poke at loosely typed documents (a parsed spec, a JSON body) and require() a JSON file.
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  // Plain JavaScript: Node CommonJS (scripts, jest config), Node ESM (.mjs), browser scripts
  // served to the docs UIs (src/**/public/).
  {
    files: ['**/*.js', '**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/**/public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: globals.browser },
  },

  // schema.graphql: graphql-eslint's schema-recommended rules (naming conventions, known types,
  // no unreachable types, ids in every type, descriptions on types and root fields) made stricter:
  // every field and argument of the public schema is documented, since GraphiQL shows them.
  {
    files: ['**/*.graphql'],
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: { graphQLConfig: { schema: 'schema.graphql' } },
    },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      ...graphqlSchemaRules,
      '@graphql-eslint/require-description': [
        'error',
        { types: true, rootField: true, FieldDefinition: true, DirectiveDefinition: true, EnumValueDefinition: true },
      ],
      '@graphql-eslint/no-scalar-result-type-on-mutation': 'error',
      // Relay's connection types (a page, its edges, where it stands) are no records: they have no id.
      '@graphql-eslint/strict-id-in-types': ['error', { exceptions: { types: ['PageInfo'], suffixes: ['Connection', 'Edge'] } }],
      // House style: one-line descriptions inline ("..."), longer ones as blocks; both are fine.
      '@graphql-eslint/description-style': 'off',
      '@graphql-eslint/require-nullable-result-in-root': 'off',
    },
  },
);
