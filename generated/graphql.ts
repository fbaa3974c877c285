import type { GraphQLResolveInfo } from 'graphql';
import type { UserRecord, PostRecord, CommentRecord, BookRecord, TodoRecord } from '../src/store/types';
import type { GraphQLContext } from '../src/graphql/context';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string | number; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
};

/** A book; the same record REST serves at /books/{id}. */
export type Book = {
  __typename?: 'Book';
  /** Assigned by the service; the REST integer id as a string. */
  id: Scalars['ID']['output'];
  /** Page count; 0 when unknown. */
  pages: Scalars['Int']['output'];
  /** Title, never blank. */
  title: Scalars['String']['output'];
};

/** A page of books. */
export type BookConnection = {
  __typename?: 'BookConnection';
  /** The page's books, in the list's order. */
  edges: Array<BookEdge>;
  /** Whether more follow, and the cursors of the page's ends. */
  pageInfo: PageInfo;
};

/** A book and its cursor. */
export type BookEdge = {
  __typename?: 'BookEdge';
  /** The position after this book: `after` for the page that follows it. */
  cursor: Scalars['String']['output'];
  /** The book. */
  node: Book;
};

/** One sort key of books: exactly one field. */
export type BookOrderBy =
  { pages: SortDirection; title?: never; }
  |  { pages?: never; title: SortDirection; };

/** Which books: every condition given must hold. */
export type BookWhere = {
  pages?: InputMaybe<IntFilter>;
  title?: InputMaybe<StringFilter>;
};

/** Conditions on a boolean field. */
export type BooleanFilter = {
  eq?: InputMaybe<Scalars['Boolean']['input']>;
  ne?: InputMaybe<Scalars['Boolean']['input']>;
};

/** A comment on a post; read with its user's scope. */
export type Comment = {
  __typename?: 'Comment';
  /** Text of the comment. */
  body: Scalars['String']['output'];
  /** Assigned by the service. */
  id: Scalars['ID']['output'];
};

/** Conditions on an integer field, ANDed. */
export type IntFilter = {
  eq?: InputMaybe<Scalars['Int']['input']>;
  gt?: InputMaybe<Scalars['Int']['input']>;
  gte?: InputMaybe<Scalars['Int']['input']>;
  /** At most QUERY_MAX_IN_VALUES values (100 by default). */
  in?: InputMaybe<Array<Scalars['Int']['input']>>;
  lt?: InputMaybe<Scalars['Int']['input']>;
  lte?: InputMaybe<Scalars['Int']['input']>;
  ne?: InputMaybe<Scalars['Int']['input']>;
};

/** Writes. Each mutation returns the selected fields of the record it created. */
export type Mutation = {
  __typename?: 'Mutation';
  /** Adds a todo with `done: false`. `title` must not be blank nor hold a NUL character or an unpaired surrogate (BAD_USER_INPUT otherwise). Visible in REST GET /todos as `text`. */
  addTodo: Todo;
  /** Creates a user. `name` must not be blank and `email` must be a plausible address; neither may hold a NUL character or an unpaired surrogate (BAD_USER_INPUT otherwise, nothing stored). */
  createUser: User;
};


/** Writes. Each mutation returns the selected fields of the record it created. */
export type MutationAddTodoArgs = {
  title: Scalars['String']['input'];
};


/** Writes. Each mutation returns the selected fields of the record it created. */
export type MutationCreateUserArgs = {
  email: Scalars['String']['input'];
  name: Scalars['String']['input'];
};

/** Where a page of a connection stands (Relay cursor connections). */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The cursor of the page's last record: `after` for the next page; null for an empty page. */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** Whether records follow this page. */
  hasNextPage: Scalars['Boolean']['output'];
  /** False when paging forward, as the Relay specification allows. */
  hasPreviousPage: Scalars['Boolean']['output'];
  /** The cursor of the page's first record; null for an empty page. */
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** A post written by a user; read with its user's scope. */
export type Post = {
  __typename?: 'Post';
  /** Text of the post. */
  body: Scalars['String']['output'];
  /** Comments on the post in id order. */
  comments: Array<Comment>;
  /** Assigned by the service. */
  id: Scalars['ID']['output'];
  /** Headline. */
  title: Scalars['String']['output'];
};

/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type Query = {
  __typename?: 'Query';
  /** The book with this id, or null when there is none. Same records as REST /books. */
  book?: Maybe<Book>;
  /** Books in id order, or those `where` selects in the order `orderBy` gives, `offset` skipped, at most `limit` (1 to 1000). Same records as REST /books. */
  books: Array<Book>;
  /** Books a page at a time (Relay cursor connection): at most `first` (1 to 1000; all without it) after the cursor `after` (an `endCursor` or `cursor` this service gave for the same list and order: any other string fails validation, and nothing runs). */
  booksConnection: BookConnection;
  /** Todos in id order, or those `where` selects in the order `orderBy` gives, `offset` skipped, at most `limit` (1 to 1000). Same records as REST /todos. */
  todos: Array<Todo>;
  /** Todos a page at a time (Relay cursor connection): at most `first` (1 to 1000; all without it) after the cursor `after` (an `endCursor` or `cursor` this service gave for the same list and order: any other string fails validation, and nothing runs). */
  todosConnection: TodoConnection;
  /** The user with this id, or null when there is none. */
  user?: Maybe<User>;
  /** Users in id order, or those `where` selects in the order `orderBy` gives, `offset` skipped, at most `limit` (1 to 1000). */
  users: Array<User>;
  /** Users a page at a time (Relay cursor connection): at most `first` (1 to 1000; all without it) after the cursor `after` (an `endCursor` or `cursor` this service gave for the same list and order: any other string fails validation, and nothing runs). */
  usersConnection: UserConnection;
};


/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type QueryBookArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type QueryBooksArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<BookOrderBy>>;
  where?: InputMaybe<BookWhere>;
};


/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type QueryBooksConnectionArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<BookOrderBy>>;
  where?: InputMaybe<BookWhere>;
};


/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type QueryTodosArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<TodoOrderBy>>;
  where?: InputMaybe<TodoWhere>;
};


/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type QueryTodosConnectionArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<TodoOrderBy>>;
  where?: InputMaybe<TodoWhere>;
};


/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type QueryUserArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type QueryUsersArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<UserOrderBy>>;
  where?: InputMaybe<UserWhere>;
};


/** Reads. Books and todos are the same records the REST API serves at /books and /todos. */
export type QueryUsersConnectionArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<UserOrderBy>>;
  where?: InputMaybe<UserWhere>;
};

/** A sort direction. Text sorts by Unicode code point; ties are broken by id, ascending. */
export type SortDirection =
  /** Smallest first (text: by code point). */
  | 'ASC'
  /** Largest first. */
  | 'DESC';

/** Conditions on a text field, ANDed. `contains` and `startsWith` ignore case (Unicode lower case) and may scan the collection. */
export type StringFilter = {
  contains?: InputMaybe<Scalars['String']['input']>;
  eq?: InputMaybe<Scalars['String']['input']>;
  gt?: InputMaybe<Scalars['String']['input']>;
  gte?: InputMaybe<Scalars['String']['input']>;
  /** At most QUERY_MAX_IN_VALUES values (100 by default). */
  in?: InputMaybe<Array<Scalars['String']['input']>>;
  lt?: InputMaybe<Scalars['String']['input']>;
  lte?: InputMaybe<Scalars['String']['input']>;
  ne?: InputMaybe<Scalars['String']['input']>;
  startsWith?: InputMaybe<Scalars['String']['input']>;
};

/** A todo; the same record REST serves in /todos. */
export type Todo = {
  __typename?: 'Todo';
  /** Whether it is done. */
  done: Scalars['Boolean']['output'];
  /** Assigned by the service; the REST integer id as a string. */
  id: Scalars['ID']['output'];
  /** What to do; the REST field `text`. */
  title: Scalars['String']['output'];
};

/** A page of todos. */
export type TodoConnection = {
  __typename?: 'TodoConnection';
  /** The page's todos, in the list's order. */
  edges: Array<TodoEdge>;
  /** Whether more follow, and the cursors of the page's ends. */
  pageInfo: PageInfo;
};

/** A todo and its cursor. */
export type TodoEdge = {
  __typename?: 'TodoEdge';
  /** The position after this todo: `after` for the page that follows it. */
  cursor: Scalars['String']['output'];
  /** The todo. */
  node: Todo;
};

/** One sort key of todos: exactly one field. */
export type TodoOrderBy =
  { done: SortDirection; title?: never; }
  |  { done?: never; title: SortDirection; };

/** Which todos: every condition given must hold. */
export type TodoWhere = {
  done?: InputMaybe<BooleanFilter>;
  title?: InputMaybe<StringFilter>;
};

/** A person who writes posts. */
export type User = {
  __typename?: 'User';
  /** E-mail address. */
  email: Scalars['String']['output'];
  /** Assigned by the service; a decimal integer as a string. */
  id: Scalars['ID']['output'];
  /** Display name, never blank. */
  name: Scalars['String']['output'];
  /** The user's posts in id order. */
  posts: Array<Post>;
};

/** A page of users. */
export type UserConnection = {
  __typename?: 'UserConnection';
  /** The page's users, in the list's order. */
  edges: Array<UserEdge>;
  /** Whether more follow, and the cursors of the page's ends. */
  pageInfo: PageInfo;
};

/** A user and its cursor. */
export type UserEdge = {
  __typename?: 'UserEdge';
  /** The position after this user: `after` for the page that follows it. */
  cursor: Scalars['String']['output'];
  /** The user. */
  node: User;
};

/** One sort key of users: exactly one field. */
export type UserOrderBy =
  { email: SortDirection; name?: never; }
  |  { email?: never; name: SortDirection; };

/** Which users: every condition given must hold. */
export type UserWhere = {
  email?: InputMaybe<StringFilter>;
  name?: InputMaybe<StringFilter>;
};

export type WithIndex<TObject> = TObject & Record<string, any>;
export type ResolversObject<TObject> = WithIndex<TObject>;

export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = {}, TContext = {}, TArgs = {}> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = {}, TContext = {}, TArgs = {}> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = {}, TContext = {}> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = {}, TContext = {}> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = {}, TParent = {}, TContext = {}, TArgs = {}> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;



/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = ResolversObject<{
  Book: ResolverTypeWrapper<BookRecord>;
  BookConnection: ResolverTypeWrapper<Omit<BookConnection, 'edges'> & { edges: Array<ResolversTypes['BookEdge']> }>;
  BookEdge: ResolverTypeWrapper<Omit<BookEdge, 'node'> & { node: ResolversTypes['Book'] }>;
  BookOrderBy: BookOrderBy;
  BookWhere: BookWhere;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  BooleanFilter: BooleanFilter;
  Comment: ResolverTypeWrapper<CommentRecord>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  IntFilter: IntFilter;
  Mutation: ResolverTypeWrapper<{}>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  Post: ResolverTypeWrapper<PostRecord>;
  Query: ResolverTypeWrapper<{}>;
  SortDirection: SortDirection;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  StringFilter: StringFilter;
  Todo: ResolverTypeWrapper<TodoRecord>;
  TodoConnection: ResolverTypeWrapper<Omit<TodoConnection, 'edges'> & { edges: Array<ResolversTypes['TodoEdge']> }>;
  TodoEdge: ResolverTypeWrapper<Omit<TodoEdge, 'node'> & { node: ResolversTypes['Todo'] }>;
  TodoOrderBy: TodoOrderBy;
  TodoWhere: TodoWhere;
  User: ResolverTypeWrapper<UserRecord>;
  UserConnection: ResolverTypeWrapper<Omit<UserConnection, 'edges'> & { edges: Array<ResolversTypes['UserEdge']> }>;
  UserEdge: ResolverTypeWrapper<Omit<UserEdge, 'node'> & { node: ResolversTypes['User'] }>;
  UserOrderBy: UserOrderBy;
  UserWhere: UserWhere;
}>;

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = ResolversObject<{
  Book: BookRecord;
  BookConnection: Omit<BookConnection, 'edges'> & { edges: Array<ResolversParentTypes['BookEdge']> };
  BookEdge: Omit<BookEdge, 'node'> & { node: ResolversParentTypes['Book'] };
  BookOrderBy: BookOrderBy;
  BookWhere: BookWhere;
  Boolean: Scalars['Boolean']['output'];
  BooleanFilter: BooleanFilter;
  Comment: CommentRecord;
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  IntFilter: IntFilter;
  Mutation: {};
  PageInfo: PageInfo;
  Post: PostRecord;
  Query: {};
  String: Scalars['String']['output'];
  StringFilter: StringFilter;
  Todo: TodoRecord;
  TodoConnection: Omit<TodoConnection, 'edges'> & { edges: Array<ResolversParentTypes['TodoEdge']> };
  TodoEdge: Omit<TodoEdge, 'node'> & { node: ResolversParentTypes['Todo'] };
  TodoOrderBy: TodoOrderBy;
  TodoWhere: TodoWhere;
  User: UserRecord;
  UserConnection: Omit<UserConnection, 'edges'> & { edges: Array<ResolversParentTypes['UserEdge']> };
  UserEdge: Omit<UserEdge, 'node'> & { node: ResolversParentTypes['User'] };
  UserOrderBy: UserOrderBy;
  UserWhere: UserWhere;
}>;

export type RequiresScopesDirectiveArgs = {
  scopes: Array<Scalars['String']['input']>;
};

export type RequiresScopesDirectiveResolver<Result, Parent, ContextType = GraphQLContext, Args = RequiresScopesDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type StoredDirectiveArgs = {
  field: Scalars['String']['input'];
};

export type StoredDirectiveResolver<Result, Parent, ContextType = GraphQLContext, Args = StoredDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type BookResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Book'] = ResolversParentTypes['Book']> = ResolversObject<{
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  pages?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  title?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type BookConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['BookConnection'] = ResolversParentTypes['BookConnection']> = ResolversObject<{
  edges?: Resolver<Array<ResolversTypes['BookEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type BookEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['BookEdge'] = ResolversParentTypes['BookEdge']> = ResolversObject<{
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Book'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type CommentResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Comment'] = ResolversParentTypes['Comment']> = ResolversObject<{
  body?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type MutationResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = ResolversObject<{
  addTodo?: Resolver<ResolversTypes['Todo'], ParentType, ContextType, RequireFields<MutationAddTodoArgs, 'title'>>;
  createUser?: Resolver<ResolversTypes['User'], ParentType, ContextType, RequireFields<MutationCreateUserArgs, 'email' | 'name'>>;
}>;

export type PageInfoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = ResolversObject<{
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type PostResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Post'] = ResolversParentTypes['Post']> = ResolversObject<{
  body?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  comments?: Resolver<Array<ResolversTypes['Comment']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  title?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type QueryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = ResolversObject<{
  book?: Resolver<Maybe<ResolversTypes['Book']>, ParentType, ContextType, RequireFields<QueryBookArgs, 'id'>>;
  books?: Resolver<Array<ResolversTypes['Book']>, ParentType, ContextType, Partial<QueryBooksArgs>>;
  booksConnection?: Resolver<ResolversTypes['BookConnection'], ParentType, ContextType, Partial<QueryBooksConnectionArgs>>;
  todos?: Resolver<Array<ResolversTypes['Todo']>, ParentType, ContextType, Partial<QueryTodosArgs>>;
  todosConnection?: Resolver<ResolversTypes['TodoConnection'], ParentType, ContextType, Partial<QueryTodosConnectionArgs>>;
  user?: Resolver<Maybe<ResolversTypes['User']>, ParentType, ContextType, RequireFields<QueryUserArgs, 'id'>>;
  users?: Resolver<Array<ResolversTypes['User']>, ParentType, ContextType, Partial<QueryUsersArgs>>;
  usersConnection?: Resolver<ResolversTypes['UserConnection'], ParentType, ContextType, Partial<QueryUsersConnectionArgs>>;
}>;

export type TodoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Todo'] = ResolversParentTypes['Todo']> = ResolversObject<{
  done?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  title?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type TodoConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['TodoConnection'] = ResolversParentTypes['TodoConnection']> = ResolversObject<{
  edges?: Resolver<Array<ResolversTypes['TodoEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type TodoEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['TodoEdge'] = ResolversParentTypes['TodoEdge']> = ResolversObject<{
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Todo'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type UserResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['User'] = ResolversParentTypes['User']> = ResolversObject<{
  email?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  posts?: Resolver<Array<ResolversTypes['Post']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type UserConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['UserConnection'] = ResolversParentTypes['UserConnection']> = ResolversObject<{
  edges?: Resolver<Array<ResolversTypes['UserEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type UserEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['UserEdge'] = ResolversParentTypes['UserEdge']> = ResolversObject<{
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type Resolvers<ContextType = GraphQLContext> = ResolversObject<{
  Book?: BookResolvers<ContextType>;
  BookConnection?: BookConnectionResolvers<ContextType>;
  BookEdge?: BookEdgeResolvers<ContextType>;
  Comment?: CommentResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Post?: PostResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  Todo?: TodoResolvers<ContextType>;
  TodoConnection?: TodoConnectionResolvers<ContextType>;
  TodoEdge?: TodoEdgeResolvers<ContextType>;
  User?: UserResolvers<ContextType>;
  UserConnection?: UserConnectionResolvers<ContextType>;
  UserEdge?: UserEdgeResolvers<ContextType>;
}>;

export type DirectiveResolvers<ContextType = GraphQLContext> = ResolversObject<{
  requiresScopes?: RequiresScopesDirectiveResolver<any, any, ContextType>;
  stored?: StoredDirectiveResolver<any, any, ContextType>;
}>;
