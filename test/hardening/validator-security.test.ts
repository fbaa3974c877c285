import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';
import { validatorAfterMatch } from '../../src/http/perf/validator-handoff';
import { chain } from '../../src/http/phases';
import { RouteTable } from '../../src/http/routes';
import type { OpenApiDocument } from '../../src/spec';

/** An API key in a header for the whole document; one operation keeps it, one opts out (`security: []`). */
function spec(): OpenApiDocument {
  const get = (operationId: string, security?: unknown[]) => ({
    get: {
      operationId,
      ...(security ? { security } : {}),
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: { 200: { description: 'ok' }, 401: { description: 'no key' } },
    },
  });
  return {
    openapi: '3.0.3',
    info: { title: 'security', version: '1' },
    security: [{ apiKey: [] }],
    paths: { '/secret/{id}': get('getSecret'), '/open/{id}': get('getOpen', []) },
    components: { schemas: {}, securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
  };
}

/**
 * An app with the real validator, security on, whose key check is `allow` (called with each request):
 * through the hand-off (as the service runs it), or with the validator's own middlewares as they come;
 * after the route table's match, which the service keeps in the request's state (src/http/request-state.ts).
 */
function appWith(allow: (key: string | undefined, path: string) => boolean, handoff: boolean) {
  const doc = spec();
  const middlewares = OpenApiValidator.middleware({
    apiSpec: structuredClone(doc) as never,
    validateRequests: true,
    validateSecurity: { handlers: { apiKey: (req) => allow(req.get('X-Api-Key'), req.path) } },
    fileUploader: false,
  }) as RequestHandler[];
  const answer: RequestHandler = (req, res) => res.json({ id: req.params.id });
  const fail: ErrorRequestHandler = (err, _req, res, _next) => res.status(err.status ?? 500).json({ error: err.message });
  const table = new RouteTable(doc);
  // The route phase's part that the hand-off reads: the match and the operation, in the request's state.
  const route: RequestHandler = (req, res, next) => {
    const match = table.match(req.path);
    res.locals.state = { match, operation: match?.route.operations[req.method] } as never;
    next();
  };
  const app = express();
  app.use(chain([route, ...(handoff ? validatorAfterMatch(middlewares) : middlewares), answer]), fail);
  return app;
}

describe('validator hand-off: the validator\'s security step', () => {
  it('when the key check refuses every request after the first, then the second request for a secured operation is refused', async () => {
    let calls = 0;
    const http = request(appWith(() => ++calls === 1, true));
    await http.get('/secret/1').set('X-Api-Key', 'k').expect(200, { id: 1 });
    await http.get('/secret/1').set('X-Api-Key', 'k').expect(401);
    await http.get('/secret/2').set('X-Api-Key', 'k').expect(401);
    expect(calls).toBe(3);
  });

  it('when a key is missing or wrong on a later request, then that request is refused and a right key is still let through', async () => {
    const http = request(appWith((key) => key === 'right', true));
    await http.get('/secret/1').set('X-Api-Key', 'right').expect(200);
    await http.get('/secret/1').expect(401);
    await http.get('/secret/1').set('X-Api-Key', 'wrong').expect(401);
    await http.get('/secret/3').set('X-Api-Key', 'right').expect(200, { id: 3 });
  });

  it('when the same requests go through the hand-off and through the validator\'s whole chain, then every answer is the same', async () => {
    const requests: [string, string | undefined][] = [
      ['/secret/1', 'right'], ['/secret/1', undefined], ['/secret/x', 'right'], ['/secret/2', 'wrong'],
      ['/open/1', undefined], ['/open/1', 'wrong'], ['/open/x', undefined], ['/open/2', undefined], ['/secret/3', 'right'],
    ];
    const answers = async (handoff: boolean) => {
      const asked: string[] = [];
      const http = request(appWith((key, path) => (asked.push(path), key === 'right'), handoff));
      const out: string[] = [];
      for (const [path, key] of requests) {
        const res = await (key ? http.get(path).set('X-Api-Key', key) : http.get(path));
        out.push(`${path} ${key}: ${res.status} ${res.text}`);
      }
      return { out, asked };
    };
    const [viaHandoff, whole] = [await answers(true), await answers(false)];
    expect(viaHandoff).toEqual(whole);
    // Every request for the secured operation with a key was asked about; the open operation never asks.
    expect(viaHandoff.asked).toEqual(requests.filter(([path, key]) => path.startsWith('/secret/') && key).map(([path]) => path));
  });
});
