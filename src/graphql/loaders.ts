import { isPromise, type ChildCollection, type CommentRecord, type MaybePromise, type PostRecord, type Store, type UserRecord } from '../store/types';

/**
 * Per-request loading of the nested lists (`users { posts { comments } }`): one storage call per
 * group of sibling parents, whatever the fan-out, so a query costs a bounded number of calls.
 *
 * A group is known before any of its members is resolved: the resolver that returns a list of
 * parents declares it (`Query.users` declares the users), and the children loaded for one group are
 * in turn one group for the next level (all the posts of those users, for their comments). The first
 * lookup for any member loads the children of the whole group with one `listByParents`; its siblings
 * then find theirs ready. DataLoader collects the same ids by waiting a tick, which forces a promise
 * on every nested field; here, when the store answers synchronously (the memory store), so do the
 * nested resolvers, and graphql-js completes the tree without a promise per object. With an
 * asynchronous store (PostgreSQL) each member waits for its group's one call.
 */
export interface Loaders {
  /** Declares `users` one group (their posts load together) and returns them. */
  users(users: UserRecord[]): UserRecord[];
  postsOf(user: UserRecord): MaybePromise<PostRecord[]>;
  commentsOf(post: PostRecord): MaybePromise<CommentRecord[]>;
}

type ByParent<C> = Map<number, C[]>;
/** A group's children by parent id: ready, on the way, or the error loading them gave. */
type Batch<C> = ByParent<C> | Promise<ByParent<C>> | { failed: unknown };

/** The children of one kind of parent, loaded a group at a time and kept for the request. */
class ChildrenLoader<C extends { id: number }, K extends keyof C> {
  /** Parent id -> the batch that loaded (or is loading) its children. */
  private readonly batches = new Map<number, Batch<C>>();
  /** Parent id -> the ids of its group, for parents whose children are not loaded yet. */
  private readonly groups = new Map<number, readonly number[]>();

  constructor(
    private readonly collection: ChildCollection<C, K>,
    /** Called with each batch of loaded children: the next level's group. */
    private readonly onLoaded: (children: C[]) => void = () => undefined,
  ) {}

  group(parents: readonly { id: number }[]): void {
    const ids = parents.map((parent) => parent.id);
    for (const id of ids) if (!this.batches.has(id)) this.groups.set(id, ids);
  }

  load(parentId: number): MaybePromise<C[]> {
    let batch = this.batches.get(parentId);
    if (batch === undefined) {
      const ids = (this.groups.get(parentId) ?? [parentId]).filter((id) => !this.batches.has(id));
      batch = this.fetch(ids);
      for (const id of ids) {
        this.batches.set(id, batch);
        this.groups.delete(id);
      }
    }
    if (batch instanceof Map) return batch.get(parentId) ?? [];
    if ('failed' in batch) throw batch.failed;
    return batch.then((byParent) => byParent.get(parentId) ?? []);
  }

  private fetch(ids: number[]): Batch<C> {
    try {
      const loaded = this.collection.listByParents(ids);
      return isPromise(loaded) ? loaded.then((children) => this.byParent(ids, children)) : this.byParent(ids, loaded);
    } catch (failed) {
      return { failed };
    }
  }

  private byParent(ids: readonly number[], children: C[]): ByParent<C> {
    const byParent: ByParent<C> = new Map(ids.map((id) => [id, []]));
    const key = this.collection.parentKey;
    for (const child of children) byParent.get(child[key] as number)?.push(child);
    this.onLoaded(children);
    return byParent;
  }
}

export function createLoaders(store: Store): Loaders {
  const comments = new ChildrenLoader(store.comments);
  const posts = new ChildrenLoader(store.posts, (loaded) => comments.group(loaded));
  return {
    users: (users) => {
      posts.group(users);
      return users;
    },
    postsOf: (user) => posts.load(user.id),
    commentsOf: (post) => comments.load(post.id),
  };
}
