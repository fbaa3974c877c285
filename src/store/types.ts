import type { components } from '../../generated/openapi';
import type { Comment, Post, User } from '../../generated/graphql';
import type { ListQuery } from './query';

type Schemas = components['schemas'];

/**
 * Stored records, as the contract shapes them (model.ts): a REST collection's is its openapi.yaml schema; a GraphQL-only
 * type's its scalar fields (`GraphqlRecord`), with its parent's id where it has one (`ParentLink`).
 */
export type BookRecord = Schemas['Book'];
export type TodoRecord = Schemas['Todo'];
export type NoteRecord = Schemas['Note'];
export type ItemRecord = Schemas['Item'];
export type TaskRecord = Schemas['Task'];
export type UserRecord = GraphqlRecord<User>;
export type PostRecord = GraphqlRecord<Post> & ParentLink<'User'>;
export type CommentRecord = GraphqlRecord<Comment> & ParentLink<'Post'>;

type Scalar = string | number | boolean;
type ScalarKeys<T> = { [K in keyof T]-?: K extends '__typename' | 'id' ? never : NonNullable<T[K]> extends Scalar ? K : never }[keyof T];
type NonNullKeys<T> = { [K in ScalarKeys<T>]: null extends T[K] ? never : K }[ScalarKeys<T>];
type Flat<T> = { [K in keyof T]: T[K] };

/** The stored record of a GraphQL type: its scalar fields (a nullable one may be absent), the id a number (an `ID` string on the wire). */
export type GraphqlRecord<T> = Flat<{ id: number } & { [K in NonNullKeys<T>]: T[K] } & { [K in Exclude<ScalarKeys<T>, NonNullKeys<T>>]?: NonNullable<T[K]> }>;
/** The stored link of a record to its parent of GraphQL type `P`: `userId` for a post (model.ts). */
export type ParentLink<P extends string> = { [K in `${Uncapitalize<P>}Id`]: number };

/** What a create takes: the fields a client gave; those it left out get the contract's default (model.ts `withDefaults`). */
export type NewRecord<T> = Partial<Omit<T, 'id'>>;

/** Any stored record. */
export type StoredRecord = { id: number } & Record<string, unknown>;

/** A value, or a promise of it: what a store may answer where answering synchronously pays off. */
export type MaybePromise<T> = T | Promise<T>;

/** Whether a MaybePromise is the promise (a thenable) rather than the value. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}

/** `next` applied to `value`: at once when it is there (a synchronous store stays synchronous), after it when it is a promise. */
export function then<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isPromise(value) ? value.then(next) : next(value);
}

/**
 * A condition on the current record, checked in the same atomic step as a conditional write
 * (REST If-Match / If-None-Match). False leaves the record unchanged and the write answers STALE.
 */
export type Expect<T> = (current: T) => boolean;

/** What a conditional write answers when the record exists but does not meet its condition. */
export const STALE = 'stale' as const;
export type Stale = typeof STALE;

/**
 * One page of a list (all of it without `limit` and `offset`), as a store reads it for an answer: whole in `items` when
 * it fits in one batch, else its first batch there and the rest in `rest`, read batch by batch as the answer is written
 * (src/http/json-stream.ts; `readAll` where a whole array is needed). `total` and `version` come from the same read
 * as `items`; a write that commits while a long page is being sent may or may not be in its later batches.
 */
export interface ListResult<T> {
  /** The page's records in the list's order: all of them, or those read before `rest`. A cursor page (ListQuery) is whole here. */
  items: T[];
  /** The page's remaining records in order, one batch after another (each batch its caller's own). */
  rest?: AsyncIterable<T[]>;
  /** Number of records in the whole list (its filters applied), whatever the page; left out on a page read with `after`. */
  total?: number;
  /** On a cursor page followed by more records: the cursor of its last record, the next page's `after`. */
  next?: string;
  /**
   * The collection's version: changes in the same atomic step as every write to it, never names two contents (a store
   * that restarts gives new ones). With the query it names the answer: a list's ETag needs no body (src/rest/registrar.ts).
   */
  version: string;
}

/** A list read without `after`: its total is counted. */
export type Counted<T> = ListResult<T> & { total: number };

/** Most records a store reading from a database holds for one batch of a list (the memory store has them all already). */
export const LIST_BATCH = 128;

/**
 * The records after `last` in a list's order, at most `left` of them, in batches of at most LIST_BATCH, each read
 * by `read(after, size)` (at most `size` records after `after`) when pulled; none after `return()`. A store's
 * `rest`. An iterator, not a generator: a generator suspended at `yield` keeps its batch (V8 keeps a suspended
 * generator's variables), which for a client that stopped reading is until its connection closes.
 */
export function batchesAfter<T>(last: T, left: number, read: (after: T, size: number) => MaybePromise<T[]>): AsyncIterable<T[]> {
  const done = { done: true as const, value: undefined };
  return {
    [Symbol.asyncIterator]: () => {
      let from = last;
      let remaining = left;
      return {
        next: async (): Promise<IteratorResult<T[]>> => {
          if (remaining <= 0) return done;
          const size = Math.min(remaining, LIST_BATCH);
          const batch = await read(from, size);
          remaining = batch.length < size ? 0 : remaining - size;
          if (batch.length === 0) return done;
          from = batch[batch.length - 1];
          return { done: false, value: batch };
        },
        return: async () => {
          remaining = 0;
          return done;
        },
      };
    },
  };
}

/** Every record of a page, `rest` included, in one array. */
export async function readAll<T>(page: ListResult<T>): Promise<T[]> {
  if (!page.rest) return page.items;
  const all = [...page.items];
  for await (const batch of page.rest) for (const item of batch) all.push(item);
  return all;
}

/**
 * One collection of records keyed by a service-assigned id (previous largest + 1, never reused, unique under
 * concurrent creates). Expected outcomes are return values: an unknown id is `undefined` / `false`, never a throw.
 * A record handed out frozen (`Object.freeze`) is taken to stay as it is for as long as it lives: the REST layer
 * remembers its JSON text and tag by the object (src/rest/registrar.ts, `taggedMemo`), so a store that freezes its
 * records hands out a new object for a record once it has changed, as the stores on SQLite do (CommittedCache).
 */
export interface Collection<T extends { id: number }> {
  /**
   * The records `query` selects, in its order (id order without one), whole or a page of them, with the total and the
   * version. A query the contract does not allow, or a cursor of another list, rejects with a QueryError (query.ts).
   */
  list(query?: ListQuery & { after?: undefined }): Promise<Counted<T>>;
  list(query: ListQuery): Promise<ListResult<T>>;
  get(id: number): Promise<T | undefined>;
  /** A new record with the next id: `data`, with the contract's default for each field it leaves out. */
  create(data: NewRecord<T>): Promise<T>;
  /**
   * Applies the fields present in `patch`; absent fields keep their value, `null` clears an optional field (the
   * record then has none; a required field is never cleared). With `expect`, only when the
   * current record meets it, checked and written atomically (no other write lands in between): STALE
   * otherwise, and nothing is changed. An unknown id is `undefined` either way.
   */
  update(id: number, patch: Partial<Omit<T, 'id'>>): Promise<T | undefined>;
  update(id: number, patch: Partial<Omit<T, 'id'>>, expect: Expect<T> | undefined): Promise<T | undefined | Stale>;
  /** True when deleted, false for an unknown id; with `expect`, STALE (and nothing deleted) when the record does not meet it. */
  delete(id: number): Promise<boolean>;
  delete(id: number, expect: Expect<T> | undefined): Promise<boolean | Stale>;
}

/** A collection whose records belong to a parent record (posts to users, comments to posts). */
export interface ChildCollection<T extends { id: number }, K extends keyof T> extends Collection<T> {
  /**
   * The records whose `parentKey` is one of `parentIds`, by parent (every id given is a key), each list in id order and
   * its caller's own: one storage call for a batch, answered synchronously by a store on SQLite, so GraphQL's nested
   * lists resolve without a promise per object (src/graphql/loaders.ts).
   */
  listByParents(parentIds: readonly number[]): MaybePromise<ReadonlyMap<number, T[]>>;
  readonly parentKey: K;
}

export type StorageKind = 'memory' | 'sqlite' | 'postgres';

/** An answer kept under an Idempotency-Key: what the first request was answered (JSON-serialisable). */
export interface StoredAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Only successful answers are kept under a key: an error changed nothing, and the key may be retried. */
export const isSuccess = (answer: StoredAnswer): boolean => answer.status >= 200 && answer.status < 300;

/** One request carrying an Idempotency-Key. */
export interface IdempotentRequest {
  key: string;
  /** What the request asked for (method, path, body digest): the same key with another fingerprint is a misuse. */
  fingerprint: string;
  /** How long the answer is kept. */
  ttlMs: number;
}

/** What became of an idempotent request: `done` (ran now; a 2xx answer is kept), `replay` (the key's first answer), `mismatch` (the key was used for another request) or `in-progress`. */
export type IdempotentOutcome =
  | { outcome: 'done' | 'replay'; answer: StoredAnswer }
  | { outcome: 'mismatch' | 'in-progress' };

/** Every repository the service uses. REST handlers and GraphQL resolvers share these. */
export interface Store {
  readonly kind: StorageKind;
  readonly books: Collection<BookRecord>;
  readonly todos: Collection<TodoRecord>;
  readonly notes: Collection<NoteRecord>;
  readonly items: Collection<ItemRecord>;
  readonly tasks: Collection<TaskRecord>;
  readonly users: Collection<UserRecord>;
  readonly posts: ChildCollection<PostRecord, 'userId'>;
  readonly comments: ChildCollection<CommentRecord, 'postId'>;
  /** Any collection of the contract by name (src/store/model.ts), the ones above included; a name the contract does not store throws. */
  collection<T extends { id: number } = StoredRecord>(name: string): Collection<T>;
  /**
   * Runs `work` at most once per key: its writes (through the store it is given) and its 2xx answer are kept together or
   * not at all; any other answer or a throw keeps nothing, so the key may be retried. Keys are shared by every instance.
   */
  idempotent(request: IdempotentRequest, work: (store: Store) => Promise<StoredAnswer>): Promise<IdempotentOutcome>;
  /** Resolves when storage is reachable; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Connections of a pooled store, for metrics: open ones, idle ones, and requests waiting for one. */
  poolStats?(): { size: number; idle: number; waiting: number };
}

/** What every store is made with (the SQLite store adds its file and driver, PostgreSQL its connections). */
export interface StoreOptions {
  /**
   * Loaded once, into a data set that was never seeded; a function is called only then, after the stored data was
   * compared with the contract (a start then names stored records that do not fit before a seed file that does not).
   */
  seed: SeedSource;
  /** The stored resources (default: the contract's, model.ts). */
  model?: import('./model').ContractModel;
  /** The project folder whose `migrations/<store>/` holds hand-written migrations (default: this project, follow.ts). */
  root?: string;
  /** Bounds on a list query's work (query.ts). */
  queryLimits?: import('./query').QueryLimits;
  /** Told each change following the contract made at this start (src/store/index.ts logs them). */
  onChange?: (change: import('./follow').Change) => void;
}

/** Seed data, or what loads it when a store seeds a new data set. */
export type SeedSource = SeedData | (() => SeedData);

/** The data a store can be seeded with: records with explicit ids, by collection (one a seed does not name is empty). */
export interface SeedData {
  books: BookRecord[];
  todos: TodoRecord[];
  notes: NoteRecord[];
  items: ItemRecord[];
  tasks: TaskRecord[];
  users: UserRecord[];
  posts: PostRecord[];
  comments: CommentRecord[];
  [collection: string]: object[];
}
