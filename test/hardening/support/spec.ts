import Ajv2020 from 'ajv/dist/2020';
import { loadOpenApi } from '../../../src/spec';

type Json = Record<string, unknown>;

export interface SpecOperation {
  operationId: string;
  method: string;
  /** The spec's template, e.g. /books/{id}. */
  template: string;
  pathParams: { name: string; schema: Json }[];
  queryParams: string[];
  /** JSON schema of the request body (by $ref into the spec), if the operation takes one. */
  bodySchema?: Json;
  /** Documented statuses, each with its media type ('' for no body). */
  responses: Record<number, { media: string; schemaRef?: string; headers: string[] }>;
}

const pointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Every operation openapi.yaml declares, with what a test needs to call it and check its answers. */
export function loadOperations(): { operations: SpecOperation[]; validate: (ref: string, value: unknown) => string | undefined } {
  const doc = loadOpenApi() as unknown as Json;
  const components = doc.components as Record<string, Record<string, Json>>;
  const deref = (value: Json): Json => {
    const ref = value.$ref as string | undefined;
    if (!ref) return value;
    const [, , section, name] = ref.split('/');
    return deref(components[section][name]);
  };
  const refOf = (value: Json, fallback: string[]): string[] => {
    const ref = value.$ref as string | undefined;
    return ref ? ref.slice(2).split('/') : fallback;
  };
  const operations: SpecOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const params = [...((item.parameters as Json[]) ?? []), ...((op.parameters as Json[]) ?? [])].map(deref);
      const responses: SpecOperation['responses'] = {};
      for (const [status, raw] of Object.entries(op.responses as Record<string, Json>)) {
        const base = refOf(raw, ['paths', template, method, 'responses', status]);
        const response = deref(raw);
        const media = Object.keys((response.content as Json) ?? {})[0] ?? '';
        responses[Number(status)] = {
          media,
          schemaRef: media ? `openapi#/${pointer([...base, 'content', media, 'schema'])}` : undefined,
          headers: Object.keys((response.headers as Json) ?? {}).map((h) => h.toLowerCase()),
        };
      }
      const body = op.requestBody as Json | undefined;
      operations.push({
        operationId: String(op.operationId),
        method: method.toUpperCase(),
        template,
        pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: String(p.name), schema: deref(p.schema as Json) })),
        queryParams: params.filter((p) => p.in === 'query').map((p) => String(p.name)),
        bodySchema: body ? { $ref: `openapi#/${pointer(['paths', template, method, 'requestBody', 'content', 'application/json', 'schema'])}` } : undefined,
        responses,
      });
    }
  }
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addSchema(doc, 'openapi');
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const validate = (ref: string, value: unknown): string | undefined => {
    let check = compiled.get(ref);
    if (!check) compiled.set(ref, (check = ajv.compile({ $ref: ref })));
    return check(value) ? undefined : ajv.errorsText(check.errors);
  };
  return { operations, validate };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** What is wrong with an answer to `op` by the contract: an undocumented status, a body of the wrong type or shape. */
export function contractProblems(op: SpecOperation, answer: Answer, validate: (ref: string, value: unknown) => string | undefined): string[] {
  const problems: string[] = [];
  const declared = op.responses[answer.status];
  if (!declared) return [`status ${answer.status} is not documented for ${op.operationId}`];
  const type = String(answer.headers['content-type'] ?? '');
  if (!declared.media) {
    if (answer.text !== '') problems.push(`status ${answer.status} should have no body`);
    return problems;
  }
  if (!type.startsWith(declared.media)) problems.push(`content-type ${type} is not ${declared.media}`);
  let value: unknown = answer.text;
  if (declared.media === 'application/json') {
    try {
      value = JSON.parse(answer.text);
    } catch {
      return [...problems, 'body is not JSON'];
    }
  } else if (/[\r\n]/.test(answer.text.trim())) {
    problems.push('text error is not one line');
  }
  const invalid = declared.schemaRef && validate(declared.schemaRef, value);
  if (invalid) problems.push(`body does not match the spec: ${invalid}`);
  for (const header of declared.headers) {
    if ((header === 'location' || header === 'retry-after') && answer.headers[header] === undefined) problems.push(`missing ${header}`);
  }
  return problems;
}
