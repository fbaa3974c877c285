import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler, Response } from 'express';
import { notFound } from '../http/errors';
import type { OwnRoute } from '../http/routes';
import { loadGraphqlSdl, openapiPath, type OpenApiDocument } from '../spec';
import { docAssets, publicDir } from './assets';
import { setCommonHeaders, setPageHeaders } from './headers';

function sendPage(res: Response, file: string): void {
  setPageHeaders(res);
  res.type('text/html; charset=utf-8').sendFile(path.join(publicDir, file));
}

const ASSETS = '/docs/assets/';

/** The docs answer GET (and HEAD) only; the route table answers OPTIONS and the 405s. */
const METHODS = ['GET', 'HEAD'];

/**
 * The browsable side of the service, all from local files, as routes for the route table:
 * - `/docs`: Swagger UI on openapi.yaml; `/docs/assets/<name>`: the allow-listed UI assets;
 * - `/openapi.yaml`, `/openapi.json`, `/schema.graphql`: the sources of truth.
 */
export function docsRoutes(openapi: OpenApiDocument): OwnRoute[] {
  const yamlText = readFileSync(openapiPath, 'utf8');
  const jsonText = JSON.stringify(openapi, null, 2);
  const sdl = loadGraphqlSdl();
  const assets = docAssets();
  const text = (media: string, body: string): RequestHandler => (_req, res) => {
    setCommonHeaders(res);
    res.type(media).send(body);
  };
  const route = (path: string, handler: RequestHandler): OwnRoute => ({ path, methods: METHODS, label: 'docs', handler });
  return [
    route('/docs', (_req, res) => sendPage(res, 'docs.html')),
    // Everything below /docs/ is the docs' own: the assets, and a 404 for any other name.
    route('/docs/', (req, res, next) => {
      const file = req.path.startsWith(ASSETS) ? assets.get(req.path.slice(ASSETS.length).replace(/\/$/, '')) : undefined;
      if (!file) return next(notFound(req));
      setCommonHeaders(res);
      res.sendFile(file, { maxAge: '1h', dotfiles: 'deny' });
    }),
    route('/openapi.yaml', text('application/yaml; charset=utf-8', yamlText)),
    route('/openapi.json', text('application/json; charset=utf-8', jsonText)),
    // No media type is registered for GraphQL SDL; it is served as the UTF-8 text it is.
    route('/schema.graphql', text('text/plain; charset=utf-8', sdl)),
  ];
}

/** Media types a GraphQL client asks for; a browser navigation prefers text/html over all of them. */
const GRAPHQL_MEDIA = ['application/graphql-response+json', 'application/json', 'text/html'];

/**
 * `GET /graphql` from a browser (Accept prefers text/html, no `query` parameter) opens GraphiQL.
 * Every other /graphql request passes on to the GraphQL handler: app.ts runs this first in the /graphql route.
 */
export function graphiqlPage(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const query = req.query as Record<string, unknown>;
    if (query.query !== undefined || req.accepts(GRAPHQL_MEDIA) !== 'text/html') return next();
    sendPage(res, 'graphiql.html');
  };
}
