import type { ResultBudget, ResultPath } from './large-answers';
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
  /** A user's posts; `at` is where they sit in the result (a resolver's `info.path`), named if the budget refuses them. */
  postsOf(user: UserRecord, at?: ResultPath): MaybePromise<PostRecord[]>;
  commentsOf(post: PostRecord, at?: ResultPath): MaybePromise<CommentRecord[]>;
}

type ByParent<C> = ReadonlyMap<number, C[]>;

/** A batch the result's budget refused: every parent's children are answered empty (the request answers the refusal). */
const REFUSED: ByParent<never> = new Map();

/** One `listByParents` call: the parents it was for, and the store's answer (ready, on its way, or failed). */
interface Batch<C> {
  readonly ids: readonly number[];
  /** `ids` as a set, made the first time a lookup misses the answer (a batch on its way, or failed). */
  members?: ReadonlySet<number>;
  byParent?: ByParent<C>;
  pending?: Promise<void>;
  failed?: { error: unknown };
}

/**
 * The children of one kind of parent, loaded a group at a time and kept for the request.
 *
 * Declaring a group costs one push per parent, and a lookup one map read: the store answers a batch
 * with every parent it was given as a key (ChildCollection), so its answer also says which parents
 * the batch was for. A lookup that finds nothing there loads the declared parents not loaded yet (its
 * group) in one call, and a parent in no group is a group of one. A batch is asked for once: every
 * member of one on its way waits for it, and every member of a failed one sees its error.
 */
class ChildrenLoader<C extends { id: number }, K extends keyof C> {
  /** Parents declared since the last batch was asked for: the next batch. */
  private declared: number[] = [];
  /** Whether `declared` holds more than one group, so maybe a parent twice (a list selected under two aliases). */
  private declaredTwice = false;
  /** The batches asked for, oldest first (one per group: usually one). */
  private readonly batches: Batch<C>[] = [];

  constructor(
    private readonly collection: ChildCollection<C, K>,
    /**
     * Called with each batch of loaded children (first asked for at `at`) before it is kept: whether the
     * result's budget admits them. A refused batch is kept as REFUSED.
     */
    private readonly onLoaded: (byParent: ByParent<C>, at: ResultPath | undefined) => boolean,
    /** Whether the result's budget has refused the result: then nothing more is read. */
    private readonly refused: () => boolean,
  ) {}

  /** Declares the parents in `lists` one group: the first lookup of any of them loads them all. */
  group(lists: Iterable<readonly { id: number }[]>): void {
    if (this.declared.length > 0) this.declaredTwice = true;
    for (const parents of lists) for (const { id } of parents) this.declared.push(id);
  }

  load(parentId: number, at?: ResultPath): MaybePromise<C[]> {
    const { batches } = this;
    for (let i = 0; i < batches.length; i++) {
      const children = batches[i].byParent?.get(parentId);
      if (children !== undefined) return children;
    }
    return this.loadMissing(parentId, at);
  }

  /** Not in a loaded batch: in one on its way or failed, else in the declared group, else alone. */
  private loadMissing(parentId: number, at: ResultPath | undefined): MaybePromise<C[]> {
    for (const batch of this.batches) {
      if (!(batch.members ??= new Set(batch.ids)).has(parentId)) continue;
      if (batch.byParent) return batch.byParent.get(parentId) ?? [];
      if (batch.failed) throw batch.failed.error;
      return batch.pending!.then(() => this.load(parentId));
    }
    if (this.refused()) return [];
    let ids = [parentId];
    if (this.declared.includes(parentId)) {
      ids = this.declaredTwice ? [...new Set(this.declared)] : this.declared;
      this.declared = [];
      this.declaredTwice = false;
    }
    this.fetch(ids, at);
    return this.load(parentId);
  }

  private fetch(ids: readonly number[], at: ResultPath | undefined): void {
    const batch: Batch<C> = { ids };
    this.batches.push(batch);
    // Counted first: children the result's budget refuses (too many records, no turn) are not kept.
    const loaded = (byParent: ByParent<C>): void => {
      if (this.onLoaded(byParent, at)) {
        batch.byParent = byParent;
        return;
      }
      batch.byParent = REFUSED;
    };
    const failed = (error: unknown): void => {
      batch.failed = { error };
    };
    try {
      const answer = this.collection.listByParents(ids);
      if (isPromise(answer)) batch.pending = answer.then(loaded, failed);
      else loaded(answer);
    } catch (error) {
      failed(error);
    }
  }
}

export function createLoaders(store: Store, budget: Pick<ResultBudget, 'take' | 'refusal'>): Loaders {
  const refused = () => budget.refusal !== undefined;
  const count = (byParent: ByParent<unknown>, at: ResultPath | undefined): boolean => {
    let loaded = 0;
    for (const children of byParent.values()) loaded += children.length;
    return budget.take(loaded, at);
  };
  const comments = new ChildrenLoader(store.comments, count, refused);
  // All the posts of one group of users are one group: their comments load in one call.
  const posts = new ChildrenLoader(store.posts, (byUser, at) => {
    if (!count(byUser, at)) return false;
    comments.group(byUser.values());
    return true;
  }, refused);
  return {
    users: (users) => {
      posts.group([users]);
      return users;
    },
    postsOf: (user, at) => posts.load(user.id, at),
    commentsOf: (post, at) => comments.load(post.id, at),
  };
}
