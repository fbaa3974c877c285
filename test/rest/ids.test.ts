import type { Response } from 'supertest';
import { makeApp, snapshot } from '../support/app';
import { expectJsonError, expectTextError, ids } from '../support/rest-expect';

type Family = { path: string; format: 'json' | 'text'; body: Record<string, string>; methods: ('get' | 'put' | 'delete')[] };
const FAMILIES: Family[] = [
  { path: '/books', format: 'json', body: { title: 'Emma' }, methods: ['get', 'put', 'delete'] },
  { path: '/notes', format: 'json', body: { body: 'Hi' }, methods: ['get', 'put', 'delete'] },
  { path: '/items', format: 'text', body: { name: 'Saw' }, methods: ['get', 'delete'] },
  { path: '/tasks', format: 'json', body: { title: 'Plan' }, methods: ['get', 'put', 'delete'] },
];
const BAD_IDS = ['0', '-1', '1.5', 'abc', '99999999999999999999', '9007199254740992', '1e0', '0x1', '1.0', '%201', '+1'];

const expectError = (format: 'json' | 'text', res: Response, status: number) =>
  format === 'json' ? expectJsonError(res, status) : expectTextError(res, status);

describe('path ids are compared as numbers', () => {
  it.each(FAMILIES.map((f) => [f.path, f] as const))('when %s/01 and %s/001 are read, then they are record 1', async (path) => {
    const { http } = makeApp();
    const one = (await http.get(`${path}/1`).expect(200)).body;
    expect((await http.get(`${path}/01`).expect(200)).body).toEqual(one);
    expect((await http.get(`${path}/001`).expect(200)).body).toEqual(one);
  });

  it('when DELETE /books/01 is sent, then book 1 is deleted', async () => {
    const { http } = makeApp();
    await http.delete('/books/01').expect(204);
    expectJsonError(await http.get('/books/1'), 404);
  });

  it('when the largest safe integer is asked, then it is a valid id that matches nothing (404)', async () => {
    const { http } = makeApp();
    expectJsonError(await http.get('/books/9007199254740991'), 404);
    expectTextError(await http.get('/items/9007199254740991'), 404);
  });
});

describe('bad path ids are a 400 in the family format, never a 500', () => {
  for (const family of FAMILIES) {
    it.each(BAD_IDS)(`when ${family.path}/%s is used with each method, then it answers 400 (${family.format}) and changes nothing`, async (id) => {
      const { http, store } = makeApp();
      const before = await snapshot(store);
      for (const method of family.methods) {
        const req = http[method](`${family.path}/${id}`);
        const res = method === 'put' ? await req.send(family.body) : await req;
        expectError(family.format, res, 400);
      }
      expect(await snapshot(store)).toEqual(before);
    });
  }
});

describe('ids are assigned by the service', () => {
  it.each([
    ['/books', { title: 'Emma' }, 5],
    ['/todos', { text: 'Call mum' }, 3],
    ['/items', { name: 'Saw' }, 3],
    ['/tasks', { title: 'Plan' }, 3],
  ] as const)('when %s gets a POST, then the id is the previous largest + 1', async (path, body, largest) => {
    const { http } = makeApp();
    expect((await http.post(path).send(body).expect(201)).body.id).toBe(largest + 1);
    expect((await http.post(path).send(body).expect(201)).body.id).toBe(largest + 2);
  });

  it.each([
    ['/books', { title: 'Emma' }, 5],
    ['/items', { name: 'Saw' }, 3],
    ['/tasks', { title: 'Plan' }, 3],
  ] as const)('when the newest %s record is deleted, then its id is never given again', async (path, body, largest) => {
    const { http } = makeApp();
    await http.delete(`${path}/${largest}`).expect(204);
    const created = (await http.post(path).send(body).expect(201)).body.id;
    expect(created).toBe(largest + 1);
    await http.delete(`${path}/${created}`).expect(204);
    expect((await http.post(path).send(body).expect(201)).body.id).toBe(largest + 2);
  });

  it.each([
    ['/books', { title: 'Emma' }],
    ['/todos', { text: 'Call mum' }],
    ['/items', { name: 'Saw' }],
    ['/tasks', { title: 'Plan' }],
  ] as const)('when 50 POSTs to %s run concurrently, then the 50 ids are unique and consecutive', async (path, body) => {
    const { http } = makeApp();
    const before = (await http.get(path)).body.length;
    const results = await Promise.all(Array.from({ length: 50 }, () => http.post(path).send(body)));
    const created = results.map((res) => {
      expect(res.status).toBe(201);
      return res.body.id as number;
    });
    expect(new Set(created).size).toBe(50);
    const sorted = [...created].sort((a, b) => a - b);
    expect(sorted).toEqual(Array.from({ length: 50 }, (_, i) => sorted[0] + i));
    const list = (await http.get(path).expect(200)).body;
    expect(list).toHaveLength(before + 50);
    expect(ids(list)).toEqual([...ids(list)].sort((a, b) => a - b));
  });
});
