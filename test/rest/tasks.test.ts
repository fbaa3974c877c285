import { makeApp, snapshot } from '../support/app';
import { expectJsonError, ids } from '../support/rest-expect';

const FIRST = { id: 1, title: 'Write the quarterly report', done: false };

describe('GET /tasks (listTasks)', () => {
  it('when called, then it returns every task in id order', async () => {
    const { http } = makeApp();
    const res = await http.get('/tasks').expect(200);
    expect(ids(res.body)).toEqual([1, 2, 3]);
    expect(res.body[0]).toEqual(FIRST);
  });

  it('when an unknown query parameter is given, then it answers 400 naming it', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await http.get('/tasks?status=open'), 400).details?.[0].path).toBe('/query/status');
  });
});

describe('POST /tasks (createTask)', () => {
  it('when title is given, then it answers 201 with done false, the next id and a Location', async () => {
    const { http } = makeApp();
    const res = await http.post('/tasks').send({ title: 'File the taxes' }).expect(201, { id: 4, title: 'File the taxes', done: false });
    expect(res.headers.location).toBe('/tasks/4');
  });

  it('when the body is missing, then it answers 400', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await http.post('/tasks'), 400).details).toEqual([{ path: '/body', message: 'a JSON request body is required' }]);
  });

  it('when title is absent, then it answers 400 naming /body/title', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await http.post('/tasks').send({}), 400).details?.[0].path).toBe('/body/title');
  });

  it('when done: false is sent on create, then it is accepted and the task starts not done', async () => {
    const { http } = makeApp();
    await http.post('/tasks').send({ title: 'Plan', done: false }).expect(201, { id: 4, title: 'Plan', done: false });
  });

  it('when done: true is sent on create, then it answers 400 (a task always starts not done)', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    expectJsonError(await http.post('/tasks').send({ title: 'x', done: true }), 400);
    expect(await snapshot(store)).toEqual(before);
  });
});

describe('GET /tasks/{id} (getTask)', () => {
  it('when the id exists, then it answers 200 with the task', async () => {
    const { http } = makeApp();
    await http.get('/tasks/1').expect(200, FIRST);
  });

  it('when the id matches no task, then it answers 404', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await http.get('/tasks/7'), 404).error).toBe('Task 7 not found');
  });
});

describe('PUT /tasks/{id} (updateTask)', () => {
  it('when the body is {}, then it is a no-op that answers 200 with the task unchanged', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    await http.put('/tasks/1').send({}).expect(200, FIRST);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when only done is given, then the title is kept', async () => {
    const { http } = makeApp();
    await http.put('/tasks/1').send({ done: true }).expect(200, { ...FIRST, done: true });
    await http.get('/tasks/1').expect(200, { ...FIRST, done: true });
  });

  it('when only title is given, then done is kept', async () => {
    const { http } = makeApp();
    await http.put('/tasks/2').send({ title: 'Review the PRs' }).expect(200, { id: 2, title: 'Review the PRs', done: true });
  });

  it('when done goes back to false, then false is stored (not treated as absent)', async () => {
    const { http } = makeApp();
    await http.put('/tasks/2').send({ done: false }).expect(200, { id: 2, title: 'Review pull requests', done: false });
  });

  it('when done is not a boolean or title is blank, then it answers 400 and the task is unchanged', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    expect(expectJsonError(await http.put('/tasks/1').send({ done: 'yes' }), 400).details?.[0].path).toBe('/body/done');
    expect(expectJsonError(await http.put('/tasks/1').send({ done: null }), 400).details?.[0].path).toBe('/body/done');
    expect(expectJsonError(await http.put('/tasks/1').send({ title: ' ' }), 400).details?.[0].path).toBe('/body/title');
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the id matches no task, then it answers 404', async () => {
    const { http } = makeApp();
    expectJsonError(await http.put('/tasks/7').send({ done: true }), 404);
  });
});

describe('DELETE /tasks/{id} (deleteTask)', () => {
  it('when the id exists, then it answers 204 and the task is gone', async () => {
    const { http } = makeApp();
    expect((await http.delete('/tasks/3').expect(204)).text).toBe('');
    expectJsonError(await http.get('/tasks/3'), 404);
    expect(ids((await http.get('/tasks')).body)).toEqual([1, 2]);
  });

  it('when the id matches no task, then it answers 404 (the seed variant chosen by the contract)', async () => {
    const { http } = makeApp();
    expectJsonError(await http.delete('/tasks/7'), 404);
  });
});
