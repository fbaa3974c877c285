import { fillPath, operation, type KitContext } from './context';
import type { Fixtures } from './fixtures';
import type { HttpRequest } from './http';
import { negativeCases, type NegativeCase } from './negative-cases';
import { expect } from './reporter';
import { checkResponse, parsedBody } from './response-check';
import { pathValues } from './rest-examples';
import type { Operation } from './spec-model';

function request(op: Operation, values: Record<string, string | number>, c: NegativeCase): HttpRequest {
  const path = fillPath(op.template, c.pathValue ? { ...values, [c.pathValue.name]: c.pathValue.value } : values);
  const req: HttpRequest = { method: op.method, path: c.query ? `${path}?${c.query}` : path };
  if (c.raw) {
    req.body = c.raw.text;
    req.headers = { 'content-type': c.raw.contentType };
  } else if (c.body !== undefined) {
    req.body = c.body;
  } else if (!c.noBody && op.body?.examples[0]) {
    // A parameter case on an operation with a body: send a valid body, so only the parameter is wrong.
    req.body = op.body.examples[0].value;
  }
  // A JSON body goes in the media type the operation declares (a PATCH's merge patch, ...).
  if (req.body !== undefined && !c.raw && op.body) req.headers = { 'content-type': op.body.mediaType };
  return req;
}

/** How many records a collection holds, from its list operation (undefined when it has none). */
async function count(ctx: KitContext, op: Operation): Promise<number | undefined> {
  const list = operation(
    ctx.spec.paths.find((p) => p.template === op.template),
    'GET',
  );
  if (!list || list.params.some((p) => p.in === 'path')) return undefined;
  const res = await ctx.send({ method: 'GET', path: op.template });
  const body = res.status === 200 ? parsedBody(res) : undefined;
  return Array.isArray(body) ? body.length : undefined;
}

async function runOperation(ctx: KitContext, fixtures: Fixtures, op: Operation): Promise<void> {
  const cases = negativeCases(ctx.spec, op);
  if (cases.length === 0) return;
  const changes = op.method === 'PUT' || op.method === 'PATCH';
  const values = await pathValues(ctx, fixtures, op, changes);
  if (!values) return ctx.note(`# note: ${op.id}: no value for its path parameters; negative cases skipped`);
  const before = op.method === 'POST' ? await count(ctx, op) : undefined;
  for (const c of cases) {
    const req = request(op, values, c);
    await ctx.reporter.check(`${op.id}: ${op.method} ${req.path} with ${c.name} -> ${c.status}`, async () => {
      checkResponse(ctx.validator, op, await ctx.send(req), { status: c.status });
    });
  }
  if (before !== undefined) {
    await ctx.reporter.check(`${op.id}: the rejected requests above stored nothing in ${op.template}`, async () => {
      const after = await count(ctx, op);
      expect(after === before, `the collection held ${before} records before and ${after} after`);
    });
  }
}

/** Every operation, sent requests the spec forbids: each must earn the documented error status and body. */
export async function runNegativeChecks(ctx: KitContext, fixtures: Fixtures): Promise<void> {
  for (const op of ctx.spec.operations) await runOperation(ctx, fixtures, op);
}
