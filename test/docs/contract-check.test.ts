import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { resolvers } from '../../src/graphql/resolvers';
import { createLogger } from '../../src/logger';
import { handlers } from '../../src/rest/handlers';
import { loadGraphqlSdl, loadOpenApi } from '../../src/spec';
import { ContractError, assertContractImplemented, missingResolvers } from '../../src/startup/contract-check';
import { createMemoryStore } from '../../src/store/memory';
import { emptySeed } from '../../src/store/seed';
import { buildModel } from '../../src/store/model';
import { storedShapeProblems } from '../../src/startup/stored-shapes';

type AppDeps = Parameters<typeof createApp>[0];

function build(overrides: Partial<AppDeps> = {}) {
  return createApp({
    store: createMemoryStore(emptySeed()),
    config: testConfig(),
    logger: createLogger('silent'),
    ...overrides,
  });
}

/** A copy of `obj` without `key`. */
function without<T extends object>(obj: T, key: keyof T): Partial<T> {
  const copy: Partial<T> = { ...obj };
  delete copy[key];
  return copy;
}

/** The message createApp throws, or fails the test when it does not throw. */
function startupError(overrides: Partial<AppDeps>): ContractError {
  try {
    build(overrides);
  } catch (err) {
    expect(err).toBeInstanceOf(ContractError);
    return err as ContractError;
  }
  throw new Error('createApp did not refuse to start');
}

describe('startup completeness check: REST', () => {
  it('when every operation has a handler and every field a resolver, then createApp builds the app', () => {
    expect(() => build()).not.toThrow();
  });

  it('when a handler is removed, then createApp throws one line naming the operation, method and path', () => {
    const err = startupError({ handlers: without(handlers, 'createBook') });
    expect(err.message).toBe('Contract not fully implemented: openapi.yaml operations without a handler: createBook (POST /books)');
  });

  it('when several handlers are missing, then the one line names all of them', () => {
    const err = startupError({ handlers: without(without(handlers, 'greet'), 'deleteTask') });
    expect(err.message).toContain('deleteTask (DELETE /tasks/{id})');
    expect(err.message).toContain('greet (GET /greet/{lang})');
    expect(err.message).not.toContain('\n');
  });

  it('when the spec gains an operation nobody implemented, then createApp throws naming it', () => {
    const openapi = loadOpenApi();
    openapi.paths['/todos'].delete = { operationId: 'clearTodos', responses: { '204': { description: 'Cleared.' } } };
    const err = startupError({ openapi });
    expect(err.message).toContain('clearTodos (DELETE /todos)');
  });
});

describe('startup completeness check: GraphQL', () => {
  it('when a root field has no resolver, then createApp throws naming it', () => {
    const err = startupError({ resolvers: { ...resolvers, Query: without(resolvers.Query!, 'books') } });
    expect(err.message).toBe('Contract not fully implemented: schema.graphql fields without a resolver: Query.books');
  });

  it('when Todo.title (not a field of the stored record) has no resolver, then createApp throws naming it', () => {
    const err = startupError({ resolvers: { ...resolvers, Todo: {} } });
    expect(err.message).toContain('Todo.title');
  });

  it('when the User and Post resolvers are dropped, then their list fields are named and their record fields are not', () => {
    const rest = without(without(resolvers, 'User'), 'Post');
    const err = startupError({ resolvers: rest });
    expect(err.message).toContain('User.posts, Post.comments');
    expect(err.message).not.toMatch(/User\.(name|email|id)|Post\.(title|body)/);
  });

  it('when both a handler and a resolver are missing, then one line names both', () => {
    const err = startupError({ handlers: without(handlers, 'getHealth'), resolvers: { ...resolvers, Mutation: {} } });
    expect(err.message).toMatch(/^Contract not fully implemented: openapi\.yaml operations without a handler: getHealth \(GET \/health\); schema\.graphql fields without a resolver: Mutation\.createUser, Mutation\.addTodo$/);
  });

  it('when a resolver is given as an object with resolve, then it counts as implemented', () => {
    const sdl = 'type Query { books: [Book!]! } type Book { id: ID! title: String! pages: Int! }';
    expect(missingResolvers(sdl, { Query: { books: { resolve: () => [] } } })).toEqual([]);
  });

  it('when the schema gains an object type that is no stored record (no id), then each of its fields needs a resolver', () => {
    const sdl = `${loadGraphqlSdl()}\ntype Author { name: String! }\nextend type Query { authors: [Author!]! }`;
    const missing = missingResolvers(sdl, { ...resolvers, Query: { ...resolvers.Query, authors: () => [] } });
    expect(missing).toEqual(['Author.name']);
  });

  it('when an interface has no __resolveType, then the check names it', () => {
    const sdl = 'interface Node { id: ID! } type Query { node: Node }';
    expect(missingResolvers(sdl, { Query: { node: () => null } })).toEqual(['Node.__resolveType']);
  });

  it('when only REST parts are given, then the GraphQL half is not checked', () => {
    expect(() => assertContractImplemented({ openapi: loadOpenApi(), handlers })).not.toThrow();
  });
});

describe('startup check: operations fit the records they store', () => {
  type Schemas = Record<string, { properties: Record<string, unknown>; required?: string[] }>;
  const spec = (edit: (schemas: Schemas) => void) => {
    const doc = loadOpenApi();
    edit(doc.components.schemas as Schemas);
    return doc;
  };

  it('when a request schema takes a property its record does not store, then the start is refused naming it', () => {
    const openapi = spec((schemas) => {
      schemas.BookCreate.properties.isbn = { type: 'string' };
    });
    expect(() => assertContractImplemented({ openapi, handlers })).toThrow(/POST \/books takes isbn, which Book does not store/);
  });

  it('when a create may leave out a field its record requires with no default, then the start is refused naming it', () => {
    const model = buildModel(
      spec((schemas) => {
        schemas.Book.properties.isbn = { type: 'string' };
        schemas.Book.required!.push('isbn');
      }),
      loadGraphqlSdl(),
    );
    expect(storedShapeProblems(loadOpenApi(), undefined, model)).toEqual([
      'POST /books may leave out isbn, which Book requires and gives no default (require it in the request, or give Book.isbn a default)',
    ]);
  });

  it('when a GraphQL field is non-null but its record may have no value for it, then the start is refused naming it', () => {
    const sdl = loadGraphqlSdl().replace('  pages: Int!\n', '  pages: Int!\n  "ISBN."\n  isbn: String!\n');
    const model = buildModel(spec((schemas) => (schemas.Book.properties.isbn = { type: 'string' })), sdl);
    expect(storedShapeProblems(loadOpenApi(), sdl, model)).toEqual([
      'schema.graphql Book.isbn is non-null, but a Book record may have no value for it (make it nullable, or required in openapi.yaml)',
    ]);
  });

  it('when a merge patch takes null for a field its record requires, then the start is refused naming it: null would remove it', () => {
    const openapi = spec((schemas) => {
      schemas.BookPatch.properties.pages = { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 };
    });
    expect(storedShapeProblems(openapi, undefined, buildModel(openapi, loadGraphqlSdl()))).toEqual([
      'PATCH /books/{id} takes null for pages, which would remove a field Book requires (make pages non-null in the patch schema)',
    ]);
  });

  it('when a merge patch takes an optional field without null, then the start is refused naming it: the patch could not remove it', () => {
    const openapi = spec((schemas) => {
      for (const name of ['Book', 'BookCreate', 'BookUpdate', 'BookPatch']) schemas[name].properties.isbn = { type: 'string' };
    });
    expect(storedShapeProblems(openapi, undefined, buildModel(openapi, loadGraphqlSdl()))).toEqual([
      "PATCH /books/{id} cannot remove isbn, an optional field of Book: a merge patch removes a field with null (let isbn be null in the patch schema: type: [<its type>, 'null'])",
    ]);
  });

  it('when the service\'s own contract is checked, then every operation fits', () => {
    expect(storedShapeProblems(loadOpenApi(), loadGraphqlSdl(), buildModel(loadOpenApi(), loadGraphqlSdl()))).toEqual([]);
  });
});
