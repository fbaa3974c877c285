import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** A loosely typed OpenAPI node: the kit reads any document of the same shape, not only this one. */
export type Node = Record<string, unknown>;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface Example {
  name: string;
  value: unknown;
}

export interface Param {
  name: string;
  in: string;
  required: boolean;
  schema: Node;
  example?: unknown;
}

export interface ResponseDoc {
  /** JSON pointer of the (dereferenced) response object inside the document. */
  pointer: string;
  content: Record<string, Node>;
  headers: Record<string, { required: boolean; schemaPointer?: string }>;
}

export interface Operation {
  id: string;
  method: string; // upper case
  template: string;
  params: Param[];
  /** The request body: its media type (`application/json`, a PATCH's `application/merge-patch+json`), schema and examples. */
  body?: { required: boolean; mediaType: string; pointer: string; schema: Node; examples: Example[] };
  responses: Record<string, ResponseDoc>;
}

export interface PathDoc {
  template: string;
  methods: string[]; // upper case, spec order
  operations: Operation[];
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Reads an OpenAPI 3.x document (YAML or JSON) and exposes its operations with dereferenced parts. */
export class SpecModel {
  readonly doc: Node;
  readonly paths: PathDoc[];

  constructor(file: string) {
    this.doc = parse(readFileSync(file, 'utf8')) as Node;
    this.paths = Object.entries((this.doc.paths ?? {}) as Record<string, Node>).map(([template, item]) =>
      this.pathDoc(template, item),
    );
  }

  get operations(): Operation[] {
    return this.paths.flatMap((p) => p.operations);
  }

  /** Follows local `$ref`s; returns the target and its JSON pointer. */
  deref(node: unknown, pointer: string): { node: Node; pointer: string } {
    let current = node as Node;
    let at = pointer;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops += 1) {
      at = (current.$ref as string).replace(/^#/, '');
      current = this.at(at) as Node;
    }
    return { node: current ?? {}, pointer: at };
  }

  /** The value at a JSON pointer. */
  at(pointer: string): unknown {
    return pointer
      .split('/')
      .slice(1)
      .reduce<unknown>((node, raw) => (node as Node | undefined)?.[raw.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
  }

  /** A schema with `$ref` and single-`allOf` wrappers resolved, for reading its type and limits. */
  flatSchema(schema: unknown): Node {
    const layers: Node[] = [];
    let node = this.deref(schema, '').node;
    for (let hops = 0; hops < 20; hops += 1) {
      layers.push(node);
      const inner = Array.isArray(node.allOf) && node.allOf.length === 1 ? node.allOf[0] : undefined;
      if (!inner) break;
      node = this.deref(inner, '').node;
    }
    // Inner layers first, so the outer schema's own keywords win.
    const flat: Node = {};
    for (const layer of layers.reverse()) Object.assign(flat, layer);
    delete flat.allOf;
    delete flat.$ref;
    return flat;
  }

  private pathDoc(template: string, item: Node): PathDoc {
    const base = `/paths/${escape(template)}`;
    const shared = ((item.parameters as unknown[]) ?? []).map((p, i) => this.param(p, `${base}/parameters/${i}`));
    const operations: Operation[] = [];
    for (const method of METHODS) {
      const op = item[method] as Node | undefined;
      if (!op) continue;
      const opPtr = `${base}/${method}`;
      const own = ((op.parameters as unknown[]) ?? []).map((p, i) => this.param(p, `${opPtr}/parameters/${i}`));
      const params = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const responses: Record<string, ResponseDoc> = {};
      for (const [status, raw] of Object.entries((op.responses ?? {}) as Node)) {
        responses[status] = this.response(raw, `${opPtr}/responses/${escape(status)}`);
      }
      operations.push({
        id: String(op.operationId ?? `${method.toUpperCase()} ${template}`),
        method: method.toUpperCase(),
        template,
        params,
        body: op.requestBody ? this.requestBody(op.requestBody, `${opPtr}/requestBody`) : undefined,
        responses,
      });
    }
    return { template, methods: operations.map((o) => o.method), operations };
  }

  private param(raw: unknown, pointer: string): Param {
    const { node } = this.deref(raw, pointer);
    const examples = Object.values((node.examples ?? {}) as Record<string, Node>).map((e) => this.deref(e, '').node.value);
    return {
      name: String(node.name),
      in: String(node.in),
      required: node.required === true,
      schema: this.flatSchema(node.schema ?? {}),
      example: node.example ?? examples[0],
    };
  }

  private requestBody(raw: unknown, pointer: string): Operation['body'] {
    const { node, pointer: at } = this.deref(raw, pointer);
    const content = (node.content ?? {}) as Record<string, Node>;
    const media = content['application/json'] ?? Object.values(content)[0] ?? {};
    const mediaKey = content['application/json'] ? 'application/json' : (Object.keys(content)[0] ?? '');
    const examples: Example[] = [];
    if (media.example !== undefined) examples.push({ name: 'example', value: media.example });
    for (const [name, ex] of Object.entries((media.examples ?? {}) as Record<string, unknown>)) {
      const value = this.deref(ex, '').node.value;
      if (value !== undefined) examples.push({ name, value });
    }
    return {
      required: node.required === true,
      mediaType: mediaKey,
      pointer: `${at}/content/${escape(mediaKey)}/schema`,
      schema: this.flatSchema(media.schema ?? {}),
      examples,
    };
  }

  private response(raw: unknown, pointer: string): ResponseDoc {
    const { node, pointer: at } = this.deref(raw, pointer);
    const headers: ResponseDoc['headers'] = {};
    for (const [name, h] of Object.entries((node.headers ?? {}) as Node)) {
      const header = this.deref(h, `${at}/headers/${escape(name)}`);
      headers[name.toLowerCase()] = {
        required: header.node.required === true,
        schemaPointer: header.node.schema ? `${header.pointer}/schema` : undefined,
      };
    }
    return { pointer: at, content: (node.content ?? {}) as Record<string, Node>, headers };
  }
}

/** The pointer of the schema of one media type of a documented response. */
export function mediaSchemaPointer(response: ResponseDoc, media: string): string {
  return `${response.pointer}/content/${escape(media)}/schema`;
}

/** The documented response for a status (exact, then `4XX`-style range, then `default`). */
export function documentedResponse(op: Operation, status: number): ResponseDoc | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}
