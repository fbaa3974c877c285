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

type ByParent<C> = ReadonlyMap<number, C[]>;
/** A group's children by parent id: ready, on the way, or the error loading them gave. */
type Batch<C> = ByParent<C> | Promise<ByParent<C>> | { failed: unknown };

/** Sibling parents whose children load together: their ids, and the batch once it was asked for. */
interface Group<C> {
  readonly ids: number[];
  batch?: Batch<C>;
}

/**
 * The children of one kind of parent, loaded a group at a time and kept for the request. A parent
 * costs one map write (its group, when declared) and one read per lookup; the store hands the
 * children back already grouped by parent, so nothing is regrouped or copied here.
 */
class ChildrenLoader<C extends { id: number }, K extends keyof C> {
  /** Parent id -> the group it was declared in (the first one), which holds its batch once loaded. */
  private readonly groups = new Map<number, Group<C>>();

  constructor(
    private readonly collection: ChildCollection<C, K>,
    /** Called with each batch of loaded children: the next level's group. */
    private readonly onLoaded: (byParent: ByParent<C>) => void = () => undefined,
  ) {}

  /** Declares one group of the parents in `lists` that are not in a group yet. */
  group(lists: Iterable<readonly { id: number }[]>): void {
    const group: Group<C> = { ids: [] };
    for (const parents of lists) {
      for (const { id } of parents) {
        if (this.groups.has(id)) continue;
        this.groups.set(id, group);
        group.ids.push(id);
      }
    }
  }

  load(parentId: number): MaybePromise<C[]> {
    let group = this.groups.get(parentId);
    if (group === undefined) this.groups.set(parentId, (group = { ids: [parentId] }));
    const batch = (group.batch ??= this.fetch(group.ids));
    if (isPromise(batch)) return batch.then((byParent) => byParent.get(parentId) ?? []);
    if ('failed' in batch) throw batch.failed;
    return batch.get(parentId) ?? [];
  }

  private fetch(ids: readonly number[]): Batch<C> {
    try {
      const loaded = this.collection.listByParents(ids);
      return isPromise(loaded) ? loaded.then((byParent) => this.loaded(byParent)) : this.loaded(loaded);
    } catch (failed) {
      return { failed };
    }
  }

  private loaded(byParent: ByParent<C>): ByParent<C> {
    this.onLoaded(byParent);
    return byParent;
  }
}

export function createLoaders(store: Store): Loaders {
  const comments = new ChildrenLoader(store.comments);
  // All the posts of one group of users are one group: their comments load in one call.
  const posts = new ChildrenLoader(store.posts, (byUser) => comments.group(byUser.values()));
  return {
    users: (users) => {
      posts.group([users]);
      return users;
    },
    postsOf: (user) => posts.load(user.id),
    commentsOf: (post) => comments.load(post.id),
  };
}
