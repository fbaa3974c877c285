import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { RouteTable, type OwnRoute } from '../../src/http/routes';
import { createLogger } from '../../src/logger';
import { handlers } from '../../src/rest/handlers';
import type { Handlers } from '../../src/rest/types';
import { loadOpenApi, type OpenApiDocument } from '../../src/spec';
import { createMemoryStore } from '../../src/store/memory';
import { loadSeed } from '../../src/store/seed';

/** A GET operation named `id`, answering 200 with no body: enough for the route table. */
const get = (id: string) => ({ get: { operationId: id, responses: { 200: { description: 'ok' } } } });

/** A spec with these paths, in this order. */
function specOf(paths: Record<string, string>): OpenApiDocument {
  return {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: Object.fromEntries(Object.entries(paths).map(([template, id]) => [template, get(id)])),
    components: { schemas: {} },
  };
}

/** The operationId the table finds for a path, and its parameters ('' when no route answers it). */
function found(table: RouteTable, path: string): string {
  const match = table.match(path);
  if (!match) return '';
  const params = match.params.length ? ` ${match.params.join(',')}` : '';
  return (match.route.operations.GET?.operationId ?? match.route.template) + params;
}

const own = (path: string, setting?: string): OwnRoute => ({ path, methods: ['GET'], label: 'own', handler: (_req, res) => res.end(), setting });

describe('route table: a literal segment wins over a parameter, whatever the spec\'s order', () => {
  const orders = {
    'parameter first': { '/users/{id}': 'getUser', '/users/me': 'getMe' },
    'literal first': { '/users/me': 'getMe', '/users/{id}': 'getUser' },
  };

  for (const [name, paths] of Object.entries(orders)) {
    it(`when the spec declares them ${name}, then /users/me is the literal route and any other value the parameter's`, () => {
      const table = new RouteTable(specOf(paths));
      expect(found(table, '/users/me')).toBe('getMe');
      expect(found(table, '/users/me/')).toBe('getMe');
      expect(found(table, '/users/7')).toBe('getUser 7');
      expect(found(table, '/users/mee')).toBe('getUser mee');
      expect(found(table, '/users/')).toBe('');
    });
  }

  it('when the literal branch fails further on, then the parameter\'s branch is tried (as find-my-way backtracks)', () => {
    const paths = { '/users/{id}/posts': 'listPosts', '/users/me/settings': 'getSettings', '/users/{id}/{kind}': 'listAny' };
    for (const ordered of [paths, Object.fromEntries(Object.entries(paths).reverse())]) {
      const table = new RouteTable(specOf(ordered));
      expect(found(table, '/users/me/settings')).toBe('getSettings');
      expect(found(table, '/users/me/posts')).toBe('listPosts me');
      expect(found(table, '/users/7/posts')).toBe('listPosts 7');
      expect(found(table, '/users/me/likes')).toBe('listAny me,likes');
    }
  });

  it('when two templates have the same shape, then the table refuses to start, naming both', () => {
    const build = () => new RouteTable(specOf({ '/users/{id}': 'a', '/users/me': 'b', '/users/{uid}': 'c' }));
    expect(build).toThrow('openapi.yaml: /users/{id} and /users/{uid} are the same path');
    expect(() => new RouteTable(specOf({ '/a/{x}/b': 'a', '/a/{y}/b': 'b' }))).toThrow('/a/{x}/b and /a/{y}/b are the same path');
  });

  it('when two templates differ only in where their parameters are, then both are routes', () => {
    const table = new RouteTable(specOf({ '/a/{x}/b': 'first', '/a/b/{y}': 'second' }));
    expect(found(table, '/a/b/b')).toBe('second b');
    expect(found(table, '/a/c/b')).toBe('first c');
  });
});

describe('route table: the service\'s own routes', () => {
  const spec = () => specOf({ '/docs/{page}': 'getPage', '/books/{id}': 'getBook', '/books': 'listBooks' });

  it('when an own prefix route covers paths below it, then it answers them, after the spec\'s routes', () => {
    const table = new RouteTable(spec(), [own('/docs/assets/'), own('/graphql')]);
    expect(found(table, '/docs/assets/swagger-ui.css')).toBe('/docs/assets/');
    // The spec's routes come first: `/docs/assets/` is `/docs/assets` (a trailing slash is ignored), a page.
    expect(found(table, '/docs/assets/')).toBe('getPage assets');
    expect(found(table, '/docs/intro')).toBe('getPage intro');
    expect(found(table, '/graphql')).toBe('/graphql');
    expect(table.routes.map((r) => r.template)).toEqual(['/docs/{page}', '/books/{id}', '/books', '/docs/assets/', '/graphql']);
  });

  it('when an own route takes a path the table already answers, then it refuses to start, naming the setting', () => {
    expect(() => new RouteTable(spec(), [own('/books')])).toThrow('/books is already a path of the service');
    // A concrete path a spec template answers is the spec's: a setting may not shadow it.
    expect(() => new RouteTable(spec(), [own('/books/metrics', 'METRICS_PATH')])).toThrow('METRICS_PATH /books/metrics is already a path of the service');
    expect(() => new RouteTable(spec(), [own('/x/'), own('/x/')])).toThrow('/x/ is already a path of the service');
    expect(() => new RouteTable(spec(), [own('/x/'), own('/x/metrics', 'METRICS_PATH')])).toThrow('METRICS_PATH /x/metrics is already a path of the service');
  });
});

describe('route table through HTTP: a literal path added after a template of the real spec', () => {
  /** openapi.yaml with GET /books/latest (the last book) declared after, or before, /books/{id}. */
  function specWithLatest(first: boolean): OpenApiDocument {
    const doc = loadOpenApi();
    const latest = {
      get: {
        operationId: 'getLatestBook',
        responses: { 200: { description: 'The last book', content: { 'application/json': { schema: { $ref: '#/components/schemas/Book' } } } } },
      },
    };
    doc.paths = first ? { '/books/latest': latest, ...doc.paths } : { ...doc.paths, '/books/latest': latest };
    return doc;
  }

  for (const first of [false, true]) {
    it(`when /books/latest is declared ${first ? 'before' : 'after'} /books/{id}, then each path reaches its own operation`, async () => {
      const store = createMemoryStore(loadSeed('default'));
      const getLatestBook = async () => ({ status: 200, body: (await store.books.list()).items.at(-1) });
      const app = createApp({
        store,
        config: testConfig(),
        logger: createLogger('silent'),
        openapi: specWithLatest(first),
        handlers: { ...handlers, getLatestBook } as Partial<Handlers>,
      });
      const books = (await store.books.list()).items;
      const latest = await request(app).get('/books/latest').expect(200);
      expect(latest.body).toEqual(books.at(-1));
      const one = await request(app).get('/books/1').expect(200);
      expect(one.body).toEqual(books[0]);
      // Still the parameter's operation for any other value, with its own validation.
      await request(app).get('/books/newest').expect(400);
    });
  }
});
