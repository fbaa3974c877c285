import { etagOf, listEtag, tagged, taggedMemo } from '../../src/rest/registrar';

describe("taggedMemo (the registrar's record bodies and entity tags)", () => {
  it('when a frozen flat record is tagged, then its text is its JSON, its tag the hash of that text, and a second answer is served from the memo', () => {
    const { tag } = taggedMemo();
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
    const { tag } = taggedMemo();
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
    expect(taggedMemo().tag(record)).toEqual(taggedMemo().tag(Object.freeze({ ...record })));
  });
});

describe("taggedMemo's list (a list written whole, from its records' remembered texts)", () => {
  const book = (id: number, title: string) => Object.freeze({ id, title, pages: 100 + id });

  it('when a list of frozen flat records is written, then its text is JSON.stringify\'s, and written again it serialises none of them', () => {
    const { list, tag } = taggedMemo();
    const items = [book(1, 'The Hobbit'), book(2, 'Dune "II"'), book(3, 'Ωmega\u2028')];
    expect(list(items)).toBe(JSON.stringify(items));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const expected = { text: JSON.stringify([items[2], items[0]]), tag: tagged({ id: 2, title: 'Dune "II"', pages: 102 }) };
      stringify.mockClear();
      expect(list([items[2], items[0]])).toBe(expected.text);
      // A record's text, kept by the list, also makes its tag when it is answered alone.
      const alone = tag(items[1]);
      expect(stringify).not.toHaveBeenCalled();
      expect(alone).toEqual(expected.tag);
    } finally {
      stringify.mockRestore();
    }
  });

  it('when a list holds other values among its records, then each is written as JSON.stringify writes it in an array, and an open one as it is now', () => {
    const { list } = taggedMemo();
    const open = { id: 9, title: 'Draft' };
    const mixed = [book(1, 'A'), open, undefined, null, 7, 'text', () => 1, Object.freeze({ id: 2, inner: { a: 1 } })];
    expect(list(mixed)).toBe(JSON.stringify(mixed));
    open.title = 'Final';
    expect(list(mixed)).toBe(JSON.stringify(mixed));
    expect(list(mixed)).toContain('"title":"Final"');
  });

  it('when a list is empty, or its first item is not a frozen flat record, then its text is still JSON.stringify\'s', () => {
    const { list } = taggedMemo();
    expect(list([])).toBe('[]');
    const open = [{ id: 1, title: 'A' }, book(2, 'B')];
    expect(list(open)).toBe(JSON.stringify(open));
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
