import type { BookRecord, ChildCollection, Collection, CommentRecord, ItemRecord, NoteRecord, PostRecord, Store, TaskRecord, TodoRecord, UserRecord } from './types';

/** Every repository of a store, by collection. */
export type Repositories = Omit<Store, 'kind' | 'idempotent' | 'ping' | 'close' | 'poolStats'>;

/** How a store makes one collection, and one whose records belong to a parent (`parentKey` names the parent's id). */
export interface RepositoryMaker {
  collection<T extends { id: number }>(name: Exclude<keyof Repositories, 'posts' | 'comments'>): Collection<T>;
  children<T extends { id: number }, K extends keyof T & string>(name: 'posts' | 'comments', parentKey: K): ChildCollection<T, K>;
}

/** Every collection made by `make`, each with its record type, and each child collection with its parent key. */
export function makeRepositories(make: RepositoryMaker): Repositories {
  return {
    books: make.collection<BookRecord>('books'),
    todos: make.collection<TodoRecord>('todos'),
    notes: make.collection<NoteRecord>('notes'),
    items: make.collection<ItemRecord>('items'),
    tasks: make.collection<TaskRecord>('tasks'),
    users: make.collection<UserRecord>('users'),
    posts: make.children<PostRecord, 'userId'>('posts', 'userId'),
    comments: make.children<CommentRecord, 'postId'>('comments', 'postId'),
  };
}
