import type { BookRecord, CommentRecord, PostRecord, TodoRecord, UserRecord } from '../store/types';

/** Every key of a record type, exactly once: the compiler rejects a missing or unknown key. */
type AllKeys<T> = { [K in keyof Required<T>]: true };

const book: AllKeys<BookRecord> = { id: true, title: true, pages: true };
const todo: AllKeys<TodoRecord> = { id: true, text: true, done: true };
const user: AllKeys<UserRecord> = { id: true, name: true, email: true };
const post: AllKeys<PostRecord> = { id: true, userId: true, title: true, body: true };
const comment: AllKeys<CommentRecord> = { id: true, postId: true, body: true };

/**
 * The fields of the stored record behind each GraphQL object type (codegen.ts `mappers`). A GraphQL
 * field that is not one of them cannot use the default resolver and needs its own (Todo.title reads
 * `text`). A new object type in schema.graphql gets an entry here (and a mapper in codegen.ts).
 */
export const RECORD_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  Book: new Set(Object.keys(book)),
  Todo: new Set(Object.keys(todo)),
  User: new Set(Object.keys(user)),
  Post: new Set(Object.keys(post)),
  Comment: new Set(Object.keys(comment)),
};
