import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { configureExpress } from '../src/app';
import { makeApp, makeService } from './support/app';

/**
 * The service is middleware (src/service.ts): an app of yours adds its own middleware, routes and error handlers
 * around it with plain `app.use`, in the order it wants, as docs/extending.md shows. The app createApp returns is
 * that composition with nothing around the service: adding to it throws, with the composition to write instead.
 */
describe('the service composed into an express app of yours', () => {
  /** `mine` before the service, `onError` between the service and its error handler, as docs/extending.md writes it. */
  const compose = (mine: RequestHandler[] = [], onError: ErrorRequestHandler[] = []) => {
    const made = makeService();
    const app = configureExpress(express());
    for (const handler of mine) app.use(handler);
    app.use(made.service.handler);
    for (const handler of onError) app.use(handler);
    app.use(made.service.errors);
    return { ...made, app, http: request(app) };
  };

  it('when middlewares are added before the service, then they run before every service route, answered or refused, in the order added', async () => {
    const order: string[] = [];
    const { http } = compose([
      (req, res, next) => {
        order.push(`first ${req.method} ${req.path}`);
        res.setHeader('X-Mine', '1');
        next();
      },
      (_req, _res, next) => {
        order.push('second');
        next();
      },
    ]);
    expect((await http.get('/books/1').expect(200)).headers['x-mine']).toBe('1');
    expect((await http.post('/books').send({ title: 'Mine' }).expect(201)).headers['x-mine']).toBe('1');
    expect((await http.get('/books/abc').expect(400)).headers['x-mine']).toBe('1');
    expect((await http.get('/nowhere').expect(404)).headers['x-mine']).toBe('1');
    expect((await http.post('/graphql').send({ query: '{ books { id } }' }).expect(200)).headers['x-mine']).toBe('1');
    expect(order.slice(0, 4)).toEqual(['first GET /books/1', 'second', 'first POST /books', 'second']);
  });

  it('when a middleware before the service answers itself (authentication, say), then the service never sees the request', async () => {
    const auth: RequestHandler = (req, res, next) => (req.get('Authorization') === 'Bearer ok' ? next() : res.status(401).json({ error: 'Unauthorized' }));
    const { http, store } = compose([auth]);
    const before = (await store.books.list()).total;
    expect((await http.post('/books').send({ title: 'Nope' }).expect(401)).body).toEqual({ error: 'Unauthorized' });
    expect((await store.books.list()).total).toBe(before);
    await http.post('/books').set('Authorization', 'Bearer ok').send({ title: 'Yes' }).expect(201);
  });

  it('when routes of yours come before the service, then they answer their paths, and the service still answers its own', async () => {
    const routes = express.Router();
    routes.get('/extra', (_req, res) => res.json({ extra: true }));
    routes.post('/extra', express.json(), (req, res) => res.status(201).json({ got: req.body }));
    const { http } = compose([routes]);
    expect((await http.get('/extra').expect(200)).body).toEqual({ extra: true });
    expect((await http.post('/extra').send({ a: 1 }).expect(201)).body).toEqual({ got: { a: 1 } });
    await http.get('/books/1').expect(200);
    // A path nobody answers is the service's 404, in the contract's format.
    expect((await http.get('/extra/more').expect(404)).body).toEqual({ error: 'Not found: GET /extra/more' });
  });

  it('when a route of yours throws and you added no error handler, then the answer is the contract 500, logged, with nothing leaked', async () => {
    const routes = express.Router();
    routes.get('/boom', () => {
      throw new Error('secret detail');
    });
    const { http, logs } = compose([routes]);
    const res = await http.get('/boom').expect(500);
    expect(res.body).toEqual({ error: 'Unexpected error.' });
    expect(res.text).not.toContain('secret');
    expect(logs.some((line) => line.msg === 'unexpected error' && JSON.stringify(line).includes('secret detail'))).toBe(true);
  });

  it('when an error handler of yours sits between the service and its error handler, then it sees the errors of your routes and of the service, and what it passes on is answered in the contract format', async () => {
    const seen: number[] = [];
    const routes = express.Router();
    routes.get('/teapot', () => {
      throw Object.assign(new Error('short and stout'), { teapot: true });
    });
    const observe: ErrorRequestHandler = (err, _req, _res, next) => {
      seen.push((err as { status?: number }).status ?? 0);
      next(err);
    };
    const teapots: ErrorRequestHandler = (err, _req, res, next) => ((err as { teapot?: boolean }).teapot ? res.status(418).json({ teapot: true }) : next(err));
    const { http } = compose([routes], [observe, teapots]);
    expect((await http.get('/teapot').expect(418)).body).toEqual({ teapot: true });
    // The service's own refusals pass through the handlers of yours, then the service answers them as always.
    expect((await http.get('/books/abc').expect(400)).body.error).toMatch(/^Invalid request/);
    expect((await http.delete('/books').expect(405)).headers.allow).toBe('GET, POST');
    expect(seen).toEqual([0, 400, 405]);
  });

  it('when the service is mounted under a prefix of your app, then it answers there and its links carry the prefix', async () => {
    const { service } = makeService();
    const app = configureExpress(express());
    app.get('/', (_req, res) => res.send('mine'));
    app.use('/api', service.handler, service.errors);
    const http = request(app);
    const created = await http.post('/api/books').send({ title: 'Prefixed' }).expect(201);
    expect(created.headers.location).toBe(`/api/books/${created.body.id}`);
    expect((await http.get('/api/nowhere').expect(404)).body).toEqual({ error: 'Not found: GET /nowhere' });
    expect((await http.get('/').expect(200)).text).toBe('mine');
  });
});

describe('the app createApp returns', () => {
  it.each([
    ['app.use(middleware)', (app: express.Express) => app.use((_req, _res, next) => next())],
    ['app.use(errorHandler)', (app: express.Express) => app.use(((_err, _req, _res, next) => next()) as ErrorRequestHandler)],
    ["app.get('/extra', handler)", (app: express.Express) => app.get('/extra', (_req, res) => res.end())],
    ["app.post('/extra', handler)", (app: express.Express) => app.post('/extra', (_req, res) => res.end())],
    ["app.all('/extra', handler)", (app: express.Express) => app.all('/extra', (_req, res) => res.end())],
    ["app.route('/extra')", (app: express.Express) => app.route('/extra')],
  ])('when %s is called on it, then the call throws, and the message shows how to compose the service with it', (_call, add) => {
    const { app } = makeApp();
    let message = '';
    try {
      add(app);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('const app = express();');
    expect(message).toContain('app.use(mine);');
    expect(message).toContain('app.use(service.handler);');
    expect(message).toContain('app.use(service.errors);');
  });

  it('when its settings are read or changed, then they answer as express\'s do, and the service still serves', async () => {
    const { app, http } = makeApp();
    expect(app.get('etag')).toBe(false);
    app.set('title', 'mine');
    expect(app.get('title')).toBe('mine');
    await http.get('/books/1').expect(200);
  });
});

describe('the app mounted under a prefix in another express app', () => {
  const mounted = () => {
    const made = makeApp();
    const outer = express();
    outer.get('/', (_req, res) => res.send('outer'));
    outer.use('/api', made.app);
    return { ...made, http: request(outer) };
  };

  it('when a create is answered under /api, then its Location carries the prefix, and the record is there', async () => {
    const { http } = mounted();
    const created = await http.post('/api/books').send({ title: 'Prefixed' }).expect(201);
    expect(created.headers.location).toBe(`/api/books/${created.body.id}`);
    expect((await http.get(created.headers.location).expect(200)).body).toEqual(created.body);
    const item = await http.post('/api/items').send({ name: 'Prefixed' }).expect(201);
    expect(item.headers.location).toBe(`/api/items/${item.body.id}`);
  });

  it('when a page is listed under /api, then its Link carries the prefix', async () => {
    const { http } = mounted();
    const page = await http.get('/api/books?limit=1').expect(200);
    expect(page.body).toHaveLength(1);
    expect(page.headers.link).toMatch(/^<\/api\/books\?limit=1&after=[\w.-]+>; rel="next"$/);
    expect((await http.get('/api/books?limit=1&offset=0').expect(200)).headers.link).toBe('</api/books?limit=1&offset=1>; rel="next"');
    expect((await http.get('/api/books?limit=1&offset=1').expect(200)).headers.link).toContain('</api/books?limit=1&offset=0>; rel="prev"');
  });

  it('when the service is asked for an unknown path, a wrong method or bad input under /api, then it answers in its own formats; the outer app keeps its own paths', async () => {
    const { http } = mounted();
    expect((await http.get('/api/nowhere').expect(404)).body).toEqual({ error: 'Not found: GET /nowhere' });
    expect((await http.delete('/api/books').expect(405)).headers.allow).toBe('GET, POST');
    expect((await http.post('/api/items').send({ name: '' }).expect(400)).headers['content-type']).toMatch(/^text\/plain/);
    expect((await http.get('/').expect(200)).text).toBe('outer');
    await http.get('/books').expect(404);
  });

  it('when the docs are opened under /api, then the page, its assets, its spec (with the prefix as its server) and GraphiQL all point under /api', async () => {
    const { http } = mounted();
    const docs = await http.get('/api/docs').expect(200);
    expect(docs.text).toContain('data-base="/api"');
    expect(docs.text).toContain('src="/api/docs/assets/swagger-init.js"');
    expect(docs.text).not.toMatch(/(src|href)="\/docs\//);
    await http.get('/api/docs/assets/swagger-init.js').expect(200);
    expect((await http.get('/api/openapi.json').expect(200)).body.servers).toEqual([{ url: '/api', description: 'This service' }]);
    expect((await http.get('/api/openapi.yaml').expect(200)).text).toMatch(/servers:\n\s+- url: \/api/);
    const graphiql = await http.get('/api/graphql').set('Accept', 'text/html').expect(200);
    expect(graphiql.text).toContain('data-base="/api"');
    expect(graphiql.text).toContain('src="/api/docs/assets/graphiql-init.js"');
    const answer = await http.post('/api/graphql').send({ query: '{ book(id: "1") { title } }' }).expect(200);
    expect(answer.body.data.book.title).toEqual(expect.any(String));
  });

  it('when the app is mounted under a path parameter, then each tenant path gets a spec naming it as its server, however many there are', async () => {
    const made = makeApp();
    const outer = express();
    outer.use('/t/:tenant', made.app);
    const http = request(outer);
    for (let i = 0; i < 40; i++) {
      expect((await http.get(`/t/${i}/openapi.json`).expect(200)).body.servers).toEqual([{ url: `/t/${i}`, description: 'This service' }]);
    }
    expect((await http.get('/t/3/openapi.json').expect(200)).body.servers).toEqual([{ url: '/t/3', description: 'This service' }]);
  });

  it('when the service is served at the root, then its spec files are served exactly as written', async () => {
    const { http } = makeApp();
    expect((await http.get('/openapi.json').expect(200)).body.servers).toEqual([{ url: '/', description: 'This service' }]);
    expect((await http.get('/docs').expect(200)).text).toContain('src="/docs/assets/swagger-init.js"');
  });
});
