import type { Response } from 'supertest';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { hs256, token } from '../auth/support';
import { makeApp } from '../support/app';
import { expectJsonError, expectTextError } from '../support/rest-expect';

/** docs/contract.md §7: lists as clients query them, over REST. */

const ids = (res: Response) => (res.body as { id: number }[]).map((r) => r.id);
/** The target of a Link relation, or undefined. */
const linkTo = (res: Response, rel: string) => new RegExp(`<([^>]+)>; rel="${rel}"`).exec(String(res.headers.link ?? ''))?.[1];

describe('GET /books with filters', () => {
  it('when pages[gte]=310 is given, then only those books answer, in id order, and X-Total-Count counts them', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?pages[gte]=310').expect(200);
    expect(ids(res)).toEqual([1, 2, 5]);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.headers.link).toBeUndefined();
  });

  it('when filters are combined, then a book must meet all of them; brackets may be percent-encoded', async () => {
    const { http } = makeApp();
    expect(ids(await http.get('/books?pages[gt]=300&pages%5Blt%5D=320&title[ne]=The%20Hobbit').expect(200))).toEqual([3]);
  });

  it('when title[contains] or title[startsWith] is given, then case is ignored', async () => {
    const { http } = makeApp();
    expect(ids(await http.get('/books?title[contains]=DARK').expect(200))).toEqual([3]);
    expect(ids(await http.get('/books?title[startsWith]=the%20').expect(200))).toEqual([1, 3]);
  });

  it('when title[in] lists values, comma-separated, then the books with one of them answer', async () => {
    const { http } = makeApp();
    expect(ids(await http.get('/books?title[in]=Dune,Beloved,Nope').expect(200))).toEqual([2, 5]);
    expect(ids(await http.get('/books?pages[in]=271,324').expect(200))).toEqual([4, 5]);
  });

  it('when a boolean is filtered (done=false), then the value is read as a boolean', async () => {
    const { http } = makeApp();
    expect(ids(await http.get('/todos?done=false').expect(200))).toEqual([1, 3]);
    expect(ids(await http.get('/tasks?done[ne]=false').expect(200))).toEqual([2]);
  });

  it('when nothing meets the filters, then the answer is an empty array with X-Total-Count 0', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?pages[gt]=10000&limit=2').expect(200);
    expect([res.body, res.headers['x-total-count'], res.headers.link]).toEqual([[], '0', undefined]);
  });
});

describe('GET /books with sort', () => {
  it('when sort=-pages is given, then the books come largest first', async () => {
    const { http } = makeApp();
    expect(ids(await http.get('/books?sort=-pages').expect(200))).toEqual([2, 5, 1, 3, 4]);
  });

  it('when sort=title is given, then text sorts by code point (upper case before lower case), ties by id', async () => {
    const { http } = makeApp();
    await http.post('/books').send({ title: 'dune', pages: 1 }).expect(201);
    await http.post('/books').send({ title: 'Dune', pages: 2 }).expect(201);
    expect(ids(await http.get('/books?sort=title').expect(200))).toEqual([5, 2, 7, 4, 1, 3, 6]);
  });

  it('when sort=-pages,title is given with a filter and a page, then all three apply', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?pages[lt]=400&sort=-pages,title&limit=2&offset=1').expect(200);
    expect(ids(res)).toEqual([1, 3]);
    expect(res.headers['x-total-count']).toBe('4');
  });
});

describe('cursor pages', () => {
  it('when the next links of a filtered, sorted list are followed, then every book is seen once, in order, the links keep the filters and sort', async () => {
    const { http } = makeApp();
    const seen: number[] = [];
    let next: string | undefined = '/books?pages[gte]=280&sort=-pages&limit=2';
    const totals: (string | undefined)[] = [];
    while (next) {
      const res: Response = await http.get(next).expect(200);
      seen.push(...ids(res));
      totals.push(res.headers['x-total-count']);
      next = linkTo(res, 'next');
      if (next) expect(next).toMatch(/^\/books\?pages%5Bgte%5D=280&sort=-pages&limit=2&after=[\w.-]+$/);
      expect(linkTo(res, 'prev')).toBeUndefined();
    }
    expect(seen).toEqual([2, 5, 1, 3]);
    expect(totals).toEqual(['4', undefined]);
  });

  it('when books are created and deleted while a client follows the links, then it sees each book present throughout exactly once', async () => {
    const { http } = makeApp();
    const seen: number[] = [];
    let next: string | undefined = '/books?sort=pages&limit=2';
    let round = 0;
    while (next) {
      const res: Response = await http.get(next).expect(200);
      seen.push(...ids(res));
      next = linkTo(res, 'next');
      round += 1;
      await http.post('/books').send({ title: `Round ${round}`, pages: 300 + round }).expect(201);
      if (round === 1) await http.delete('/books/2').expect(204);
    }
    for (const id of [1, 3, 4, 5]) expect(seen.filter((x) => x === id)).toHaveLength(1);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('when after is changed, cut, or from another list or sort, then the answer is a 400 naming after, in the family format', async () => {
    const { http } = makeApp();
    const next = linkTo(await http.get('/books?sort=-pages&limit=2').expect(200), 'next')!;
    const cursor = new URL(next, 'http://x').searchParams.get('after')!;
    const changed = `${cursor.slice(0, 4)}${cursor[4] === 'a' ? 'b' : 'a'}${cursor.slice(5)}`;
    for (const path of [`/books?sort=-pages&limit=2&after=${changed}`, `/books?sort=-pages&limit=2&after=${cursor.slice(0, -2)}`, `/books?sort=pages&limit=2&after=${cursor}`, `/tasks?limit=2&after=${cursor}`]) {
      const error = expectJsonError(await http.get(path), 400);
      expect(error.details?.[0].path).toBe('/query/after');
    }
    const items = linkTo(await http.get('/items?limit=1').expect(200), 'next')!;
    expect(expectTextError(await http.get(`${items.replace(/after=\w/, 'after=_')}`), 400)).toMatch(/after/);
    expect(expectJsonError(await http.get(`/books?limit=2&offset=2&after=${cursor}`), 400).error).toMatch(/after/);
  });
});

describe('offset pages keep the filters and sort in their links', () => {
  it('when a filtered, sorted list is paged by offset, then next and prev keep the filters and the sort', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?pages[lt]=400&sort=title&limit=1&offset=1').expect(200);
    expect(linkTo(res, 'next')).toBe('/books?pages%5Blt%5D=400&sort=title&limit=1&offset=2');
    expect(linkTo(res, 'prev')).toBe('/books?pages%5Blt%5D=400&sort=title&limit=1&offset=0');
  });
});

describe('ETag of a list', () => {
  it('when a page is read again, then it is the same text and tag; once a book in it is changed or deleted, the page and its tag show that', async () => {
    const { http } = makeApp();
    const first = await http.get('/books?limit=3&sort=-pages').expect(200);
    expect(ids(first)).toEqual([2, 5, 1]);
    const again = await http.get('/books?limit=3&sort=-pages').expect(200);
    expect(again.text).toBe(first.text);
    expect(again.text).toBe(JSON.stringify(first.body));
    expect(again.headers.etag).toBe(first.headers.etag);
    await http.put('/books/5').send({ title: 'Beloved, revised', pages: 324 }).expect(200);
    const changed = await http.get('/books?limit=3&sort=-pages').expect(200);
    expect((changed.body as { title: string }[])[1].title).toBe('Beloved, revised');
    expect(changed.text).toBe(JSON.stringify(changed.body));
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    await http.get('/books?limit=3&sort=-pages').set('If-None-Match', String(first.headers.etag)).expect(200);
    await http.delete('/books/2').expect(204);
    expect(ids(await http.get('/books?limit=3&sort=-pages').expect(200))).toEqual([5, 1, 3]);
  });

  it('when two lists differ only by a filter or a sort, then their tags differ, and each answers 304 to its own tag only', async () => {
    const { http } = makeApp();
    const a = (await http.get('/books?pages[gte]=300').expect(200)).headers.etag;
    const b = (await http.get('/books?pages[gte]=310').expect(200)).headers.etag;
    const c = (await http.get('/books?pages[gte]=300&sort=-pages').expect(200)).headers.etag;
    expect(new Set([a, b, c]).size).toBe(3);
    await http.get('/books?pages[gte]=300').set('If-None-Match', a).expect(304);
    await http.get('/books?pages[gte]=310').set('If-None-Match', a).expect(200);
  });
});

describe('bad list queries', () => {
  it.each([
    ['an undeclared field', '/books?isbn=1', '/query/isbn'],
    ['an unknown operator', '/books?pages[like]=3', '/query/pages[like]'],
    ['an operator the field does not take', '/books?pages[contains]=3', '/query/pages[contains]'],
    ['a value of the wrong type', '/books?pages[gte]=many', '/query/pages[gte]'],
    ['a sort key that is not sortable', '/books?sort=id', '/query/sort/0'],
    ['an empty in list', '/books?title[in]=', '/query/title[in]'],
  ])('when %s is given, then the answer is a 400 naming it, and nothing is read', async (_, path, named) => {
    const { http } = makeApp();
    expect(expectJsonError(await http.get(path), 400).details?.[0].path).toBe(named);
  });

  it('when an items list gets a bad filter, then the 400 is plain text naming it', async () => {
    const { http } = makeApp();
    expect(expectTextError(await http.get('/items?name[gt]=a&colour=red'), 400)).toMatch(/colour/);
  });
});

describe('query limits (QUERY_MAX_IN_VALUES, QUERY_MAX_FILTERS)', () => {
  it('when an in list or the filters are over their limits, then the answer is a 400 naming the limit', async () => {
    const store = createMemoryStore(loadSeed('default'), undefined, { inValues: 2, filters: 2 });
    const { http } = makeApp({ store });
    expect(ids(await http.get('/books?pages[in]=310,412').expect(200))).toEqual([1, 2]);
    expect(expectJsonError(await http.get('/books?pages[in]=310,412,304'), 400).error).toMatch(/QUERY_MAX_IN_VALUES/);
    expect(expectJsonError(await http.get('/books?pages[gt]=1&pages[lt]=1000&title[ne]=x'), 400).error).toMatch(/QUERY_MAX_FILTERS/);
  });
});

describe('a list under its read scope (AUTH_READS=token)', () => {
  it('when a filtered list is asked without a token, or with another scope, then it is refused; with books:read it answers', async () => {
    const { http } = makeApp({ config: { auth: hs256({ AUTH_READS: 'token' }) } });
    await http.get('/books?pages[gte]=310&sort=-pages').expect(401);
    await http.get('/books?pages[gte]=310&sort=-pages').set('Authorization', `Bearer ${await token('todos:read')}`).expect(403);
    const res = await http.get('/books?pages[gte]=310&sort=-pages&limit=2').set('Authorization', `Bearer ${await token('books:read')}`).expect(200);
    expect(ids(res)).toEqual([2, 5]);
  });
});
