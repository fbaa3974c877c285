import { parse } from 'yaml';
import request from 'supertest';
import type { AuthSettings } from '../../src/config';
import { HTTP_METHODS } from '../../src/http/spec-routes';
import { makeApp } from '../support/app';
import { hs256, scopedOperations, token, type SpecOperation } from './support';

/**
 * docs/contract.md §15.4: the served spec (/openapi.json, /openapi.yaml, Swagger UI at /docs) shows security only
 * where this instance checks tokens, with exactly the scopes it asks for.
 */

type Doc = Record<string, any>;

async function served(auth?: AuthSettings): Promise<{ json: Doc; yaml: string; http: ReturnType<typeof request> }> {
  const { http } = makeApp({ config: { auth } });
  const json = (await http.get('/openapi.json').expect(200)).body as Doc;
  const yaml = (await http.get('/openapi.yaml').expect(200)).text;
  expect(parse(yaml)).toEqual(json);
  return { json, yaml, http };
}

const operationOf = (doc: Doc, op: SpecOperation) => doc.paths[Object.keys(doc.paths).find((p) => p.replace(/\{[^}]+\}/g, '1') === op.path)!][op.method.toLowerCase()];

describe('the served spec with auth off (the default)', () => {
  it('when tokens are not checked, then it has no security scheme, no requirement and no 401 or 403 answer anywhere', async () => {
    const { json } = await served();
    expect(json.components.securitySchemes).toBeUndefined();
    expect(json.security).toBeUndefined();
    for (const item of Object.values(json.paths) as Doc[]) {
      for (const op of Object.entries(item).filter(([key]) => HTTP_METHODS.includes(key as never)).map(([, value]) => value as Doc)) {
        expect({ op: op.operationId, security: op.security, statuses: Object.keys(op.responses).filter((s) => s === '401' || s === '403') }).toEqual({ op: op.operationId, security: undefined, statuses: [] });
      }
    }
    expect(JSON.stringify(json)).not.toMatch(/WWWAuthenticate|Unauthorized"|Forbidden"|bearerAuth/);
  });
});

describe.each([
  ['reads public (the default)', hs256()],
  ['reads that need a token (AUTH_READS=token)', hs256({ AUTH_READS: 'token' })],
])('the served spec with auth on, %s', (_name, auth) => {
  const operations = scopedOperations();

  it('when tokens are checked, then it declares the bearer scheme, and the file\'s comments are kept in the YAML', async () => {
    const { json, yaml } = await served(auth);
    expect(json.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(yaml).toMatch(/^# No credential is needed by default/m);
  });

  it('when an operation needs scopes, then it lists exactly those, with no anonymous alternative; when it needs none, then no requirement and no 403', async () => {
    const { json } = await served(auth);
    for (const op of operations) {
      const needed = op.scopes.filter((scope) => auth.reads === 'token' || scope.endsWith(':write'));
      const servedOp = operationOf(json, op);
      if (needed.length > 0) {
        expect({ op: op.operationId, security: servedOp.security }).toEqual({ op: op.operationId, security: [{ bearerAuth: needed }] });
        expect(servedOp.responses['403']).toBeDefined();
      } else {
        expect({ op: op.operationId, security: servedOp.security, forbidden: servedOp.responses['403'] }).toEqual({ op: op.operationId, security: [], forbidden: undefined });
      }
      expect(servedOp.responses['401']).toBeDefined();
    }
  });

  it.each(operations.map((op) => [op.operationId, op] as const))('%s: a token with exactly the served scopes is let through, and one without any of them is refused', async (_id, op) => {
    const { json, http } = await served(auth);
    const scopes: string[] = operationOf(json, op).security[0]?.bearerAuth ?? [];
    const send = (authorization?: string) => {
      let req = http[op.method.toLowerCase() as 'get'](op.path);
      if (authorization) req = req.set('Authorization', authorization);
      return op.body === undefined ? req : req.send(op.body as object);
    };
    expect([401, 403]).not.toContain((await send(`Bearer ${await token(scopes.join(' ') || 'unrelated:read')}`)).status);
    for (const missing of scopes) {
      const res = await send(`Bearer ${await token(scopes.filter((s) => s !== missing).join(' ') || 'unrelated:read')}`);
      expect({ missing, status: res.status }).toEqual({ missing, status: 403 });
    }
    if (scopes.length === 0) expect([401, 403]).not.toContain((await send()).status);
  });

  it('when an operation declares no bearer scheme (health, greeting), then it is served as written', async () => {
    const { json } = await served(auth);
    expect(json.paths['/health'].get.security).toBeUndefined();
    expect(json.paths['/greet/{lang}'].get.responses['401']).toBeUndefined();
  });
});
