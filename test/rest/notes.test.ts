import { loadOpenApi } from '../../src/spec';
import { makeApp, snapshot } from '../support/app';
import { expectJsonError, ids } from '../support/rest-expect';

describe('GET /notes (listNotes)', () => {
  it('when called, then it returns the seeded notes in id order, each with text equal to body', async () => {
    const { http } = makeApp();
    const res = await http.get('/notes').expect(200);
    expect(ids(res.body)).toEqual([1, 2, 3]);
    for (const note of res.body) expect(note.text).toBe(note.body);
    expect(res.body[0]).toEqual({ id: 1, body: 'Call the plumber about the kitchen sink', text: 'Call the plumber about the kitchen sink' });
  });

  it('when limit is zero, then it answers 400 in the JSON error format', async () => {
    const { http } = makeApp();
    expectJsonError(await http.get('/notes?limit=0'), 400);
  });
});

describe('notes: text is the deprecated alias of body', () => {
  it('when openapi.yaml is read, then Note.text is marked deprecated and read-only', () => {
    const note = (loadOpenApi().components as any).schemas.Note;
    expect(note.properties.text).toMatchObject({ deprecated: true, readOnly: true });
    expect(note.properties.body.deprecated).toBeUndefined();
  });

  it('when a note is updated, then text follows the new body', async () => {
    const { http } = makeApp();
    await http.put('/notes/2').send({ body: 'Meeting moved to Friday' }).expect(200, { id: 2, body: 'Meeting moved to Friday', text: 'Meeting moved to Friday' });
    await http.get('/notes/2').expect(200, { id: 2, body: 'Meeting moved to Friday', text: 'Meeting moved to Friday' });
  });

  it('when text is sent in a PUT body, then it answers 400 (read-only) and the note is unchanged', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const body = expectJsonError(await http.put('/notes/1').send({ body: 'a', text: 'b' }), 400);
    expect(body.details?.map((d) => d.path)).toContain('/body/text');
    expect(await snapshot(store)).toEqual(before);
  });
});

describe('POST /notes (no create)', () => {
  it('when POST /notes is sent, then it answers 405 with Allow: GET and stores nothing', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await http.post('/notes').send({ body: 'New' });
    expectJsonError(res, 405);
    expect(res.headers.allow).toBe('GET');
    expect(await snapshot(store)).toEqual(before);
  });
});

describe('GET /notes/{id} (getNote)', () => {
  it('when the id exists, then it answers 200 with the note', async () => {
    const { http } = makeApp();
    await http.get('/notes/3').expect(200, { id: 3, body: 'Wi-Fi password is on the fridge', text: 'Wi-Fi password is on the fridge' });
  });

  it('when the id matches no note, then it answers 404 in the JSON error format', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await http.get('/notes/9'), 404).error).toBe('Note 9 not found');
  });
});

describe('PUT /notes/{id} (updateNote)', () => {
  it('when body is missing or blank, then it answers 400', async () => {
    const { http } = makeApp();
    expectJsonError(await http.put('/notes/1').send({}), 400);
    expectJsonError(await http.put('/notes/1').send({ body: '   ' }), 400);
  });

  it('when the id matches no note, then it answers 404', async () => {
    const { http } = makeApp();
    expectJsonError(await http.put('/notes/9').send({ body: 'x' }), 404);
  });
});

describe('DELETE /notes/{id} (deleteNote)', () => {
  it('when the id exists, then it answers 204 and the note is gone from GET and the list', async () => {
    const { http } = makeApp();
    expect((await http.delete('/notes/1').expect(204)).text).toBe('');
    expectJsonError(await http.get('/notes/1'), 404);
    expect(ids((await http.get('/notes')).body)).toEqual([2, 3]);
  });

  it('when the id matches no note, then it answers 404', async () => {
    const { http } = makeApp();
    expectJsonError(await http.delete('/notes/9'), 404);
  });
});
