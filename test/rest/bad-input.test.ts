import { makeApp, snapshot } from '../support/app';
import { expectJsonError, expectTextError } from '../support/rest-expect';

/** Every operation that takes a body: its path, a valid body, the text field it requires, its error format. */
const OPERATIONS = [
  { op: 'createBook', method: 'post', path: '/books', valid: { title: 'Ok' }, field: 'title', format: 'json' },
  { op: 'updateBook', method: 'put', path: '/books/1', valid: { title: 'Ok' }, field: 'title', format: 'json' },
  { op: 'createTodo', method: 'post', path: '/todos', valid: { text: 'Ok' }, field: 'text', format: 'json' },
  { op: 'updateNote', method: 'put', path: '/notes/1', valid: { body: 'Ok' }, field: 'body', format: 'json' },
  { op: 'createItem', method: 'post', path: '/items', valid: { name: 'Ok' }, field: 'name', format: 'text' },
  { op: 'createTask', method: 'post', path: '/tasks', valid: { title: 'Ok' }, field: 'title', format: 'json' },
  { op: 'updateTask', method: 'put', path: '/tasks/1', valid: { done: true }, field: 'title', format: 'json' },
] as const;

type Operation = (typeof OPERATIONS)[number];
const BODY_LIMIT = 4096;

/** Bad requests for one operation: a label, the raw body, its Content-Type, the expected status. */
function badRequests(o: Operation): [string, string, string, number][] {
  const json = (value: unknown) => JSON.stringify(value);
  const with_ = (extra: Record<string, unknown>) => json({ ...o.valid, ...extra });
  return [
    ['invalid JSON', '{"' + o.field + '": "x"', 'application/json', 400],
    ['trailing garbage', json(o.valid) + 'x', 'application/json', 400],
    ['JSON null', 'null', 'application/json', 400],
    ['a JSON array', json([o.valid]), 'application/json', 400],
    ['a JSON string', json('Ok'), 'application/json', 400],
    ['a number for the text field', with_({ [o.field]: 42 }), 'application/json', 400],
    ['null for the text field', with_({ [o.field]: null }), 'application/json', 400],
    ['an object for the text field', with_({ [o.field]: { value: 'x' } }), 'application/json', 400],
    ['an unknown field', with_({ colour: 'red' }), 'application/json', 400],
    ['an id in the body', with_({ id: 99 }), 'application/json', 400],
    ['an empty text field', with_({ [o.field]: '' }), 'application/json', 400],
    ['a whitespace-only text field', with_({ [o.field]: ' \t\n ' }), 'application/json', 400],
    ['a 1001-character text field', with_({ [o.field]: 'x'.repeat(1001) }), 'application/json', 400],
    ['a __proto__ key', `{"__proto__": {"polluted": "yes"}, ${json(o.valid).slice(1)}`, 'application/json', 400],
    ['a constructor.prototype key', with_({ constructor: { prototype: { polluted: 'yes' } } }), 'application/json', 400],
    ['a nested __proto__ in the text field', `{"${o.field}": {"__proto__": {"polluted": "yes"}}}`, 'application/json', 400],
    ['a body over the limit', with_({ [o.field]: 'x'.repeat(BODY_LIMIT) }), 'application/json', 413],
    ['text/plain', json(o.valid), 'text/plain', 415],
    ['form encoding', `${o.field}=Ok`, 'application/x-www-form-urlencoded', 415],
    ['a JSON-like media type', json(o.valid), 'application/vnd.api+json', 415],
  ];
}

afterEach(() => {
  // Nothing a client sent may reach Object.prototype.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
});

describe.each(OPERATIONS.map((o) => [o.op, o] as const))('%s: rejected bodies store nothing', (_op, o) => {
  const rows = badRequests(o).map(([label, body, type, status]) => ({ label, body, type, status }));
  // One app per operation: every request here must leave it unchanged, which each test checks.
  let app: ReturnType<typeof makeApp>;
  beforeAll(() => {
    app = makeApp({ config: { bodyLimit: BODY_LIMIT } });
  });
  it.each(rows)('when the body is $label ($type), then it answers $status and the store is unchanged', async ({ body, type, status }) => {
    const { http, store } = app;
    const before = await snapshot(store);
    const res = await http[o.method](o.path).set('Content-Type', type).send(body);
    if (o.format === 'json') expectJsonError(res, status);
    else expectTextError(res, status);
    expect(await snapshot(store)).toEqual(before);
  });
});

describe('error messages name the offending property', () => {
  it.each(OPERATIONS.filter((o) => o.format === 'json').map((o) => [o.op, o] as const))('when %s gets an id or an unknown field, then details names it', async (_op, o) => {
    const { http } = makeApp();
    const id = expectJsonError(await http[o.method](o.path).send({ ...o.valid, id: 7 }), 400);
    expect(id.details).toEqual([{ path: '/body/id', message: "unknown property 'id' is not allowed" }]);
    expect(id.error).toMatch(/'id'/);
    const extra = expectJsonError(await http[o.method](o.path).send({ ...o.valid, colour: 'red' }), 400);
    expect(extra.details?.[0].path).toBe('/body/colour');
  });

  it('when createItem gets an unknown field, then the plain-text message names it', async () => {
    const { http } = makeApp();
    expect(expectTextError(await http.post('/items').send({ name: 'Ok', id: 9 }), 400)).toMatch(/'id'/);
  });
});

describe('text field bounds', () => {
  it('when a text field has exactly 1000 characters, then it is accepted', async () => {
    const { http } = makeApp();
    const title = 'y'.repeat(1000);
    expect((await http.post('/books').send({ title }).expect(201)).body.title).toBe(title);
  });

  it('when a text field has surrounding spaces, then it is stored as sent', async () => {
    const { http } = makeApp();
    expect((await http.post('/items').send({ name: '  Saw  ' }).expect(201)).body.name).toBe('  Saw  ');
  });
});
