import DataLoader from 'dataloader';
import type { ChildCollection, CommentRecord, PostRecord, Store } from '../store/types';

/** Per-request batch loaders for the nested lists: one storage call per level, whatever the fan-out. */
export interface Loaders {
  postsByUser: DataLoader<number, PostRecord[]>;
  commentsByPost: DataLoader<number, CommentRecord[]>;
}

/** Loads the children of many parents with one `listByParents` call and hands each parent its own, in id order. */
function childrenLoader<T extends { id: number }, K extends keyof T>(collection: ChildCollection<T, K>): DataLoader<number, T[]> {
  return new DataLoader<number, T[]>(async (parentIds) => {
    const byParent = new Map<number, T[]>(parentIds.map((id) => [id, []]));
    for (const record of await collection.listByParents(parentIds)) {
      byParent.get(record[collection.parentKey] as number)?.push(record);
    }
    return parentIds.map((id) => byParent.get(id) ?? []);
  });
}

export function createLoaders(store: Store): Loaders {
  return {
    postsByUser: childrenLoader(store.posts),
    commentsByPost: childrenLoader(store.comments),
  };
}
