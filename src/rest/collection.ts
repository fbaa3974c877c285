import { ApiError } from '../http/errors';
import { specModel } from '../store/model';
import type { Collection, StoredRecord } from '../store/types';
import { removed, written } from './handlers/answers';
import { listQuery } from './list-query';
import { listResult } from './pagination';
import type { Handler, OperationId, Precondition, RestContext } from './types';

/** What the collection's handlers read of their input: the same for every collection, typed by the operations they serve. */
interface Input {
  params: { id: number };
  query: Record<string, unknown>;
  body: object;
  path: string;
  search: string;
  precondition?: Precondition;
}
type AnyHandler = (input: Input, ctx: RestContext) => Promise<unknown>;

/** The operations of one collection with this service's conventions, by what each does. */
export interface CollectionOperations {
  /** GET /{name}: the records in id order, or those its filters select in its sort, whole or a page of them. */
  list?: OperationId;
  /** POST /{name}: a new record from the request body; 201 with the record (and `Location` where the spec declares it). */
  create?: OperationId;
  /** GET /{name}/{id}: the record, or 404. */
  get?: OperationId;
  /** PUT /{name}/{id}: the fields the body gives (an absent one keeps its value), or 404. */
  update?: OperationId;
  /**
   * PATCH /{name}/{id}: a JSON merge patch (RFC 7396): a member sets its field, an absent one keeps it, `null`
   * removes an optional field (the store clears a field given `null`); or 404. The spec's patch schema lets `null`
   * through only for optional fields (src/startup/stored-shapes.ts checks it at start).
   */
  patch?: OperationId;
  /** DELETE /{name}/{id}: 204, or 404. */
  delete?: OperationId;
}

/** The handlers of `operations`, each under its operationId and typed by it. */
export type CollectionHandlers<O extends CollectionOperations> = { [K in NonNullable<O[keyof O]> & OperationId]: Handler<K> };

/**
 * The handlers of one collection of the contract (src/store/model.ts), by operationId: every field the request
 * schema declares goes to the store as validated (defaults are the contract's, applied by the store), and the
 * record the store answers is the response (the record schema is the response schema). A 404 says
 * `<Record> <id> not found` in the operation's error format. A new collection with these conventions is its
 * paths and schemas in openapi.yaml and one call of this (docs/changing-the-contract.md).
 */
export function collectionHandlers<const O extends CollectionOperations>(name: string, operations: O): CollectionHandlers<O> {
  let label: string | undefined;
  const notFound = (id: number) => (): never => {
    label ??= specModel().resources.get(name)?.label ?? name;
    throw new ApiError(404, `${label} ${id} not found`);
  };
  // The store shows each collection of the contract under its name (src/store/sql/collection.ts, collectionsOf): one property read.
  const of = (store: object) => (store as Record<string, Collection<StoredRecord>>)[name];
  const update: AnyHandler = async ({ params: { id }, body, precondition }, { store }) => written(await of(store).update(id, body, precondition), notFound(id));
  const all: Record<keyof CollectionOperations, AnyHandler> = {
    list: async ({ query, path, search }, { store }) => {
      const asked = listQuery(query);
      return listResult(path, search, asked, await of(store).list(asked));
    },
    create: async ({ body }, { store }) => ({ status: 201, body: await of(store).create(body) }),
    get: async ({ params: { id } }, { store }) => ({ status: 200, body: (await of(store).get(id)) ?? notFound(id)() }),
    update,
    // A merge patch's members are the fields to set, `null` the ones to remove: the store's update takes both.
    patch: update,
    delete: async ({ params: { id }, precondition }, { store }) => removed(await of(store).delete(id, precondition), notFound(id)),
  };
  const handlers: Record<string, AnyHandler> = {};
  for (const [kind, operationId] of Object.entries(operations)) if (operationId) handlers[operationId] = all[kind as keyof CollectionOperations];
  return handlers as unknown as CollectionHandlers<O>;
}
