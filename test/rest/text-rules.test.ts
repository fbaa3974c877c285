import { loadOpenApi } from '../../src/spec';
import { TEXT_PATTERN, TEXT_RULE } from '../../src/text-rule';
import { gqlClient } from '../graphql/support';
import { makeApp, snapshot } from '../support/app';
import { expectJsonError, expectTextError } from '../support/rest-expect';

/**
 * The text rule, the same in both stores and both API styles: a NUL (U+0000) or an unpaired
 * surrogate in any text field is a 400 (GraphQL: BAD_USER_INPUT) naming the field, and nothing is
 * stored. Runs on the memory store, and on PostgreSQL (which cannot store NUL) when TEST_DATABASE_URL is set.
 */
const BAD = {
  'a NUL inside': 'a\u0000b',
  'only a NUL': '\u0000',
  'a lone high surrogate': 'a\ud800',
  'a lone low surrogate': '\udc00b',
  'surrogates in the wrong order': '\udc00\ud800',
  'a valid pair and a NUL': '\ud83d\ude00\u0000',
};

/** Every text field of every REST operation that takes one. */
const FIELDS = [
  { op: 'POST /books', method: 'post', path: '/books', field: 'title', body: { pages: 1 } },
  { op: 'PUT /books/1', method: 'put', path: '/books/1', field: 'title', body: {} },
  { op: 'POST /todos', method: 'post', path: '/todos', field: 'text', body: {} },
  { op: 'PUT /notes/1', method: 'put', path: '/notes/1', field: 'body', body: {} },
  { op: 'POST /items', method: 'post', path: '/items', field: 'name', body: {} },
  { op: 'POST /tasks', method: 'post', path: '/tasks', field: 'title', body: {} },
  { op: 'PUT /tasks/1', method: 'put', path: '/tasks/1', field: 'title', body: { done: true } },
] as const;

const CASES = FIELDS.flatMap((f) => Object.entries(BAD).map(([what, value]) => ({ ...f, what, value })));

describe('one definition of the text rule', () => {
  it('when openapi.yaml is read, then its Text pattern is the very pattern GraphQL uses', () => {
    const text = (loadOpenApi().components as { schemas: Record<string, { pattern?: string }> }).schemas.Text;
    expect(text.pattern).toBe(TEXT_PATTERN.source);
  });

  it('when checked directly, then it takes ordinary and astral text and refuses blank, NUL and lone surrogates', () => {
    for (const good of ['x', ' x ', 'Ünïcödé', '\ud83d\ude00', 'tab\there', 'line\nbreak', 'a\u0001b']) expect({ good, ok: TEXT_PATTERN.test(good) }).toEqual({ good, ok: true });
    for (const bad of ['', ' \t\n', ...Object.values(BAD)]) expect({ bad, ok: TEXT_PATTERN.test(bad) }).toEqual({ bad, ok: false });
  });
});

describe('REST: NUL and unpaired surrogates in text fields', () => {
  it.each(CASES)('when $op sends $field with $what, then 400 naming /body/$field and nothing is stored', async ({ method, path, field, body, value }) => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await http[method](path).send({ ...body, [field]: value });
    if (path.startsWith('/items')) {
      expect(expectTextError(res, 400)).toBe(`Invalid request: body/${field} ${TEXT_RULE}`);
    } else {
      expect(expectJsonError(res, 400)).toEqual({
        error: `Invalid request: body/${field} ${TEXT_RULE}`,
        details: [{ path: `/body/${field}`, message: TEXT_RULE }],
      });
    }
    expect(await snapshot(store)).toEqual(before);
  });

  it.each(FIELDS)('when $op sends $field with emoji (valid surrogate pairs) and control characters, then it is stored as sent', async ({ method, path, field, body }) => {
    const { http } = makeApp();
    const value = 'Smile \ud83d\ude00 \u0001 end';
    const res = await http[method](path).send({ ...body, [field]: value });
    expect([200, 201]).toContain(res.status);
    expect(res.body[field]).toBe(value);
  });

  it('when a 100 KiB text of spaces ends in a NUL, then it is refused promptly (the pattern does not backtrack badly)', async () => {
    const { http } = makeApp({ config: { bodyLimit: 200 * 1024 } });
    const res = await http.post('/books').send({ title: `${' '.repeat(100 * 1024)}x\u0000` });
    expect(expectJsonError(res, 400).details?.[0].path).toBe('/body/title');
  });

  it('when a path or query parameter carries NUL or a broken escape, then 400 or 404, never a 500', async () => {
    const { http } = makeApp();
    expectTextError(await http.get('/greet/%00'), 404);
    expectTextError(await http.get('/greet/fr%00'), 404);
    expectTextError(await http.get('/greet/%ED%A0%80'), 400);
    expectJsonError(await http.get('/books/%00'), 400);
    expectJsonError(await http.get('/books/1%00'), 400);
    expectTextError(await http.get('/items/%ED%A0%80'), 400);
    expectJsonError(await http.get('/books?limit=%00'), 400);
    expectJsonError(await http.get('/books?limit=1&offset=%ED%A0%80'), 400);
  });
});

describe('GraphQL: NUL and unpaired surrogates in arguments', () => {
  const MUTATIONS = [
    { argument: 'name', query: 'mutation($v: String!) { createUser(name: $v, email: "a@example.com") { id } }' },
    { argument: 'email', query: 'mutation($v: String!) { createUser(name: "Ann", email: $v) { id } }' },
    { argument: 'title', query: 'mutation($v: String!) { addTodo(title: $v) { id } }' },
  ];
  const GQL_CASES = MUTATIONS.flatMap((m) =>
    Object.entries({ ...BAD, 'an e-mail with a NUL': 'a\u0000@example.com', 'an e-mail with a lone surrogate': 'a@exa\ud800mple.com' }).map(
      ([what, value]) => ({ ...m, what, value }),
    ),
  );

  it.each(GQL_CASES)('when $argument has $what, then BAD_USER_INPUT naming it and nothing is stored', async ({ argument, query, value }) => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await gqlClient(http)(query, { v: value });
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', argumentName: argument });
    expect(res.body.errors![0].message).toMatch(new RegExp(`^${argument} `));
    expect(await snapshot(store)).toEqual(before);
  });

  it('when an id argument carries a NUL or a lone surrogate, then it names no record (null), never an error', async () => {
    const { http } = makeApp();
    for (const id of ['\u0000', '1\u0000', '\ud800']) {
      const res = await gqlClient(http)('query($id: ID!) { book(id: $id) { id } user(id: $id) { id } }', { id });
      expect(res.body).toEqual({ data: { book: null, user: null } });
    }
  });

  it('when a title has emoji, then addTodo stores it and REST shows the same text', async () => {
    const { http } = makeApp();
    const res = await gqlClient(http)('mutation($v: String!) { addTodo(title: $v) { id title } }', { v: 'Party \ud83c\udf89' });
    expect(res.body.errors).toBeUndefined();
    const todos = (await http.get('/todos')).body as { text: string }[];
    expect(todos[todos.length - 1].text).toBe('Party \ud83c\udf89');
  });
});
