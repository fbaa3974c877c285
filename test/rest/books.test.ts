import { makeApp, snapshot } from '../support/app';

describe('GET /books (listBooks)', () => {
  it('when called without paging, then it returns every book in id order with X-Total-Count', async () => {
    const { http } = makeApp();
    const res = await http.get('/books').expect(200).expect('Content-Type', /application\/json/);
    expect(res.body.map((b: { id: number }) => b.id)).toEqual([1, 2, 3, 4, 5]);
    expect(res.body[0]).toEqual({ id: 1, title: 'The Hobbit', pages: 310 });
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers.link).toBeUndefined();
  });

  it('when limit and offset are given, then it returns that page as an array with next/prev links', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?limit=2&offset=2').expect(200);
    expect(res.body.map((b: { id: number }) => b.id)).toEqual([3, 4]);
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers.link).toBe('</books?limit=2&offset=4>; rel="next", </books?limit=2&offset=0>; rel="prev"');
  });

  it('when limit is out of range, then it answers 400 in the JSON error format', async () => {
    const { http } = makeApp();
    const res = await http.get('/books?limit=1001').expect(400).expect('Content-Type', /application\/json/);
    expect(res.body.error).toMatch(/limit/);
  });
});

describe('POST /books (createBook)', () => {
  it('when the title is given, then it answers 201 with the next id, pages 0 and a Location', async () => {
    const { http } = makeApp();
    const res = await http.post('/books').send({ title: 'Emma' }).expect(201);
    expect(res.body).toEqual({ id: 6, title: 'Emma', pages: 0 });
    expect(res.headers.location).toBe('/books/6');
    await http.get('/books/6').expect(200, { id: 6, title: 'Emma', pages: 0 });
  });

  it('when the title is whitespace only, then it answers 400 and stores nothing', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await http.post('/books').send({ title: '   ' }).expect(400);
    expect(res.body.details[0].path).toBe('/body/title');
    expect(await snapshot(store)).toEqual(before);
  });
});
