import { etagMemo, etagOf } from '../../src/rest/conditional';

describe('etagMemo (the registrar\'s entity tags)', () => {
  it('when a frozen flat record is tagged, then its tag is etagOf\'s and the same object is served from the memo', () => {
    const tagOf = etagMemo();
    const record = Object.freeze({ id: 1, title: 'The Hobbit', pages: 310 });
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      expect(tagOf(record)).toBe(etagOf({ id: 1, title: 'The Hobbit', pages: 310 }));
      stringify.mockClear();
      expect(tagOf(record)).toBe(etagOf(record));
      // The memo answered the first of those two calls: only etagOf's own call serialised.
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('when a body is not frozen, or holds an object, then it is tagged anew each time, so a change shows in its tag', () => {
    const tagOf = etagMemo();
    const open = { id: 1, title: 'Draft' };
    const before = tagOf(open);
    open.title = 'Final';
    expect(tagOf(open)).not.toBe(before);
    expect(tagOf(open)).toBe(etagOf({ id: 1, title: 'Final' }));

    const inner = { title: 'Draft' };
    const nested = Object.freeze({ id: 2, inner });
    const nestedBefore = tagOf(nested);
    inner.title = 'Final';
    expect(tagOf(nested)).not.toBe(nestedBefore);

    const list = Object.freeze([Object.freeze({ id: 1 })]);
    expect(tagOf(list)).toBe(etagOf([{ id: 1 }]));
  });

  it('when two apps tag, then each keeps its own memo, and equal content gets equal tags across them', () => {
    const record = Object.freeze({ id: 3, title: 'Dune', pages: 412 });
    expect(etagMemo()(record)).toBe(etagMemo()(Object.freeze({ ...record })));
  });
});
