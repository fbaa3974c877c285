import { makeApp, snapshot } from '../support/app';
import { expectTextError, ids } from '../support/rest-expect';

describe('GET /items (listItems)', () => {
  it('when called, then it returns every item in id order as JSON', async () => {
    const { http } = makeApp();
    const res = await http.get('/items').expect(200).expect('Content-Type', 'application/json; charset=utf-8');
    expect(res.body).toEqual([
      { id: 1, name: 'Hammer' },
      { id: 2, name: 'Tape measure' },
      { id: 3, name: 'Cordless drill' },
    ]);
  });

  it('when limit is not a number, then it answers 400 as one line of plain text', async () => {
    const { http } = makeApp();
    expect(expectTextError(await http.get('/items?limit=many'), 400)).toMatch(/limit/);
  });
});

describe('POST /items (createItem)', () => {
  it('when name is given, then 201 comes with the created item, the next id and a Location', async () => {
    const { http } = makeApp();
    const res = await http.post('/items').send({ name: 'Screwdriver' }).expect(201).expect('Content-Type', 'application/json; charset=utf-8');
    expect(res.body).toEqual({ id: 4, name: 'Screwdriver' });
    expect(res.headers.location).toBe('/items/4');
    expect(ids((await http.get('/items')).body)).toEqual([1, 2, 3, 4]);
  });

  it('when each POST follows another, then each id is one greater than the previous one', async () => {
    const { http } = makeApp();
    const a = (await http.post('/items').send({ name: 'a' }).expect(201)).body.id;
    const b = (await http.post('/items').send({ name: 'b' }).expect(201)).body.id;
    expect(b).toBe(a + 1);
  });

  it('when the body is not valid JSON, then it answers 400 as one line of plain text and stores nothing', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const text = expectTextError(await http.post('/items').set('Content-Type', 'application/json').send('{"name": "Saw"'), 400);
    expect(text).toBe('Invalid request: body is not valid JSON');
    expect(await snapshot(store)).toEqual(before);
  });

  it('when name is empty, missing or whitespace, then it answers 400 as plain text naming name', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    for (const body of [{ name: '' }, {}, { name: '  ' }]) {
      expect(expectTextError(await http.post('/items').send(body), 400)).toMatch(/name/);
    }
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the content type is not JSON, then it answers 415 as plain text', async () => {
    const { http } = makeApp();
    expectTextError(await http.post('/items').set('Content-Type', 'text/plain').send('Saw'), 415);
  });

  it('when the body is over the limit, then it answers 413 as plain text', async () => {
    const { http } = makeApp({ config: { bodyLimit: 64 } });
    expect(expectTextError(await http.post('/items').send({ name: 'x'.repeat(100) }), 413)).toBe('Request body is larger than 64 bytes');
  });
});

describe('GET /items/{id} (getItem)', () => {
  it('when the id exists, then it answers 200 with the item', async () => {
    const { http } = makeApp();
    await http.get('/items/3').expect(200, { id: 3, name: 'Cordless drill' });
  });

  it('when the id matches no item, then it answers 404 as one line of plain text', async () => {
    const { http } = makeApp();
    expect(expectTextError(await http.get('/items/42'), 404)).toBe('Item 42 not found');
  });

  it('when the id is not an integer, then it answers 400 as plain text', async () => {
    const { http } = makeApp();
    expect(expectTextError(await http.get('/items/abc'), 400)).toMatch(/id/);
  });
});

describe('DELETE /items/{id} (deleteItem)', () => {
  it('when the id exists, then it answers 204 and the item is gone', async () => {
    const { http } = makeApp();
    expect((await http.delete('/items/1').expect(204)).text).toBe('');
    expectTextError(await http.get('/items/1'), 404);
    expect(ids((await http.get('/items')).body)).toEqual([2, 3]);
  });

  it('when the id matches no item, then it answers 404 as plain text', async () => {
    const { http } = makeApp();
    expectTextError(await http.delete('/items/42'), 404);
  });
});

describe('PUT /items/{id} (no update)', () => {
  it('when PUT /items/1 is sent, then it answers 405 as plain text with Allow: GET, DELETE and changes nothing', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await http.put('/items/1').send({ name: 'Mallet' });
    expectTextError(res, 405);
    expect(res.headers.allow).toBe('GET, DELETE');
    expect(await snapshot(store)).toEqual(before);
  });

  it('when PUT or DELETE /items (the collection) is sent, then it answers 405 as plain text with Allow: GET, POST', async () => {
    const { http } = makeApp();
    for (const res of [await http.put('/items').send({ name: 'x' }), await http.delete('/items')]) {
      expectTextError(res, 405);
      expect(res.headers.allow).toBe('GET, POST');
    }
  });
});
