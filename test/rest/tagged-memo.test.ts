import { etagOf, listEtag, tagged, taggedMemo } from '../../src/rest/registrar';

describe("taggedMemo (the registrar's record bodies and entity tags)", () => {
  it('when a frozen flat record is tagged, then its text is its JSON, its tag the hash of that text, and a second answer is served from the memo', () => {
    const tag = taggedMemo();
    const record = Object.freeze({ id: 1, title: 'The Hobbit', pages: 310 });
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const first = tag(record);
      expect(stringify).toHaveBeenCalledTimes(1);
      expect(first).toEqual({ text: '{"id":1,"title":"The Hobbit","pages":310}', etag: etagOf({ id: 1, title: 'The Hobbit', pages: 310 }) });
      stringify.mockClear();
      expect(tag(record)).toBe(first);
      // Served from the memo: the record was not serialised again, neither for its tag nor for its body.
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
  });

  it('when a body is not frozen, or holds an object, then it is serialised anew each time, so a change shows in its text and tag', () => {
    const tag = taggedMemo();
    const open = { id: 1, title: 'Draft' };
    const before = tag(open);
    open.title = 'Final';
    expect(tag(open)).toEqual(tagged({ id: 1, title: 'Final' }));
    expect(tag(open).etag).not.toBe(before.etag);

    const inner = { title: 'Draft' };
    const nested = Object.freeze({ id: 2, inner });
    const nestedBefore = tag(nested);
    inner.title = 'Final';
    expect(tag(nested).text).toBe('{"id":2,"inner":{"title":"Final"}}');
    expect(tag(nested).etag).not.toBe(nestedBefore.etag);
  });

  it('when two apps tag, then each keeps its own memo, and equal content gets equal tags across them', () => {
    const record = Object.freeze({ id: 3, title: 'Dune', pages: 412 });
    expect(taggedMemo()(record)).toEqual(taggedMemo()(Object.freeze({ ...record })));
  });
});

describe("listEtag (a list's entity tag, without its body)", () => {
  it('when the version, the page, the operation or the representation differ, then the tag differs; the same inputs give the same strong tag', () => {
    const tag = listEtag('r1', 'listBooks', 'v1', { limit: 2, offset: 0 });
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(listEtag('r1', 'listBooks', 'v1', { limit: 2, offset: 0 })).toBe(tag);
    const others = [
      listEtag('r2', 'listBooks', 'v1', { limit: 2, offset: 0 }),
      listEtag('r1', 'listNotes', 'v1', { limit: 2, offset: 0 }),
      listEtag('r1', 'listBooks', 'v2', { limit: 2, offset: 0 }),
      listEtag('r1', 'listBooks', 'v1', { limit: 3, offset: 0 }),
      listEtag('r1', 'listBooks', 'v1', { limit: 2, offset: 1 }),
      listEtag('r1', 'listBooks', 'v1', {}),
    ];
    expect(new Set([tag, ...others]).size).toBe(others.length + 1);
  });
});
