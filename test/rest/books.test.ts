import { makeApp, snapshot } from '../support/app';
import { expectJsonError, ids } from '../support/rest-expect';

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

describe('GET /books/{id} (getBook)', () => {
  it('when the id exists, then it answers 200 with the book', async () => {
    const { http } = makeApp();
    await http.get('/books/2').expect(200, { id: 2, title: 'Dune', pages: 412 });
  });

  it('when the id matches no book, then it answers 404 in the JSON error format', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await http.get('/books/42'), 404).error).toBe('Book 42 not found');
  });
});

describe('POST /books (createBook), more', () => {
  it('when pages is given, then the created book keeps it and appears in the list', async () => {
    const { http } = makeApp();
    await http.post('/books').send({ title: 'Emma', pages: 474 }).expect(201, { id: 6, title: 'Emma', pages: 474 });
    const list = await http.get('/books').expect(200);
    expect(list.body[list.body.length - 1]).toEqual({ id: 6, title: 'Emma', pages: 474 });
  });

  it('when the title is missing, then it answers 400 naming /body/title and stores nothing', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const body = expectJsonError(await http.post('/books').send({ pages: 3 }), 400);
    expect(body.details).toEqual([{ path: '/body/title', message: "must have required property 'title'" }]);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the title is empty, then it answers 400', async () => {
    const { http } = makeApp();
    expectJsonError(await http.post('/books').send({ title: '' }), 400);
  });

  it('when pages is negative or not an integer, then it answers 400 naming /body/pages', async () => {
    const { http } = makeApp();
    for (const pages of [-1, 1.5, '3']) {
      const body = expectJsonError(await http.post('/books').send({ title: 'Emma', pages }), 400);
      expect(body.details?.[0].path).toBe('/body/pages');
    }
  });
});

describe('PUT /books/{id} (updateBook)', () => {
  it('when title and pages are given, then it answers 200 with both replaced', async () => {
    const { http } = makeApp();
    await http.put('/books/1').send({ title: 'The Hobbit (annotated)', pages: 400 }).expect(200, { id: 1, title: 'The Hobbit (annotated)', pages: 400 });
    await http.get('/books/1').expect(200, { id: 1, title: 'The Hobbit (annotated)', pages: 400 });
  });

  it('when pages is absent, then the book keeps its current pages', async () => {
    const { http } = makeApp();
    await http.put('/books/1').send({ title: 'There and Back Again' }).expect(200, { id: 1, title: 'There and Back Again', pages: 310 });
  });

  it('when the title is missing, then it answers 400 and the book is unchanged', async () => {
    const { http } = makeApp();
    expectJsonError(await http.put('/books/1').send({ pages: 1 }), 400);
    await http.get('/books/1').expect(200, { id: 1, title: 'The Hobbit', pages: 310 });
  });

  it('when the id matches no book, then it answers 404 and creates nothing', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    expectJsonError(await http.put('/books/42').send({ title: 'Ghost' }), 404);
    expect(await snapshot(store)).toEqual(before);
  });
});

describe('DELETE /books/{id} (deleteBook)', () => {
  it('when the id exists, then it answers 204 with an empty body and the book is gone from GET and the list', async () => {
    const { http } = makeApp();
    const res = await http.delete('/books/2').expect(204);
    expect(res.text).toBe('');
    expectJsonError(await http.get('/books/2'), 404);
    expect(ids((await http.get('/books')).body)).toEqual([1, 3, 4, 5]);
  });

  it('when the id matches no book (or was already deleted), then it answers 404', async () => {
    const { http } = makeApp();
    await http.delete('/books/2').expect(204);
    expectJsonError(await http.delete('/books/2'), 404);
    expectJsonError(await http.delete('/books/42'), 404);
  });
});
