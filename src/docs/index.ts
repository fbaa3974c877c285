import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { loadGraphqlSdl, openapiPath, type OpenApiDocument } from '../spec';
import { docAssets, publicDir } from './assets';
import { setCommonHeaders, setPageHeaders } from './headers';

const ALLOW = 'GET, HEAD';

/** 405 (JSON error format, with Allow) for any other method on a docs path; OPTIONS answers 204. */
function otherMethods(req: Request, res: Response): void {
  res.setHeader('Allow', ALLOW);
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  res.status(405).json({ error: 'Method not allowed' });
}

function sendPage(res: Response, file: string): void {
  setPageHeaders(res);
  res.type('text/html; charset=utf-8').sendFile(path.join(publicDir, file));
}

/**
 * The browsable side of the service, all from local files:
 * - `/docs`: Swagger UI on openapi.yaml; `/docs/assets/<name>`: the allow-listed UI assets;
 * - `/openapi.yaml`, `/openapi.json`, `/schema.graphql`: the sources of truth.
 * Mount it before the OpenAPI validator, which answers 404 for paths the spec does not list.
 */
export function docsRouter(openapi: OpenApiDocument): Router {
  const yamlText = readFileSync(openapiPath, 'utf8');
  const jsonText = JSON.stringify(openapi, null, 2);
  const sdl = loadGraphqlSdl();
  const assets = docAssets();
  const router = Router({ strict: false, caseSensitive: true });

  router.get('/docs', (_req, res) => sendPage(res, 'docs.html'));
  router.get('/docs/assets/:name', (req, res, next) => {
    const file = assets.get(String(req.params.name));
    if (!file) return next();
    setCommonHeaders(res);
    res.sendFile(file, { maxAge: '1h', dotfiles: 'deny' });
  });
  router.get('/openapi.yaml', (_req, res) => {
    setCommonHeaders(res);
    res.type('application/yaml; charset=utf-8').send(yamlText);
  });
  router.get('/openapi.json', (_req, res) => {
    setCommonHeaders(res);
    res.type('application/json; charset=utf-8').send(jsonText);
  });
  router.get('/schema.graphql', (_req, res) => {
    // No media type is registered for GraphQL SDL; it is served as the UTF-8 text it is.
    setCommonHeaders(res);
    res.type('text/plain; charset=utf-8').send(sdl);
  });
  router.all(['/docs', '/openapi.yaml', '/openapi.json', '/schema.graphql'], otherMethods);
  return router;
}

/** Media types a GraphQL client asks for; a browser navigation prefers text/html over all of them. */
const GRAPHQL_MEDIA = ['application/graphql-response+json', 'application/json', 'text/html'];

/**
 * `GET /graphql` from a browser (Accept prefers text/html, no `query` parameter) opens GraphiQL.
 * Every other /graphql request passes on to the GraphQL handler, so mount this just before it.
 */
export function graphiqlPage(): RequestHandler {
  return (req, res, next) => {
    if (req.path !== '/graphql' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const query = req.query as Record<string, unknown>;
    if (query.query !== undefined || req.accepts(GRAPHQL_MEDIA) !== 'text/html') return next();
    sendPage(res, 'graphiql.html');
  };
}
