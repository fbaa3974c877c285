import request from 'supertest';
import type { Response } from 'supertest';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { loadOpenApi, type OpenApiDocument } from '../../src/spec';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';
import { makeApp } from '../support/app';
import { expectJsonError } from '../support/rest-expect';

/**
 * Query parameters (docs/contract.md §5.1 and §7), read and checked by the validate phase (src/http/query-params.ts):
 * the real spec's list operations, and specs changed as a contract change would change them.
 */

const ids = (res: Response) => (res.body as { id: number }[]).map((r) => r.id);
type Json = Record<string, any>;

describe('query parameters of the real spec', () => {
  it('when a filter value holds reserved characters sent as they are, then it is read as sent', async () => {
    const { http } = makeApp();
    const created = await http.post('/books').send({ title: 'Time: a/b @home!', pages: 7 }).expect(201);
    expect(ids(await http.get('/books?title=Time:%20a/b%20@home!').expect(200))).toEqual([created.body.id]);
    expect(ids(await http.get('/books?title[startsWith]=time:').expect(200))).toEqual([created.body.id]);
  });

  it.each([
    ['limit=0', 'query/limit must be >= 1'],
    ['limit=abc', 'query/limit must be integer'],
    ['limit=1&limit=2', 'query/limit must be given once'],
    ['limit=', "query/limit Empty value found for query parameter 'limit'"],
    ['title[in]=', "query/title[in] Empty value found for query parameter 'title[in]'"],
    ['sort=bogus', 'query/sort/0 must be equal to one of the allowed values: title, -title, pages, -pages'],
    ['sort=title,nope', 'query/sort/1 must be equal to one of the allowed values: title, -title, pages, -pages'],
    ['pages[in]=1,x', 'query/pages[in]/1 must be integer'],
    ['nope=1', "query/nope Unknown query parameter 'nope'"],
  ])('when GET /books?%s, then a 400 names the parameter and says why', async (query, said) => {
    const { http } = makeApp();
    const body = expectJsonError(await http.get(`/books?${query}`), 400);
    expect(body.error).toBe(`Invalid request: ${said}`);
    expect(body.details?.[0].path).toBe(`/${said.split(' ')[0]}`);
  });

  it('when an operation that declares no query parameter gets one, then it is a 400 naming it', async () => {
    const { http } = makeApp();
    expect(expectJsonError(await http.get('/books/1?verbose=1'), 400).error).toBe("Invalid request: query/verbose Unknown query parameter 'verbose'");
  });

  it('when a request is refused for its query, then nothing is written', async () => {
    const { http, store } = makeApp();
    const before = (await store.books.list()).items;
    expectJsonError(await http.post('/books?dryRun=1').send({ title: 'Never', pages: 1 }), 400);
    expect((await store.books.list()).items).toEqual(before);
  });
});

describe('query parameters of a changed spec', () => {
  /** An app on openapi.yaml as `change` leaves it. */
  function appOn(change: (doc: OpenApiDocument, listBooks: Json, getBook: Json, components: Json) => void) {
    const doc = loadOpenApi();
    change(doc, doc.paths['/books'].get as Json, doc.paths['/books/{id}'].get as Json, doc.components as Json);
    const app = createApp({ store: createMemoryStore(loadSeed('default')), config: testConfig(), logger: createLogger('silent'), openapi: doc });
    return request(app);
  }

  it('when a parameter has a default, then a request without it gets the default', async () => {
    const http = appOn((_doc, _list, _get, components) => {
      components.parameters.Limit.schema.default = 2;
    });
    expect(ids(await http.get('/books').expect(200))).toEqual([1, 2]);
    expect(ids(await http.get('/books?limit=3').expect(200))).toEqual([1, 2, 3]);
  });

  it('when a parameter is required, then a request without it is a 400 naming it', async () => {
    const http = appOn((_doc, listBooks) => {
      listBooks.parameters = listBooks.parameters.map((p: Json) => (p.$ref === '#/components/parameters/Limit' ? { name: 'limit', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } } : p));
    });
    expect(expectJsonError(await http.get('/books'), 400).error).toBe("Invalid request: query must have required property 'limit'");
    expect(ids(await http.get('/books?limit=2').expect(200))).toEqual([1, 2]);
  });

  it('when an array parameter is exploded (its name repeated), then each repeat is one item', async () => {
    const http = appOn((_doc, _list, _get, components) => {
      delete components.parameters.BookSort.explode;
    });
    const byPages = await http.get('/books?sort=-pages&sort=title').expect(200);
    const pages = (byPages.body as { pages: number }[]).map((b) => b.pages);
    expect(pages).toEqual([...pages].sort((a, b) => b - a));
    expect(expectJsonError(await http.get('/books?sort=-pages,title'), 400).error).toMatch(/^Invalid request: query\/sort\/0 must be equal to one of the allowed values/);
  });

  it('when a parameter is declared on the path rather than the operation, then it is read and checked alike', async () => {
    const http = appOn((doc, listBooks) => {
      listBooks.parameters = listBooks.parameters.filter((p: Json) => p.$ref !== '#/components/parameters/Limit');
      doc.paths['/books'].parameters = [{ $ref: '#/components/parameters/Limit' }];
    });
    expect(ids(await http.get('/books?limit=2').expect(200))).toEqual([1, 2]);
    expect(expectJsonError(await http.get('/books?limit=0'), 400).error).toBe('Invalid request: query/limit must be >= 1');
  });

  it('when an operation also has a parameter the service does not read (JSON content), then the validator reads that one', async () => {
    const http = appOn((_doc, _list, getBook) => {
      getBook.parameters = [
        ...getBook.parameters,
        { name: 'opts', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false } } } },
        { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
      ];
    });
    await http.get(`/books/1?opts=${encodeURIComponent('{"a":1}')}&verbose=true`).expect(200);
    expectJsonError(await http.get(`/books/1?opts=${encodeURIComponent('{"b":1}')}`), 400);
    expect(expectJsonError(await http.get('/books/1?verbose=yes'), 400).error).toBe('Invalid request: query/verbose must be boolean');
    expect(expectJsonError(await http.get('/books/1?nope=1'), 400).error).toMatch(/nope/);
  });
});
