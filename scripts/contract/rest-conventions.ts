import { fillPath, type KitContext } from './context';
import type { Fixtures } from './fixtures';
import { expect } from './reporter';
import { checkAgainstDoc } from './response-check';
import { pathValues } from './rest-examples';
import type { PathDoc, ResponseDoc } from './spec-model';

const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The methods named by an `Allow` header, upper case. */
function allowed(header: string | null): string[] {
  return (header ?? '')
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
}

/** The error response this path family documents (its 400, else any 4xx): its format applies to 405s too. */
function familyError(path: PathDoc): ResponseDoc | undefined {
  const responses = path.operations.flatMap((op) => Object.entries(op.responses));
  return (responses.find(([s]) => s === '400') ?? responses.find(([s]) => s.startsWith('4')))?.[1];
}

async function methodChecks(ctx: KitContext, path: PathDoc, target: string): Promise<void> {
  const error = familyError(path);
  for (const method of ALL_METHODS.filter((m) => !path.methods.includes(m))) {
    await ctx.reporter.check(`${method} ${target} (not in the spec) -> 405 with Allow: ${path.methods.join(', ')}`, async () => {
      const res = await ctx.send({ method, path: target });
      expect(res.status === 405, `expected 405, got ${res.status}: ${res.text.slice(0, 200)}`);
      const allow = allowed(res.headers.get('allow'));
      expect(allow.length > 0, 'no Allow header');
      const missing = path.methods.filter((m) => !allow.includes(m));
      expect(missing.length === 0, `Allow "${res.headers.get('allow')}" lacks ${missing.join(', ')}`);
      expect(!allow.includes(method), `Allow "${res.headers.get('allow')}" lists ${method}, which just answered 405`);
      if (error) checkAgainstDoc(ctx.validator, error, res, `${method} ${target} -> 405 in the family's error format`);
    });
  }
}

async function headAndOptions(ctx: KitContext, path: PathDoc, target: string): Promise<void> {
  if (path.methods.includes('GET')) {
    await ctx.reporter.check(`HEAD ${target} -> same status and Content-Type as GET, no body`, async () => {
      const get = await ctx.send({ method: 'GET', path: target });
      const head = await ctx.send({ method: 'HEAD', path: target });
      expect(head.status === get.status, `HEAD answered ${head.status}, GET ${get.status}`);
      expect(head.media === get.media, `HEAD Content-Type ${head.media || '(none)'}, GET ${get.media || '(none)'}`);
      expect(head.text === '', 'HEAD returned a body');
    });
  }
  await ctx.reporter.check(`OPTIONS ${target} -> 2xx with Allow listing ${path.methods.join(', ')}`, async () => {
    const res = await ctx.send({ method: 'OPTIONS', path: target });
    expect(res.status >= 200 && res.status < 300, `expected a 2xx, got ${res.status}`);
    const allow = allowed(res.headers.get('allow'));
    const missing = path.methods.filter((m) => !allow.includes(m));
    expect(missing.length === 0, `Allow "${res.headers.get('allow') ?? ''}" lacks ${missing.join(', ')}`);
  });
}

/**
 * The conventions the spec states for every path (its description): a method the path does not
 * declare is a 405 with `Allow`; HEAD mirrors GET; OPTIONS lists the methods; an unknown path is a
 * 404 in the JSON error format.
 */
export async function runConventionChecks(ctx: KitContext, fixtures: Fixtures): Promise<void> {
  for (const path of ctx.spec.paths) {
    const values = await pathValues(ctx, fixtures, path.operations[0]);
    if (!values) {
      ctx.note(`# note: ${path.template}: no value for its path parameters; method checks skipped`);
      continue;
    }
    const target = fillPath(path.template, values);
    await methodChecks(ctx, path, target);
    await headAndOptions(ctx, path, target);
  }
  const notFound = ctx.spec.operations
    .map((op) => op.responses['404'])
    .find((r): r is ResponseDoc => Boolean(r?.content['application/json']));
  const unknown = '/contract-kit/no-such-path';
  await ctx.reporter.check(`GET ${unknown} (not in the spec) -> 404`, async () => {
    const res = await ctx.send({ method: 'GET', path: unknown });
    expect(res.status === 404, `expected 404, got ${res.status}`);
    if (notFound) checkAgainstDoc(ctx.validator, notFound, res, `GET ${unknown} -> 404 in the JSON error format`);
  });
}
