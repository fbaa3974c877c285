import { addMocksToSchema, createMockStore, isRef } from '@graphql-tools/mock';
import { makeExecutableSchema } from '@graphql-tools/schema';
import {
  buildSchema,
  defaultFieldResolver,
  isAbstractType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from 'graphql';

type ResolverMap = Record<string, Record<string, unknown>>;
/** Resolvers as makeExecutableSchema takes them. */
type Resolvers = NonNullable<Parameters<typeof makeExecutableSchema>[0]['resolvers']>;

/**
 * The schema.graphql fields to mock, as `Type.field`, from what the contract check names missing
 * (src/startup/contract-check.ts missingResolvers): `Type.field` and `Type.__resolveType` as they are,
 * and an object type with no stored record as each of its fields that has no resolver.
 */
export function fieldsToMock(sdl: string, missing: readonly string[], resolvers: Readonly<Record<string, unknown>>): string[] {
  const schema = buildSchema(sdl);
  const fields: string[] = [];
  for (const entry of missing) {
    const field = /^(\w+)\.(\w+)$/.exec(entry);
    if (field) {
      fields.push(entry);
      continue;
    }
    const wholeType = schema.getType(/^(\w+) \(/.exec(entry)?.[1] ?? '');
    if (!isObjectType(wholeType)) continue;
    const own = (resolvers[wholeType.name] ?? {}) as Record<string, unknown>;
    for (const name of Object.keys(wholeType.getFields())) if (own[name] === undefined) fields.push(`${wholeType.name}.${name}`);
  }
  return fields;
}

/**
 * The executable schema with the given fields (`Type.field`, or `Type.__resolveType`) answered by
 * @graphql-tools/mock, and every other resolver as it is: the implemented fields keep answering from the
 * store. A mocked value of an object type is a reference into the mock store (`{ $ref }`); any field of
 * such a value, implemented or not, answers from the mock store too, so a mocked `Book` has mocked
 * fields rather than a stored book's. Values follow the mock store's defaults (strings "Hello World",
 * lists of two), the same for the same field, arguments and record (or mocked value) while the service runs.
 */
export function mockUnimplemented({ typeDefs, resolvers, fields }: { typeDefs: string; resolvers: Resolvers; fields: readonly string[] }): GraphQLSchema {
  const schema = makeExecutableSchema({ typeDefs, resolvers });
  const store = createMockStore({ schema });
  // Only the listed fields (which have no resolver of their own, so the mocked schema gives them its plain mock
  // resolver) and abstract types without __resolveType take the mocked schema's resolvers. Its wrappers of the
  // implemented fields, which run the mock beside the service's resolver and merge the two, are not used.
  const mocked = addMocksToSchema({ schema, store, preserveResolvers: true });
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  const wanted = new Set(fields);
  const overrides: ResolverMap = {};
  const set = (type: string, field: string, value: unknown) => ((overrides[type] ??= {})[field] = value);

  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isAbstractType(type)) {
      const mockedType = mocked.getType(type.name);
      const own = type.resolveType;
      if (wanted.has(`${type.name}.__resolveType`) || !own) {
        set(type.name, '__resolveType', (mockedType as typeof type).resolveType);
      } else {
        const ownType: GraphQLTypeResolver<unknown, unknown> = own;
        set(type.name, '__resolveType', ((value, context, info, abstractType) =>
          isRef(value) ? value.$ref.typeName : ownType(value, context, info, abstractType)) satisfies GraphQLTypeResolver<unknown, unknown>);
      }
      continue;
    }
    if (!isObjectType(type)) continue;
    const mockedFields = (mocked.getType(type.name) as typeof type).getFields();
    for (const field of Object.values(type.getFields())) {
      if (wanted.has(`${type.name}.${field.name}`)) {
        const mockedResolve = mockedFields[field.name].resolve!;
        if (roots.has(type)) {
          set(type.name, field.name, mockedResolve);
          continue;
        }
        // On a stored record, the value is kept in the mock store under the record's id: the same record
        // answers the same value, and the store holds one value per record rather than one per request.
        set(type.name, field.name, ((source, args, context, info) => {
          const id = (source as { id?: unknown } | null)?.id;
          return !isRef(source) && (typeof id === 'string' || typeof id === 'number')
            ? store.get({ typeName: type.name, key: String(id), fieldName: info.fieldName, fieldArgs: args })
            : mockedResolve(source, args, context, info);
        }) satisfies GraphQLFieldResolver<unknown, unknown>);
      } else if (!roots.has(type)) {
        // A field the service implements, on a value that may come from the mock store.
        const own: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
        set(type.name, field.name, ((source, args, context, info) =>
          isRef(source)
            ? store.get({ typeName: source.$ref.typeName, key: source.$ref.key, fieldName: info.fieldName, fieldArgs: args })
            : own(source, args, context, info)) satisfies GraphQLFieldResolver<unknown, unknown>);
      }
    }
  }
  return makeExecutableSchema({ typeDefs, resolvers: [resolvers, overrides].flat() });
}
