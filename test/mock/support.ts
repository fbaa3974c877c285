import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { loadGraphqlSdl, loadOpenApi, type OpenApiDocument } from '../../src/spec';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

/**
 * openapi.yaml plus operations nobody implemented: getQuote (named examples), createQuote (an example
 * and a required Location header), getQuoteStats (no example: the body comes from the schema; its 404 is the
 * JsonNotFound response other resources share) and getMotto (text/plain, the text error family, no example;
 * its 404 is the shared TextNotFound).
 */
export function specWithUnimplemented(): OpenApiDocument {
  const openapi = loadOpenApi();
  openapi.components.schemas.Quote = {
    type: 'object',
    required: ['id', 'text'],
    additionalProperties: false,
    properties: { id: { $ref: '#/components/schemas/Id' }, text: { $ref: '#/components/schemas/Text' } },
  };
  openapi.components.schemas.QuoteStats = {
    allOf: [
      {
        type: 'object',
        required: ['count', 'code', 'tags', 'status', 'updatedAt', 'ratio'],
        properties: {
          count: { type: 'integer', minimum: 3, multipleOf: 3 },
          ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
          code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
          tags: { type: 'array', minItems: 2, uniqueItems: true, items: { type: 'string', enum: ['short', 'long', 'funny'] } },
          status: { const: 'ready' },
          updatedAt: { type: 'string', format: 'date-time' },
          owner: { oneOf: [{ $ref: '#/components/schemas/Quote' }, { type: 'null' }] },
        },
      },
      { type: 'object', required: ['label'], properties: { label: { type: 'string', minLength: 12, maxLength: 20 } } },
    ],
  };
  openapi.paths['/quotes'] = {
    post: {
      operationId: 'createQuote',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', required: ['text'], additionalProperties: false, properties: { text: { $ref: '#/components/schemas/Text' } } },
          },
        },
      },
      responses: {
        '201': {
          description: 'Created.',
          headers: { Location: { required: true, schema: { type: 'string' }, example: '/quotes/7' } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Quote' }, example: { id: 7, text: 'Less is more.' } } },
        },
        '400': ref('JsonBadRequest'),
        '415': ref('JsonUnsupportedMediaType'),
      },
    },
  };
  openapi.paths['/quotes/{id}'] = {
    parameters: [{ $ref: '#/components/parameters/Id' }],
    get: {
      operationId: 'getQuote',
      responses: {
        '200': {
          description: 'The quote.',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Quote' },
              examples: {
                short: { value: { id: 1, text: 'Be brief.' } },
                long: { value: { id: 2, text: 'A long quote, for those who like them long.' } },
              },
            },
          },
        },
        '400': ref('JsonBadRequest'),
        '404': {
          description: 'No such quote.',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Error' },
              examples: { missing: { value: { error: 'Quote 42 not found' } }, gone: { value: { error: 'Quote 42 was deleted' } } },
            },
          },
        },
      },
    },
  };
  openapi.paths['/quote-stats'] = {
    get: {
      operationId: 'getQuoteStats',
      responses: {
        '200': { description: 'Statistics.', content: { 'application/json': { schema: { $ref: '#/components/schemas/QuoteStats' } } } },
        '400': ref('JsonBadRequest'),
        // Shared with the books, notes and tasks: its example is a book's.
        '404': ref('JsonNotFound'),
        // Shared by every JSON operation, with named examples.
        '503': ref('JsonServiceUnavailable'),
      },
    },
  };
  openapi.paths['/motto'] = {
    get: {
      operationId: 'getMotto',
      responses: {
        '200': { description: 'The motto.', content: { 'text/plain': { schema: { type: 'string', minLength: 3 } } } },
        '400': ref('TextBadRequest'),
        '404': ref('TextNotFound'),
      },
    },
  };
  return openapi;
}

/** schema.graphql plus fields nobody implemented: a root field, a mutation, a field of a stored type and a type with no record. */
export function sdlWithUnimplemented(): string {
  return `${loadGraphqlSdl()}
"A quote; nothing stores quotes yet."
type Quote {
  text: String!
  likes: Int!
}
extend type Query {
  "The quote of the day."
  quote: Quote!
  "A book picked for the front page."
  featuredBook: Book!
}
extend type Mutation {
  likeQuote(times: Int!): Int!
}
extend type Book {
  isbn: String!
  rating: Int!
}
`;
}

/** An app from the given parts on the default seed in memory, with response validation on, and its log lines. */
export function buildApp(parts: { openapi?: OpenApiDocument; sdl?: string; config?: Partial<Config> } = {}) {
  const logs: Record<string, unknown>[] = [];
  const app = createApp({
    store: createMemoryStore(loadSeed('default')),
    config: testConfig(parts.config),
    logger: createLogger('debug', (line) => logs.push(JSON.parse(line))),
    openapi: parts.openapi,
    sdl: parts.sdl,
  });
  return { app, http: request(app), logs };
}
