import { ResponseDrift } from '../http/errors';
import { HTTP_METHODS } from '../http/routes';
import type { OpenApiDocument } from '../spec';
import { pointerSegment, schemasOf } from '../spec-schemas';


/** Checks one operation's answers against openapi.yaml; each throws ResponseDrift for a body the spec does not allow. */
export interface OperationCheck {
  /** A whole body of `status`. */
  body(status: number, value: unknown): void;
  /** One item of a list body of `status`, checked as it is written. */
  item(status: number): (value: unknown) => void;
}

type Node = Record<string, unknown>;

/**
 * Response validation from openapi.yaml, for every answer the REST registrar writes (on in tests and with
 * VALIDATE_RESPONSES): the status must be one the operation declares, and the body must match that
 * status's schema; a list that is written in batches has each item checked before it is written. A
 * drifting handler thus fails a test instead of reaching a client.
 */
export function responseChecks(doc: OpenApiDocument): (operationId: string) => OperationCheck {
  const schemas = schemasOf(doc);
  const byOperation = new Map<string, Map<number, string>>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as Node | undefined;
      if (!op) continue;
      const pointers = new Map<number, string>();
      for (const [status, response] of Object.entries((op.responses as Node) ?? {})) {
        const [base, declared] = resolve(doc, `/paths/${pointerSegment(path)}/${method}/responses/${status}`, response as Node);
        const media = Object.keys((declared.content as Node) ?? {})[0];
        pointers.set(Number(status), media ? `${base}/content/${pointerSegment(media)}/schema` : '');
      }
      byOperation.set(String(op.operationId), pointers);
    }
  }
  return (operationId) => {
    const pointers = byOperation.get(operationId) ?? new Map<number, string>();
    const schemaOf = (status: number): string => {
      const pointer = pointers.get(status);
      if (pointer === undefined) throw new ResponseDrift(`${operationId} answered ${status}, a status openapi.yaml does not declare`);
      return pointer;
    };
    const checker = (status: number, pointer: string, what: string) => {
      const problem = schemas.validator(pointer);
      return (value: unknown) => {
        const found = problem(value);
        if (found) throw new ResponseDrift(`${operationId} ${status} ${what} does not match openapi.yaml: ${found}`);
      };
    };
    return {
      body(status, value) {
        const pointer = schemaOf(status);
        if (pointer === '') {
          if (value !== undefined) throw new ResponseDrift(`${operationId} ${status} has a body, and openapi.yaml declares none`);
          return;
        }
        checker(status, pointer, 'body')(value);
      },
      item(status) {
        const [array, schema] = resolve(doc, schemaOf(status), at(doc, schemaOf(status)));
        if (schema.type !== 'array') throw new ResponseDrift(`${operationId} ${status} answered a list, and openapi.yaml declares no array`);
        const [items] = resolve(doc, `${array}/items`, (schema.items ?? {}) as Node);
        return checker(status, items, 'list item');
      },
    };
  };
}

/** The node at a JSON pointer of the document (`{}` when there is none). */
function at(doc: OpenApiDocument, pointer: string): Node {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Node | undefined)?.[key];
  }
  return (node ?? {}) as Node;
}

/** A node and the pointer where it really is, following `$ref`s to components (`#/components/...`). */
function resolve(doc: OpenApiDocument, pointer: string, node: Node): [string, Node] {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return [pointer, node];
  const target = ref.slice(1);
  return resolve(doc, target, at(doc, target));
}
