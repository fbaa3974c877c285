import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { stringify } from 'yaml';
import { notFound } from '../http/errors';
import { JSON_TYPE, sendText, TEXT_TYPE } from '../http/send';
import type { OwnRoute } from '../http/routes';
import { loadGraphqlSdl, openapiPath, projectRoot, type OpenApiDocument } from '../spec';
import { docAssets, publicDir } from './assets';
import { setCommonHeaders, setPageHeaders } from './headers';

/**
 * An HTML page of the docs, read once: each answer fills in where the service is mounted (`{{base}}`: '' at
 * the root, `/api` when an app mounts it there), so its assets, its spec and its endpoint carry the prefix.
 */
function page(file: string): (req: Request, res: Response) => void {
  const html = readFileSync(path.join(publicDir, file), 'utf8');
  return (req, res) => {
    setPageHeaders(res);
    sendText(res, 200, 'text/html; charset=utf-8', html.replaceAll('{{base}}', escapeHtml(req.baseUrl)));
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Mount paths whose spec texts are kept: an app has one or a few; one mounted under a path parameter has more. */
const KEPT_BASES = 16;

/**
 * A spec file's text, as served under a mount path: the document's `servers` then name that path, so a
 * client (Swagger UI's "Try it out", a generated client) calls the operations where they are. At the root
 * the file is served exactly as written. Kept for the first KEPT_BASES mount paths; rendered per request
 * beyond them, so requests under a parameterised mount path cannot grow the memory it keeps.
 */
function specText(openapi: OpenApiDocument, root: string, render: (doc: OpenApiDocument) => string): (base: string) => string {
  const byBase = new Map<string, string>([['', root]]);
  return (base) => {
    let text = byBase.get(base);
    if (text === undefined) {
      text = render({ ...openapi, servers: [{ url: base, description: 'This service' }] });
      if (byBase.size < KEPT_BASES) byBase.set(base, text);
    }
    return text;
  };
}

const ASSETS = '/docs/assets/';

/**
 * The conventions every operation follows (docs/contract.md), served as its Markdown source in plain text (every
 * browser shows it) at `/docs/contract.md`: the page Swagger UI's opening summary links to, so the link works
 * offline and under a mount path, with nothing fetched from elsewhere.
 */
const CONTRACT_PAGE = '/docs/contract.md';

/** docs/contract.md's text; undefined where the service runs without its docs (a copy of its code and specs alone), which then answers the page's 404. */
function contractPage(): string | undefined {
  try {
    return readFileSync(path.join(projectRoot, 'docs', 'contract.md'), 'utf8');
  } catch {
    return undefined;
  }
}

/** The docs answer GET (and HEAD) only; the route table answers OPTIONS and the 405s. */
const METHODS = ['GET', 'HEAD'];

/**
 * The browsable side of the service, all from local files, as routes for the route table:
 * - `/docs`: Swagger UI on openapi.yaml; `/docs/assets/<name>`: the allow-listed UI assets;
 * - `/openapi.yaml`, `/openapi.json`, `/schema.graphql`: the sources of truth; `served`, when given, is the
 *   spec as this instance checks it (its document and YAML text, src/http/served-spec.ts), served instead of the file.
 */
export function docsRoutes(openapi: OpenApiDocument, served?: { doc: OpenApiDocument; yaml: string }): OwnRoute[] {
  const toJson = (doc: OpenApiDocument) => JSON.stringify(doc, null, 2);
  const spec = served?.doc ?? openapi;
  const yamlText = specText(spec, served?.yaml ?? readFileSync(openapiPath, 'utf8'), (doc) => stringify(doc));
  const jsonText = specText(spec, toJson(spec), toJson);
  const sdl = loadGraphqlSdl();
  const assets = docAssets();
  const text = (media: string, body: (base: string) => string): RequestHandler => (req, res) => {
    setCommonHeaders(res);
    sendText(res, 200, media, body(req.baseUrl));
  };
  const route = (path: string, handler: RequestHandler): OwnRoute => ({ path, methods: METHODS, label: 'docs', handler });
  const docsPage = page('docs.html');
  const contract = contractPage();
  return [
    route('/docs', docsPage),
    // Everything below /docs/ is the docs' own: the conventions, the assets, and a 404 for any other name.
    route('/docs/', (req, res, next) => {
      if (contract !== undefined && req.path.replace(/\/$/, '') === CONTRACT_PAGE) return text(TEXT_TYPE, () => contract)(req, res, next);
      const file = req.path.startsWith(ASSETS) ? assets.get(req.path.slice(ASSETS.length).replace(/\/$/, '')) : undefined;
      if (!file) return next(notFound(req));
      setCommonHeaders(res);
      res.sendFile(file, { maxAge: '1h', dotfiles: 'deny' });
    }),
    route('/openapi.yaml', text('application/yaml; charset=utf-8', yamlText)),
    route('/openapi.json', text(JSON_TYPE, jsonText)),
    // No media type is registered for GraphQL SDL; it is served as the UTF-8 text it is.
    route('/schema.graphql', text(TEXT_TYPE, () => sdl)),
  ];
}

/** Media types a GraphQL client asks for; a browser navigation prefers text/html over all of them. */
const GRAPHQL_MEDIA = ['application/graphql-response+json', 'application/json', 'text/html'];

/**
 * `GET /graphql` from a browser (Accept prefers text/html, no `query` parameter) opens GraphiQL.
 * Every other /graphql request passes on to the GraphQL handler: app.ts runs this first in the /graphql route.
 */
export function graphiqlPage(): RequestHandler {
  const graphiql = page('graphiql.html');
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const query = req.query as Record<string, unknown>;
    if (query.query !== undefined || req.accepts(GRAPHQL_MEDIA) !== 'text/html') return next();
    graphiql(req, res);
  };
}
