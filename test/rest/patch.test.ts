import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { loadGraphqlSdl, loadOpenApi } from '../../src/spec';
import { createMemoryStore } from '../../src/store/memory';
import { buildModel } from '../../src/store/model';
import { loadSeed } from '../../src/store/seed';
import { makeApp, snapshot, type TestApp } from '../support/app';
import { expectJsonError } from '../support/rest-expect';

/**
 * PATCH with a JSON merge patch (RFC 7396, `application/merge-patch+json`) on the collections that have PUT: a
 * member sets its field, an absent one keeps it, `null` removes an optional field; a field the record requires
 * cannot be removed (400 naming it); any other media type is a 415 with `Accept-Patch`; preconditions as for PUT.
 */

const MERGE_PATCH = 'application/merge-patch+json';
const NOT_REMOVABLE = 'cannot be removed: the record requires it (null removes a field in a merge patch)';

/** A PATCH of `body` as a merge patch. */
const patch = (http: TestApp['http'], path: string, body: unknown, headers: Record<string, string> = {}) =>
  http.patch(path).set({ 'Content-Type': MERGE_PATCH, ...headers }).send(JSON.stringify(body));

/**
 * The app on the service's contract with an optional `isbn` added to books (as docs/changing-the-contract.md's
 * worked example adds it: Book, BookCreate, BookUpdate, and BookPatch with `null` allowed), its store made from that
 * contract.
 */
function appWithIsbn() {
  const openapi = loadOpenApi();
  const schemas = openapi.components.schemas as Record<string, { properties: Record<string, unknown> }>;
  const isbn = { type: 'string', pattern: '^[0-9]{13}$' };
  for (const name of ['Book', 'BookCreate', 'BookUpdate']) schemas[name].properties.isbn = isbn;
  schemas.BookPatch.properties.isbn = { ...isbn, type: ['string', 'null'] };
  const sdl = loadGraphqlSdl().replace('  pages: Int!\n', '  pages: Int!\n  "ISBN-13."\n  isbn: String\n');
  const model = buildModel(openapi, sdl);
  const store = createMemoryStore(loadSeed('default', model), model);
  const http = request(createApp({ store, config: testConfig(), logger: createLogger('silent'), openapi, sdl }));
  return { http, store };
}

describe('PATCH /books/{id} (patchBook)', () => {
  it('when a merge patch sets pages, then 200 with the book changed and its title kept, and a GET shows it', async () => {
    const { http } = makeApp();
    const res = await patch(http, '/books/1', { pages: 320 }).expect(200);
    expect(res.body).toEqual({ id: 1, title: 'The Hobbit', pages: 320 });
    expect(res.headers.etag).toBeDefined();
    expect((await http.get('/books/1')).body).toEqual(res.body);
  });

  it('when the patch is {}, then 200 with the book as it was', async () => {
    const { http } = makeApp();
    const before = (await http.get('/books/1')).body;
    expect((await patch(http, '/books/1', {}).expect(200)).body).toEqual(before);
  });

  it('when the patch removes the title (null), then 400 naming /body/title as a field that cannot be removed, and nothing is stored', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await patch(http, '/books/1', { title: null, pages: 1 });
    expect(expectJsonError(res, 400)).toEqual({ error: `Invalid request: body/title ${NOT_REMOVABLE}`, details: [{ path: '/body/title', message: NOT_REMOVABLE }] });
    expect(await snapshot(store)).toEqual(before);
  });

  it('when a member is not a field of the book, then 400 naming it, and nothing is stored', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await patch(http, '/books/1', { author: 'Tolkien' });
    expect(expectJsonError(res, 400).details).toEqual([{ path: '/body/author', message: "unknown property 'author' is not allowed" }]);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the body is sent as application/json, then 415 with Accept-Patch naming the merge patch type, and nothing is stored', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    const res = await http.patch('/books/1').send({ pages: 5 });
    expect(expectJsonError(res, 415)).toEqual({ error: `Unsupported media type: a patch must be ${MERGE_PATCH}` });
    expect(res.headers['accept-patch']).toBe(MERGE_PATCH);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the body is not JSON, then 400', async () => {
    const { http } = makeApp();
    const res = await http.patch('/books/1').set('Content-Type', MERGE_PATCH).send('{"pages":');
    expect(expectJsonError(res, 400)).toEqual({ error: 'Invalid request: body is not valid JSON' });
  });

  it('when the book does not exist, then 404 naming it', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await patch(http, '/books/99', { pages: 1 }), 404)).toEqual({ error: 'Book 99 not found' });
  });

  it('when If-Match names another version, then 412 and nothing is stored; with the current ETag, then 200', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    expect((await patch(http, '/books/1', { pages: 2 }, { 'If-Match': '"stale"' })).status).toBe(412);
    expect(await snapshot(store)).toEqual(before);
    const etag = (await http.get('/books/1')).headers.etag;
    expect((await patch(http, '/books/1', { pages: 2 }, { 'If-Match': etag })).body.pages).toBe(2);
  });

  it('when OPTIONS is asked, then Allow lists PATCH beside PUT', async () => {
    const { http } = makeApp();
    expect((await http.options('/books/1').expect(204)).headers.allow.split(', ')).toEqual(expect.arrayContaining(['PUT', 'PATCH']));
  });
});

describe('PATCH /books/{id} on a contract with an optional field (isbn)', () => {
  it('when a patch sets isbn, then a patch without it keeps it, and a patch with isbn null removes it: absent over REST, null over GraphQL', async () => {
    const { http } = appWithIsbn();
    expect((await patch(http, '/books/1', { isbn: '9780261103344' }).expect(200)).body).toEqual({ id: 1, title: 'The Hobbit', pages: 310, isbn: '9780261103344' });
    expect((await patch(http, '/books/1', { pages: 311 }).expect(200)).body).toEqual({ id: 1, title: 'The Hobbit', pages: 311, isbn: '9780261103344' });
    const removed = await patch(http, '/books/1', { isbn: null }).expect(200);
    expect(removed.body).toEqual({ id: 1, title: 'The Hobbit', pages: 311 });
    expect((await http.get('/books/1')).body).toEqual({ id: 1, title: 'The Hobbit', pages: 311 });
    const gql = await http.post('/graphql').send({ query: '{ book(id: "1") { isbn pages } }' });
    expect(gql.body).toEqual({ data: { book: { isbn: null, pages: 311 } } });
  });

  it('when PUT sends isbn null, then it is still a 400: a replacement takes values, a merge patch removes', async () => {
    const { http } = appWithIsbn();
    expect((await http.put('/books/1').send({ title: 'P', isbn: null })).status).toBe(400);
  });
});

describe('PATCH /notes/{id} (patchNote)', () => {
  it('when a merge patch sets body, then 200, and the deprecated text alias follows it', async () => {
    const { http } = makeApp();
    const res = await patch(http, '/notes/1', { body: 'Call at noon' }).expect(200);
    expect(res.body).toEqual({ id: 1, body: 'Call at noon', text: 'Call at noon' });
  });

  it('when the patch removes body (null), then 400 naming /body/body, and nothing is stored', async () => {
    const { http, store } = makeApp();
    const before = await snapshot(store);
    expect(expectJsonError(await patch(http, '/notes/1', { body: null }), 400).details).toEqual([{ path: '/body/body', message: NOT_REMOVABLE }]);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when the patch sends the read-only alias text, then 400 naming it', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await patch(http, '/notes/1', { text: 'x' }), 400).details).toEqual([{ path: '/body/text', message: "unknown property 'text' is not allowed" }]);
  });
});

describe('PATCH /tasks/{id} (patchTask)', () => {
  it('when a merge patch sets done, then 200 with the title kept', async () => {
    const { http } = makeApp();
    const before = (await http.get('/tasks/1')).body;
    expect((await patch(http, '/tasks/1', { done: true }).expect(200)).body).toEqual({ ...before, done: true });
  });

  it('when the patch removes done (null), then 400 naming /body/done, and nothing is stored', async () => {
    const { http, store } = makeApp();
    const snap = await snapshot(store);
    expect(expectJsonError(await patch(http, '/tasks/1', { done: null }), 400).details).toEqual([{ path: '/body/done', message: NOT_REMOVABLE }]);
    expect(await snapshot(store)).toEqual(snap);
  });
});
