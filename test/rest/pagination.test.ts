import { emptySeed, loadSeed } from '../../src/store/seed';
import { makeApp } from '../support/app';
import { expectJsonError, expectTextError, ids } from '../support/rest-expect';

/** The target of one rel in an RFC 8288 Link header, e.g. rel="next". */
function linkTo(header: string | undefined, rel: string): string | undefined {
  for (const part of (header ?? '').split(/,\s*/)) {
    const match = /^<([^>]+)>;\s*rel="([^"]+)"$/.exec(part);
    if (match && match[2] === rel) return match[1];
  }
  return undefined;
}

describe('pagination on every list', () => {
  it.each(['/books', '/todos', '/notes', '/items', '/tasks'])(
    'when %s is listed without paging, then it returns the whole collection with X-Total-Count and no Link',
    async (path) => {
      const { http } = makeApp();
      const res = await http.get(path).expect(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.headers['x-total-count']).toBe(String(res.body.length));
      expect(res.headers.link).toBeUndefined();
    },
  );

  it.each(['/books', '/todos', '/notes', '/items', '/tasks'])('when %s is listed with limit=1&offset=1, then it returns the second record as an array', async (path) => {
    const { http } = makeApp();
    const res = await http.get(`${path}?limit=1&offset=1`).expect(200);
    expect(ids(res.body)).toEqual([2]);
    expect(linkTo(res.headers.link, 'next')).toBe(`${path}?limit=1&offset=2`);
    expect(linkTo(res.headers.link, 'prev')).toBe(`${path}?limit=1&offset=0`);
  });
});

describe('pages and links', () => {
  it('when only limit is given, then the first page is a cursor page: its next link carries after, and it has no prev link', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?limit=2').expect(200);
    expect(ids(res.body)).toEqual([1, 2]);
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers.link).toMatch(/^<\/books\?limit=2&after=[\w.-]+>; rel="next"$/);
  });

  it('when limit=2&offset=0 is given, then the first page is an offset page with an offset next link', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?limit=2&offset=0').expect(200);
    expect(res.headers.link).toBe('</books?limit=2&offset=2>; rel="next"');
  });

  it('when the last page is asked, then it has a prev link and no next link', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?limit=2&offset=4').expect(200);
    expect(ids(res.body)).toEqual([5]);
    expect(res.headers.link).toBe('</books?limit=2&offset=2>; rel="prev"');
  });

  it('when next links are followed from the first page, then every record is seen once, in id order', async () => {
    const { http } = makeApp();
    const seen: number[] = [];
    let next: string | undefined = '/books?limit=2';
    while (next) {
      const res = await http.get(next).expect(200);
      seen.push(...ids(res.body));
      next = linkTo(res.headers.link, 'next');
    }
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('when only offset is given, then it returns the rest of the collection from there', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?offset=3').expect(200);
    expect(ids(res.body)).toEqual([4, 5]);
    expect(linkTo(res.headers.link, 'next')).toBeUndefined();
    expect(linkTo(res.headers.link, 'prev')).toBeDefined();
  });

  it('when a page starts before a full page of records, then its prev link covers only the records before it (no overlap)', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?offset=1').expect(200);
    expect(ids(res.body)).toEqual([2, 3, 4, 5]);
    expect(res.headers.link).toBe('</books?limit=1&offset=0>; rel="prev"');
    const withLimit = await http.get('/books?limit=3&offset=2').expect(200);
    expect(withLimit.headers.link).toBe('</books?limit=2&offset=0>; rel="prev"');
  });

  it('when offset is past the end, then it returns an empty array whose prev link leads to the last page', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?limit=2&offset=50').expect(200, []);
    expect(res.headers['x-total-count']).toBe('5');
    const prev = linkTo(res.headers.link, 'prev');
    expect(prev).toBe('/books?limit=2&offset=3');
    expect(ids((await http.get(prev!).expect(200)).body)).toEqual([4, 5]);
  });

  it('when the collection is empty, then a page is an empty array with X-Total-Count 0', async () => {
    const { http } = makeApp({ seed: emptySeed() });
    const res = await http.get('/tasks?limit=10').expect(200, []);
    expect(res.headers['x-total-count']).toBe('0');
    expect(res.headers.link).toBeUndefined();
  });

  it('when limit is 1000, then it is accepted and returns everything there is', async () => {
    const { http } = makeApp({ seed: loadSeed('default') });
    expect(ids((await http.get('/books?limit=1000').expect(200)).body)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('bad paging parameters', () => {
  it.each(['limit=0', 'limit=1001', 'limit=-1', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x', 'offset=1e309', 'limit=1e309', 'offset=-1e309', 'limit=1&limit=2', 'page=2'])(
    'when %s is given, then it answers 400 naming the parameter (JSON for books, text for items)',
    async (query) => {
      const { http } = makeApp();
      const body = expectJsonError(await http.get(`/books?${query}`), 400);
      expect(body.details?.[0].path).toMatch(/^\/query\/(limit|offset|page)$/);
      expectTextError(await http.get(`/items?${query}`), 400);
    },
  );
});
