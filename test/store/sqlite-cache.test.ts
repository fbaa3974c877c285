import { ChildrenCache } from '../../src/store/sqlite/cache';

describe('ChildrenCache (the SQLite store\'s children by parent)', () => {
  const post = (id: number, userId: number) => ({ id, userId, title: `Post ${id}` });

  it('when parents are kept past the cache size, then the parent kept longest goes first; a parent with more children than the size is never kept', () => {
    const cache = new ChildrenCache<ReturnType<typeof post>>(4);
    cache.keep(1, [post(1, 1), post(2, 1)]);
    cache.keep(2, [post(3, 2)]);
    cache.keep(3, []);
    expect([cache.get(1)?.length, cache.get(2)?.length, cache.get(3)?.length]).toEqual([2, 1, 0]);
    // A parent with no children counts as one: 2 + 1 + 1 + 1 is over 4, so parent 1 goes.
    cache.keep(4, []);
    expect([cache.get(1), cache.get(2)?.length, cache.get(3), cache.get(4)]).toEqual([undefined, 1, [], []]);
    cache.keep(5, [post(4, 5), post(5, 5), post(6, 5), post(7, 5), post(8, 5)]);
    expect(cache.get(5)).toBeUndefined();
    expect(cache.get(2)).toEqual([post(3, 2)]);
  });

  it('when a kept list is handed out, then it is the caller\'s own and its records cannot be changed', () => {
    const cache = new ChildrenCache<ReturnType<typeof post>>();
    const read = [post(1, 1)];
    cache.keep(1, read);
    read.push(post(2, 1));
    const first = cache.get(1)!;
    first.push(post(3, 1));
    expect(cache.get(1)).toEqual([post(1, 1)]);
    expect(Object.isFrozen(cache.get(1)![0])).toBe(true);
    cache.clear();
    expect(cache.get(1)).toBeUndefined();
  });
});
