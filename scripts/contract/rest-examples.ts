import { collectionOf, fillPath, itemOf, operation, show, type KitContext } from './context';
import { paramName, type Fixtures } from './fixtures';
import { expect } from './reporter';
import { checkResponse } from './response-check';
import type { Operation } from './spec-model';

/** Values for an operation's path parameters: a record id from the fixtures, or the spec's example. */
export async function pathValues(
  ctx: KitContext,
  fixtures: Fixtures,
  op: Operation,
  willChange = false,
): Promise<Record<string, string | number> | undefined> {
  const values: Record<string, string | number> = {};
  for (const param of op.params.filter((p) => p.in === 'path')) {
    const isRecordId = collectionOf(ctx.spec, op.template) && param.name === paramName(op.template);
    const id = isRecordId ? await fixtures.idFor(op.template, willChange) : undefined;
    const value = id ?? param.example ?? (param.schema.example as unknown);
    if (value === undefined) return undefined;
    values[param.name] = value as string | number;
  }
  return values;
}

function queryString(op: Operation): string {
  const pairs = op.params
    .filter((p) => p.in === 'query' && p.example !== undefined)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example))}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** What was sent comes back: every property of the example the response also has is equal. */
function expectEcho(sent: unknown, body: unknown): void {
  if (!sent || typeof sent !== 'object' || !body || typeof body !== 'object') return;
  for (const [key, value] of Object.entries(sent)) {
    const got = (body as Record<string, unknown>)[key];
    if (got === undefined) continue;
    expect(JSON.stringify(got) === JSON.stringify(value), `sent ${key}=${show(value)} but the response has ${show(got)}`);
  }
}

/** A 201 with a Location header: that location must answer a GET with 200 (and the spec's schema). */
async function followLocation(ctx: KitContext, op: Operation, location: string | null): Promise<void> {
  const item = itemOf(ctx.spec, op.template);
  const get = operation(item, 'GET');
  if (!location || !get) return;
  const res = await ctx.send({ method: 'GET', path: new URL(location, 'http://x').pathname });
  expect(res.status === 200, `GET Location ${location} answered ${res.status}`);
  checkResponse(ctx.validator, get, res, { status: 200 });
}

async function runGet(ctx: KitContext, fixtures: Fixtures, op: Operation): Promise<void> {
  const values = await pathValues(ctx, fixtures, op);
  if (!values) return ctx.note(`# note: ${op.id}: no value for its path parameters; examples skipped`);
  const path = fillPath(op.template, values);
  const variants = [path, ...(queryString(op) ? [path + queryString(op)] : [])];
  for (const target of variants) {
    await ctx.reporter.check(`${op.id}: GET ${target} (documented example) -> 2xx matching the spec`, async () => {
      checkResponse(ctx.validator, op, await ctx.send({ method: 'GET', path: target }), { status: 'success' });
    });
  }
}

async function runWrite(ctx: KitContext, fixtures: Fixtures, op: Operation): Promise<void> {
  const examples = op.body?.examples ?? [];
  if (examples.length === 0) return ctx.note(`# note: ${op.id}: the spec gives no request example`);
  const values = await pathValues(ctx, fixtures, op, true);
  if (!values) return ctx.note(`# note: ${op.id}: no record to send its examples to`);
  const path = fillPath(op.template, values);
  for (const example of examples) {
    await ctx.reporter.check(`${op.id}: ${op.method} ${path} example '${example.name}' ${show(example.value)} -> 2xx matching the spec`, async () => {
      const res = await ctx.send({ method: op.method, path, body: example.value, headers: { 'content-type': op.body!.mediaType } });
      const body = checkResponse(ctx.validator, op, res, { status: 'success' });
      if (op.method === 'POST') {
        const item = itemOf(ctx.spec, op.template);
        const id = (body as Record<string, unknown> | undefined)?.[item ? paramName(item.template) : 'id'];
        fixtures.adopt(item?.template, op.template, typeof id === 'number' || typeof id === 'string' ? id : undefined);
      }
      expectEcho(example.value, body);
      if (res.status === 201) await followLocation(ctx, op, res.headers.get('location'));
    });
  }
}

async function runDelete(ctx: KitContext, fixtures: Fixtures, op: Operation): Promise<void> {
  const id = await fixtures.create(op.template);
  if (id === undefined) {
    return ctx.note(`# note: ${op.id}: the API has no create for ${op.template}; only its negative cases run (nothing seeded is deleted)`);
  }
  const path = fillPath(op.template, { [paramName(op.template)]: id });
  await ctx.reporter.check(`${op.id}: DELETE ${path} (a record the kit created) -> 2xx, then it is gone`, async () => {
    checkResponse(ctx.validator, op, await ctx.send({ method: 'DELETE', path }), { status: 'success' });
    fixtures.forget(op.template, id);
    const get = operation(ctx.spec.paths.find((p) => p.template === op.template), 'GET');
    if (get?.responses['404']) {
      checkResponse(ctx.validator, get, await ctx.send({ method: 'GET', path }), { status: 404 });
    }
    if (op.responses['404']) {
      checkResponse(ctx.validator, op, await ctx.send({ method: 'DELETE', path }), { status: 404 });
    }
  });
}

/** Every operation, sent its documented examples (reads, creates, updates, then deletes). */
export async function runExampleChecks(ctx: KitContext, fixtures: Fixtures): Promise<void> {
  const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  for (const path of ctx.spec.paths) {
    const ops = [...path.operations].sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method));
    for (const op of ops) {
      if (op.method === 'GET') await runGet(ctx, fixtures, op);
      else if (op.method === 'DELETE') await runDelete(ctx, fixtures, op);
      else await runWrite(ctx, fixtures, op);
    }
  }
}
