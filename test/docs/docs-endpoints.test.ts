import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { parse } from 'yaml';
import { loadOpenApi, projectRoot } from '../../src/spec';
import { makeApp } from '../support/app';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** Every src= and href= in a page. */
function references(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
}

/** The expected media type of an asset, by extension. */
function expectedType(ref: string): RegExp {
  if (ref.endsWith('.js')) return /^(application|text)\/javascript/;
  if (ref.endsWith('.css')) return /^text\/css/;
  if (ref.endsWith('.png')) return /^image\/png/;
  throw new Error(`unexpected asset ${ref}`);
}

describe('GET /docs (Swagger UI)', () => {
  it('when a browser opens it, then it answers 200 HTML with a CSP that allows only this origin', async () => {
    const { http } = makeApp();
    const res = await http.get('/docs').set('Accept', BROWSER_ACCEPT).expect(200).expect('Content-Type', /^text\/html; charset=utf-8/);
    expect(res.text).toContain('<div id="swagger-ui">');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('when the page is read, then every script, style and icon it references is local and served', async () => {
    const { http } = makeApp();
    const html = (await http.get('/docs').expect(200)).text;
    expect(html).not.toMatch(/<script>|<script[^>]*>[^<]+<\/script>/); // no inline script
    const refs = references(html);
    expect(refs).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']));
    for (const ref of refs) {
      expect(ref).toMatch(/^\/docs\/assets\/[\w.-]+$/);
      await http.get(ref).expect(200).expect('Content-Type', expectedType(ref));
    }
  });

  it('when the init script is read, then it loads the spec from this service and turns the online validator off', async () => {
    const { http } = makeApp();
    const res = await http.get('/docs/assets/swagger-init.js').expect(200);
    // The spec of this service, where it is mounted (the page's data-base: '' at the root).
    expect(res.text).toContain("url: document.body.dataset.base + '/openapi.json'");
    expect(res.text).toContain('validatorUrl: null');
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it('when HEAD is sent, then it answers 200 with the headers and no body', async () => {
    const { http } = makeApp();
    const res = await http.head('/docs').expect(200).expect('Content-Type', /text\/html/);
    expect(res.text).toBeUndefined();
  });

  it('when another method is sent, then it answers 405 with Allow in the JSON error format', async () => {
    const { http } = makeApp();
    const res = await http.post('/docs').send({}).expect(405).expect('Content-Type', /application\/json/);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toEqual({ error: 'Method not allowed' });
  });
});

describe('what Swagger UI opens on (openapi.yaml info.description)', () => {
  it('when /docs opens, then the spec\'s description is a summary of a few lines whose link to the conventions this service serves', async () => {
    const { http } = makeApp();
    const { description } = (await http.get('/openapi.json').expect(200)).body.info as { description: string };
    expect(description.trim().split('\n').length).toBeLessThanOrEqual(10);
    const links = [...description.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
    expect(links).toEqual(['docs/contract.md']);
    // Swagger UI is the page /docs: a relative link resolves against it, under any mount path.
    const target = new URL(links[0], 'http://localhost/docs').pathname;
    const page = await http.get(target).expect(200).expect('Content-Type', 'text/plain; charset=utf-8');
    expect(page.text).toBe(readFileSync(path.join(projectRoot, 'docs', 'contract.md'), 'utf8'));
    expect(page.text).toMatch(/^# The contract\n/);
    expect((await http.get(`${target}/`).expect(200)).text).toBe(page.text); // one trailing slash is ignored, as everywhere
  });

  it('when another page below /docs/ is asked for, then it is a 404: the conventions are the one document served', async () => {
    const { http } = makeApp();
    await http.get('/docs/settings.md').expect(404).expect('Content-Type', /application\/json/);
    await http.get('/docs/contract.md.bak').expect(404);
  });
});

describe('GET /docs/assets/{name}', () => {
  it('when the name is not on the allow-list, then it answers 404 in the JSON error format', async () => {
    const { http } = makeApp();
    await http.get('/docs/assets/index.html').expect(404).expect('Content-Type', /application\/json/);
    await http.get('/docs/assets/swagger-initializer.js').expect(404);
  });

  it('when the name tries to leave the folder, then it answers 404 and serves no file', async () => {
    const { http } = makeApp();
    const res = await http.get('/docs/assets/..%2F..%2Fpackage.json').expect(404);
    expect(res.text).not.toContain('"dependencies"');
  });
});

describe('the sources of truth', () => {
  // The file as this instance checks it: with no token checked (the default), without its security
  // (test/auth/served-spec.test.ts has the rest).
  const file = readFileSync(path.join(projectRoot, 'openapi.yaml'), 'utf8');
  /** A document without what is about tokens: the security, the 401 and 403 answers, and the components only they use. */
  const withoutSecurity = (doc: Record<string, any>) => {
    const copy = structuredClone(doc);
    delete copy.security;
    delete copy.components.securitySchemes;
    for (const name of ['JsonUnauthorized', 'TextUnauthorized', 'JsonForbidden', 'TextForbidden']) delete copy.components.responses[name];
    delete copy.components.headers.WWWAuthenticate;
    for (const item of Object.values(copy.paths) as Record<string, any>[]) {
      for (const op of Object.values(item)) {
        if (typeof op !== 'object' || !op.responses) continue;
        delete op.security;
        delete op.responses['401'];
        delete op.responses['403'];
      }
    }
    return copy;
  };

  it('when GET /openapi.yaml, then it answers the file as application/yaml, in its own order', async () => {
    const { http } = makeApp();
    const res = await http.get('/openapi.yaml').expect(200).expect('Content-Type', 'application/yaml; charset=utf-8');
    expect(res.text.startsWith(file.slice(0, file.indexOf('\npaths:')).replace(/\n#[^\n]*|\nsecurity: \[\]/g, ''))).toBe(true);
    expect(Object.keys(parse(res.text).paths)).toEqual(Object.keys(loadOpenApi().paths));
  });

  it('when GET /openapi.json, then it answers the same document as JSON, the file\'s own but for its security', async () => {
    const { http } = makeApp();
    const res = await http.get('/openapi.json').expect(200).expect('Content-Type', 'application/json; charset=utf-8');
    expect(parse((await http.get('/openapi.yaml')).text)).toEqual(res.body);
    expect(res.body).toEqual(withoutSecurity(parse(file)));
    expect(JSON.stringify(res.body)).not.toMatch(/bearerAuth|"security"/);
  });

  it('when GET /schema.graphql, then it answers the SDL as UTF-8 text that builds a schema', async () => {
    const { http } = makeApp();
    const res = await http.get('/schema.graphql').expect(200).expect('Content-Type', 'text/plain; charset=utf-8');
    expect(res.text).toBe(readFileSync(path.join(projectRoot, 'schema.graphql'), 'utf8'));
    expect(buildSchema(res.text).getQueryType()?.getFields().books).toBeDefined();
  });

  it('when a spec file is fetched with PUT, then it answers 405 and the file is unchanged', async () => {
    const { http } = makeApp();
    await http.put('/openapi.yaml').send({}).expect(405).expect('Allow', 'GET, HEAD');
    await http.get('/openapi.yaml').expect(200).expect('Content-Type', /yaml/);
  });
});

describe('GET /graphql from a browser (GraphiQL)', () => {
  it('when Accept prefers text/html and there is no query, then it answers the GraphiQL page with local assets only', async () => {
    const { http } = makeApp();
    const res = await http.get('/graphql').set('Accept', BROWSER_ACCEPT).expect(200).expect('Content-Type', /^text\/html/);
    expect(res.text).toContain('<div id="graphiql">');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const refs = references(res.text);
    expect(refs).toEqual(
      expect.arrayContaining(['/docs/assets/graphiql.min.js', '/docs/assets/react.production.min.js', '/docs/assets/react-dom.production.min.js']),
    );
    for (const ref of refs) {
      expect(ref).toMatch(/^\/docs\/assets\/[\w.-]+$/);
      await http.get(ref).expect(200).expect('Content-Type', expectedType(ref));
    }
  });

  it('when the GraphiQL init script is read, then it sends queries to this service only', async () => {
    const { http } = makeApp();
    const res = await http.get('/docs/assets/graphiql-init.js').expect(200);
    expect(res.text).toContain("new URL(document.body.dataset.base + '/graphql', window.location.href)");
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it('when a client asks for JSON, then it is not given the GraphiQL page', async () => {
    const { http } = makeApp();
    const res = await http.get('/graphql').set('Accept', 'application/json');
    expect(res.headers['content-type']).not.toMatch(/text\/html/);
  });

  it('when Accept is */* (curl), then it is not given the GraphiQL page', async () => {
    const { http } = makeApp();
    const res = await http.get('/graphql').set('Accept', '*/*');
    expect(res.headers['content-type']).not.toMatch(/text\/html/);
  });

  it('when a browser GET carries a query, then it goes on to the GraphQL handler instead of the page', async () => {
    const { http } = makeApp();
    const res = await http.get('/graphql').query({ query: '{ books { title } }' }).set('Accept', BROWSER_ACCEPT);
    expect(res.headers['content-type']).not.toMatch(/text\/html/);
  });
});

describe('security headers outside the UIs', () => {
  it('when an API route answers, then its CSP stays strict (the UI relaxation does not leak)', async () => {
    const { http } = makeApp();
    const res = await http.get('/books').expect(200);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['content-security-policy']).not.toContain("script-src 'self'");
  });
});
