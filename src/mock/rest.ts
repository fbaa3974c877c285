import type { Request } from 'express';
import { ApiError } from '../http/errors';
import type { OperationInfo, Route } from '../http/routes';
import type { OpenApiDocument } from '../spec';
import { SchemaSampler } from './sample';

/**
 * The response header on every answer of a mocked operation: where its body came from, `example`
 * (the media type's `example`), `example=<name>` (one of its `examples`), `schema` (generated from the
 * response schema) or `empty` (the response declares no body).
 */
export const MOCK_HEADER = 'X-Mock';

/** What a mocked operation answers, for the registrar to write as it writes a handler's result. */
export interface MockResult {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

/** The answer of one operation that has no handler, from the request's `Prefer` header and openapi.yaml. */
export type MockAnswer = (req: Request) => MockResult;

type Node = Record<string, unknown>;

/** One declared response of an operation, read once: its example(s), schema and required headers. */
interface DeclaredResponse {
  hasBody: boolean;
  /** The media type's `example`, when it is the operation's own (see restMocks). */
  example?: { value: unknown };
  examples: Map<string, unknown>;
  /** The examples are the operation's own: the first answers when none is asked for. */
  ownExamples: boolean;
  /** The media type's schema, sampled (once, on first use) when there is no example. */
  schema?: unknown;
  requiredHeaders: Map<string, () => string>;
}

/**
 * Answers for the operations of openapi.yaml that have no handler (MOCK_UNIMPLEMENTED), as Prism's mock
 * server does: the lowest 2xx status the operation declares, with its media type's `example` (or the
 * first of its `examples`), else a body generated from the response schema (./sample.ts). An example is the
 * operation's own when its response is written in the operation, or is a `components/responses` entry no other
 * operation uses; a response shared by several operations (`JsonNotFound`: `Book 42 not found`) documents
 * one of them, so its examples answer only when asked for by name, and its body otherwise comes from the schema:
 * a mocked answer never shows another resource's example. The request
 * header `Prefer: code=404` picks another declared status, `Prefer: example=<name>` a named example; both
 * may be given (`Prefer: code=404, example=missing`). A preference the spec cannot satisfy (a status it
 * does not declare, an example it does not name) is a 400 saying what it declares. Headers the response
 * declares `required` are sent, from their example or schema; the registrar adds what it always adds (ETag).
 * The request has been validated like any other by then.
 */
export function restMocks(doc: OpenApiDocument): (route: Route, op: OperationInfo) => MockAnswer {
  const sampler = new SchemaSampler(doc);
  const deref = (value: unknown): Node => {
    let node = (value ?? {}) as Node;
    for (let hops = 0; typeof node.$ref === 'string' && hops < 32; hops += 1) {
      let target: unknown = doc;
      for (const raw of node.$ref.slice(2).split('/')) target = (target as Node | undefined)?.[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
      node = (target ?? {}) as Node;
    }
    return node;
  };
  // How many operations use each `#/components/responses/...` entry.
  const uses = new Map<string, number>();
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item ?? {})) {
      for (const response of Object.values(((operation as Node | undefined)?.responses ?? {}) as Node)) {
        const ref = (response as Node | undefined)?.$ref;
        if (typeof ref === 'string') uses.set(ref, (uses.get(ref) ?? 0) + 1);
      }
    }
  }
  return (route, op) => {
    const spec = deref(doc.paths[route.template]?.[op.method.toLowerCase()]);
    const responses = new Map<number, DeclaredResponse>();
    for (const [status, raw] of Object.entries(deref(spec.responses))) {
      if (!/^\d{3}$/.test(status)) continue;
      const ref = (raw as Node).$ref;
      const own = typeof ref !== 'string' || (uses.get(ref) ?? 0) <= 1;
      const response = deref(raw);
      const media = op.responseMedia[Number(status)];
      const content = media ? deref((response.content as Node)[media]) : undefined;
      const examples = new Map<string, unknown>(Object.entries((content?.examples ?? {}) as Node).map(([name, ex]) => [name, deref(ex).value]));
      const requiredHeaders = new Map<string, () => string>();
      for (const [name, rawHeader] of Object.entries((response.headers ?? {}) as Node)) {
        const header = deref(rawHeader);
        // The registrar sets the ETag of the body it writes.
        if (header.required !== true || (name.toLowerCase() === 'etag' && op.etagStatuses.includes(Number(status)))) continue;
        requiredHeaders.set(name, () => String(header.example ?? sampler.sample(header.schema)));
      }
      responses.set(Number(status), {
        hasBody: content !== undefined,
        example: own && content && 'example' in content ? { value: content.example } : undefined,
        examples,
        ownExamples: own,
        schema: content?.schema,
        requiredHeaders,
      });
    }
    const declared = [...responses.keys()].sort((a, b) => a - b);
    const success = declared.find((status) => status >= 200 && status < 300) ?? declared[0];
    const samples = new Map<number, unknown>();
    return (req) => {
      const prefer = preferences(req.get('Prefer'));
      const status = prefer.code === undefined ? success : Number(prefer.code);
      const response = responses.get(status);
      if (!response) {
        const asked = prefer.code === undefined ? 'a response' : `Prefer: code=${prefer.code}`;
        throw new ApiError(400, `Mocked operation ${op.operationId} cannot answer ${asked}: openapi.yaml declares ${declared.join(', ') || 'no status'}`);
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of response.requiredHeaders) headers[name] = value();
      let body: unknown;
      let source: string;
      if (prefer.example !== undefined) {
        if (!response.examples.has(prefer.example)) {
          const names = [...response.examples.keys()];
          throw new ApiError(400, `Mocked operation ${op.operationId} has no example "${prefer.example}" for ${status}: openapi.yaml names ${names.length ? names.join(', ') : 'none'}`);
        }
        body = response.examples.get(prefer.example);
        source = exampleSource(prefer.example);
      } else if (!response.hasBody) {
        source = 'empty';
      } else if (response.example) {
        body = response.example.value;
        source = 'example';
      } else if (response.ownExamples && response.examples.size > 0) {
        const [name, value] = response.examples.entries().next().value!;
        body = value;
        source = exampleSource(name);
      } else {
        if (!samples.has(status)) samples.set(status, sampler.sample(response.schema));
        body = samples.get(status);
        source = 'schema';
      }
      headers[MOCK_HEADER] = source;
      return { status, headers, body: structuredClone(body) };
    };
  };
}

/** The mock header's value for a named example: header values are printable ASCII, so other characters are percent-encoded. */
function exampleSource(name: string): string {
  return `example=${name.replace(/[^\x20-\x7e]/gu, encodeURIComponent)}`;
}

/** `code` and `example` of a Prefer header (RFC 7240): `code=404, example=missing` (or `;`-separated, values optionally quoted). */
function preferences(header: string | undefined): { code?: string; example?: string } {
  const found: { code?: string; example?: string } = {};
  for (const part of (header ?? '').split(/[,;]/)) {
    const match = /^\s*(code|example)\s*=\s*(?:"([^"]*)"|([^\s"]*))\s*$/i.exec(part);
    if (match) found[match[1].toLowerCase() as 'code' | 'example'] = match[2] ?? match[3];
  }
  return found;
}
