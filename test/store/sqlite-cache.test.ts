import { CommittedCache } from '../../src/store/sql/cache';

describe('CommittedCache (what a store on SQLite read of a collection, as committed)', () => {
  const post = (id: number, userId: number) => ({ id, userId, title: `Post ${id}` });

  it('when pages and children are kept past the bound, then the list kept longest goes first; a list longer than the bound is never kept', () => {
    const cache = new CommittedCache<ReturnType<typeof post>>(10, 4);
    cache.keepChildren(1, [post(1, 1), post(2, 1)]);
    cache.keepList('{}', [post(3, 2)]);
    cache.keepChildren(3, []);
    expect([cache.children(1)?.length, cache.list('{}')?.items.length, cache.children(3)?.length]).toEqual([2, 1, 0]);
    // Pages and children count in one bound, an empty list as one: 2 + 1 + 1 + 1 is over 4, so the children of 1 go.
    cache.keepChildren(4, []);
    expect([cache.children(1), cache.list('{}')?.items.length, cache.children(3), cache.children(4)]).toEqual([undefined, 1, [], []]);
    cache.keepChildren(5, [post(4, 5), post(5, 5), post(6, 5), post(7, 5), post(8, 5)]);
    expect(cache.children(5)).toBeUndefined();
    expect(cache.list('{}')?.items).toEqual([post(3, 2)]);
  });

  it('when a page is kept under a key that reads as a parent id, then the two are kept apart', () => {
    const cache = new CommittedCache<ReturnType<typeof post>>();
    cache.keepList('1', [post(9, 9)]);
    cache.keepChildren(1, [post(1, 1)]);
    expect([cache.list('1')?.items, cache.children(1)]).toEqual([[post(9, 9)], [post(1, 1)]]);
  });

  it('when records are kept past the bound, then the record kept longest goes first', () => {
    const cache = new CommittedCache<ReturnType<typeof post>>(2, 10);
    cache.keepRecord(post(1, 1));
    cache.keepRecord(post(2, 1));
    cache.keepRecord(post(3, 1));
    expect([cache.record(1), cache.record(2)?.id, cache.record(3)?.id]).toEqual([undefined, 2, 3]);
  });

  it('when records are kept far past the bound, some kept again and some written, then the ones kept last stay, in the order they were kept', () => {
    const cache = new CommittedCache<ReturnType<typeof post>>(3, 10);
    for (let id = 1; id <= 5000; id += 1) {
      cache.keepRecord(post(id, 1));
      if (id % 7 === 0) cache.written(id - 1);
    }
    expect([4997, 4998, 4999, 5000].map((id) => cache.record(id)?.id)).toEqual([undefined, 4998, 4999, 5000]);
    // Kept again, a record counts from then: 4998 is now the newest, so 4999 goes next.
    cache.keepRecord(post(4998, 1));
    cache.keepRecord(post(5001, 1));
    expect([4998, 4999, 5000, 5001].map((id) => cache.record(id)?.id)).toEqual([4998, undefined, 5000, 5001]);
    // A written record leaves room: nothing else goes for the next one.
    cache.written(5000);
    cache.keepRecord(post(5002, 1));
    expect([4998, 5000, 5001, 5002].map((id) => cache.record(id)?.id)).toEqual([4998, undefined, 5001, 5002]);
  });

  it('when a kept list is handed out, then it is the caller\'s own, its records cannot be changed, and what was kept with it comes back', () => {
    const cache = new CommittedCache<ReturnType<typeof post>>();
    const read = [post(1, 1)];
    cache.keepList('p0:10', read, { total: 1 });
    cache.keepChildren(1, read);
    read.push(post(2, 1));
    const first = cache.list<{ total: number }>('p0:10')!;
    first.items.push(post(3, 1));
    cache.children(1)!.push(post(3, 1));
    expect(cache.list('p0:10')).toEqual({ items: [post(1, 1)], extra: { total: 1 } });
    expect(cache.children(1)).toEqual([post(1, 1)]);
    expect(Object.isFrozen(cache.list('p0:10')!.items[0])).toBe(true);
  });

  it('when a write to a kept record is committed with the record as written, then that record is kept as written; a record not kept (a new one) is not kept by its write', () => {
    const cache = new CommittedCache<ReturnType<typeof post>>();
    cache.keepRecord(post(1, 1));
    cache.keepChildren(1, [post(1, 1)]);
    cache.written(1, { ...post(1, 1), title: 'Changed' });
    cache.written(2, post(2, 1));
    expect([cache.record(1), Object.isFrozen(cache.record(1)), cache.record(2), cache.children(1)]).toEqual([{ ...post(1, 1), title: 'Changed' }, true, undefined, undefined]);
  });

  it('when a write to a record is committed, then that record and every list go, other records stay', () => {
    const cache = new CommittedCache<ReturnType<typeof post>>();
    cache.keepRecord(post(1, 1));
    cache.keepRecord(post(2, 1));
    cache.keepChildren(1, [post(1, 1), post(2, 1)]);
    cache.keepList('p0:10', [post(1, 1)]);
    cache.written(1);
    expect([cache.record(1), cache.record(2)?.id, cache.children(1), cache.list('p0:10')]).toEqual([undefined, 2, undefined, undefined]);
  });
});
