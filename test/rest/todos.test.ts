import { makeApp, snapshot } from '../support/app';
import { expectJsonError, ids } from '../support/rest-expect';
import { TEXT_RULE } from '../../src/text-rule';

describe('GET /todos (listTodos)', () => {
  it('when called, then it returns every todo as {id, text, done} in id order', async () => {
    const { http } = makeApp();
    const res = await http.get('/todos').expect(200).expect('Content-Type', 'application/json; charset=utf-8');
    expect(ids(res.body)).toEqual([1, 2, 3]);
    expect(res.body[1]).toEqual({ id: 2, text: 'Renew the passport', done: true });
  });

  it('when offset is negative, then it answers 400 in the JSON error format', async () => {
    const { http } = makeApp();
    expectJsonError(await http.get('/todos?offset=-1'), 400);
  });
});

describe('POST /todos (createTodo)', () => {
  it('when text is given, then it answers 201 with done false and the next id (no Location: todos have no item URL), and the list shows it', async () => {
    const { http } = makeApp();
    const res = await http.post('/todos').send({ text: 'Water the plants' }).expect(201);
    expect(res.body).toEqual({ id: 4, text: 'Water the plants', done: false });
    expect(res.headers.location).toBeUndefined();
    expect((await http.get('/todos')).body[3]).toEqual({ id: 4, text: 'Water the plants', done: false });
  });

  it('when done: false is sent with the text, then it is accepted (the seed lists done as optional on create)', async () => {
    const { http } = makeApp();
    const res = await http.post('/todos').send({ text: 'Call mum', done: false }).expect(201);
    expect(res.body).toEqual({ id: 4, text: 'Call mum', done: false });
  });

  it('when done: true is sent, then it answers 400 naming /body/done (a todo always starts not done)', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const body = expectJsonError(await http.post('/todos').send({ text: 'x', done: true }), 400);
    expect(body.details?.[0].path).toBe('/body/done');
    expect(await snapshot(store)).toEqual(before);
  });

  it('when text is missing or whitespace only, then it answers 400', async () => {
    const { http } = makeApp();
    expectJsonError(await http.post('/todos').send({}), 400);
    expect(expectJsonError(await http.post('/todos').send({ text: '\t \n' }), 400).details?.[0]).toEqual({
      path: '/body/text',
      message: TEXT_RULE,
    });
  });

  it('when the GraphQL name `title` is sent beside text, then it answers 400 naming the unknown property', async () => {
    const { http } = makeApp();
    const body = expectJsonError(await http.post('/todos').send({ text: 'x', title: 'x' }), 400);
    expect(body.details).toEqual([{ path: '/body/title', message: "unknown property 'title' is not allowed" }]);
  });
});

describe('/todos/{id} (no such routes)', () => {
  it('when any method is used on /todos/1, then it answers 404 in the JSON error format', async () => {
    const { http } = makeApp();
    expectJsonError(await http.get('/todos/1'), 404);
    expectJsonError(await http.put('/todos/1').send({ text: 'x' }), 404);
    expectJsonError(await http.delete('/todos/1'), 404);
  });

  it('when DELETE or PUT is used on /todos, then it answers 405 with Allow: GET, POST', async () => {
    const { http } = makeApp();
    const res = await http.delete('/todos');
    expectJsonError(res, 405);
    expect(res.headers.allow).toBe('GET, POST');
    expectJsonError(await http.put('/todos').send({ text: 'x' }), 405);
  });
});
