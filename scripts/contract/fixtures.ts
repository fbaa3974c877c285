import { collectionOf, fillPath, operation, type KitContext } from './context';
import { parsedBody } from './response-check';
import type { Operation } from './spec-model';

interface Borrowed {
  id: string | number;
  /** The record as it was before the kit touched it, restored at the end. */
  snapshot?: Record<string, unknown>;
}

/**
 * Records the kit works on. It creates what it can (through the collection's POST example) and
 * deletes those at the end; where the API has no create, it borrows an existing record, and puts
 * back any record it updated. Nothing is kept in module state: one instance per run.
 */
export class Fixtures {
  /** Ids the kit created, by item path template (e.g. `/books/{id}`). */
  private readonly owned = new Map<string, (string | number)[]>();
  private readonly borrowed = new Map<string, Borrowed>();
  /** Collections where the kit created records it cannot delete (no DELETE in the spec). */
  readonly undeletable = new Map<string, number>();

  constructor(private readonly ctx: KitContext) {}

  /** Remembers a record the kit created under `itemTemplate` (or counts it as undeletable). */
  adopt(itemTemplate: string | undefined, collection: string, id: string | number | undefined): void {
    if (itemTemplate && id !== undefined && this.ctx.spec.paths.some((p) => p.template === itemTemplate && p.methods.includes('DELETE'))) {
      this.owned.set(itemTemplate, [...(this.owned.get(itemTemplate) ?? []), id]);
    } else {
      this.undeletable.set(collection, (this.undeletable.get(collection) ?? 0) + 1);
    }
  }

  forget(itemTemplate: string, id: string | number): void {
    this.owned.set(itemTemplate, (this.owned.get(itemTemplate) ?? []).filter((x) => String(x) !== String(id)));
  }

  /** The first record the kit owns under this item template, if any. */
  ownedId(itemTemplate: string): string | number | undefined {
    return this.owned.get(itemTemplate)?.[0];
  }

  /** Creates a record through the collection's POST (first example); undefined when the API has no create. */
  async create(itemTemplate: string): Promise<string | number | undefined> {
    const collection = collectionOf(this.ctx.spec, itemTemplate);
    const post = operation(collection, 'POST');
    const example = post?.body?.examples[0];
    if (!post || !collection || !example) return undefined;
    const res = await this.ctx.send({ method: 'POST', path: collection.template, body: example.value, headers: { 'content-type': post.body!.mediaType } });
    if (res.status < 200 || res.status >= 300) return undefined;
    const id = idOf(parsedBody(res), itemTemplate);
    this.adopt(itemTemplate, collection.template, id);
    return id;
  }

  /**
   * An id to use in `itemTemplate`: a record the kit owns, else a new one, else (no create in the
   * API) the first record of the collection, borrowed; with `willChange`, it is snapshotted first.
   */
  async idFor(itemTemplate: string, willChange = false): Promise<string | number | undefined> {
    const own = this.ownedId(itemTemplate) ?? (await this.create(itemTemplate));
    if (own !== undefined) return own;
    let borrowed = this.borrowed.get(itemTemplate);
    if (!borrowed) {
      const list = operation(collectionOf(this.ctx.spec, itemTemplate), 'GET');
      if (!list) return undefined;
      const res = await this.ctx.send({ method: 'GET', path: list.template });
      const items = res.status === 200 ? parsedBody(res) : undefined;
      const first = Array.isArray(items) ? (items[0] as Record<string, unknown> | undefined) : undefined;
      const id = first ? idOf(first, itemTemplate) : undefined;
      if (id === undefined) return undefined;
      borrowed = { id };
      this.borrowed.set(itemTemplate, borrowed);
    }
    if (willChange && !borrowed.snapshot) {
      const res = await this.ctx.send({ method: 'GET', path: fillPath(itemTemplate, { [paramName(itemTemplate)]: borrowed.id }) });
      if (res.status === 200) borrowed.snapshot = parsedBody(res) as Record<string, unknown>;
    }
    return borrowed.id;
  }

  /** Deletes what the kit created and restores what it borrowed and changed; one check each. */
  async cleanUp(): Promise<void> {
    for (const [template, ids] of this.owned) {
      const del = operation(this.ctx.spec.paths.find((p) => p.template === template), 'DELETE')!;
      for (const id of ids) {
        const path = fillPath(template, { [paramName(template)]: id });
        await this.ctx.reporter.check(`cleanup ${del.id}: DELETE ${path} -> 2xx`, async () => {
          const res = await this.ctx.send({ method: 'DELETE', path });
          if (res.status < 200 || res.status >= 300) throw new Error(`got ${res.status}: ${res.text.slice(0, 200)}`);
        });
      }
    }
    for (const [template, borrowed] of this.borrowed) {
      const put = operation(this.ctx.spec.paths.find((p) => p.template === template), 'PUT');
      if (!borrowed.snapshot || !put) continue;
      await this.restore(put, template, borrowed);
    }
    for (const [collection, count] of this.undeletable) {
      this.ctx.note(`# note: ${count} record(s) created at ${collection} remain (the spec has no DELETE for them)`);
    }
  }

  private async restore(put: Operation, template: string, borrowed: Borrowed): Promise<void> {
    const writable = Object.keys((put.body?.schema.properties ?? {}) as Record<string, unknown>);
    const body = Object.fromEntries(Object.entries(borrowed.snapshot ?? {}).filter(([key]) => writable.includes(key)));
    const path = fillPath(template, { [paramName(template)]: borrowed.id });
    await this.ctx.reporter.check(`cleanup ${put.id}: PUT ${path} restores the record`, async () => {
      const res = await this.ctx.send({ method: 'PUT', path, body, headers: { 'content-type': put.body?.mediaType ?? 'application/json' } });
      if (res.status !== 200) throw new Error(`got ${res.status}: ${res.text.slice(0, 200)}`);
    });
  }
}

/** The name of the last path parameter of a template (`/books/{id}` -> `id`). */
export function paramName(template: string): string {
  return /\{([^}]+)\}$/.exec(template)?.[1] ?? 'id';
}

/** The id of a record, read from the field named like the path parameter (or `id`). */
function idOf(body: unknown, itemTemplate: string): string | number | undefined {
  const record = body as Record<string, unknown> | undefined;
  const value = record?.[paramName(itemTemplate)] ?? record?.id;
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}
