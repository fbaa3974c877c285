import { StorageUnavailableError } from '../../src/store/errors';
import type { Store } from '../../src/store/types';

/** A store whose every call fails as unreachable storage does. */
export function unreachable(store: Store): Store {
  const fail = async () => {
    throw new StorageUnavailableError('Storage is unreachable', { cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
  };
  const collection = { list: fail, get: fail, create: fail, update: fail, delete: fail, listByParents: fail };
  const names = ['books', 'todos', 'notes', 'items', 'tasks', 'users', 'posts', 'comments'] as const;
  return { ...store, ...Object.fromEntries(names.map((n) => [n, { ...collection, parentKey: 'id' }])), ping: fail } as unknown as Store;
}
