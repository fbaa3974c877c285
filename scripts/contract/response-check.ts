import type { HttpResponse } from './http';
import { CheckFailure, expect } from './reporter';
import type { SpecSchemas } from '../../src/spec-schemas';
import { documentedResponse, mediaSchemaPointer, type Operation, type ResponseDoc } from './spec-model';

/** What a check expects beyond "the response is one the spec documents". */
export interface Expectation {
  /** An exact status, or 'success' for any documented 2xx. */
  status?: number | 'success';
}

/** The response body parsed per its media type: JSON for `application/json` and `+json`, else the text. */
export function parsedBody(res: HttpResponse): unknown {
  if (res.media === 'application/json' || res.media.endsWith('+json')) {
    try {
      return JSON.parse(res.text);
    } catch {
      throw new Error('not valid JSON');
    }
  }
  return res.text;
}

/** Header values are strings on the wire: read integers and booleans for their schema. */
function headerValue(raw: string): unknown {
  if (/^-?\d+$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

/** Checks a response body and media type against one documented response object. */
export function checkAgainstDoc(validator: SpecSchemas, doc: ResponseDoc, res: HttpResponse, label: string): unknown {
  const medias = Object.keys(doc.content);
  if (medias.length === 0) {
    expect(res.text === '', `${label}: the spec documents no body, got ${JSON.stringify(res.text.slice(0, 80))}`);
    return undefined;
  }
  expect(res.media !== '', `${label}: no Content-Type (spec: ${medias.join(' or ')})`);
  expect(medias.includes(res.media), `${label}: Content-Type ${res.media} is not documented (spec: ${medias.join(' or ')})`);
  let body: unknown;
  try {
    body = parsedBody(res);
  } catch {
    throw new CheckFailure(`${label}: body is not valid JSON: ${JSON.stringify(res.text.slice(0, 80))}`);
  }
  const problem = validator.validate(mediaSchemaPointer(doc, res.media), body);
  expect(!problem, `${label}: body does not match the spec's schema: ${problem}; body ${res.text.slice(0, 200)}`);
  for (const [name, header] of Object.entries(doc.headers)) {
    const raw = res.headers.get(name);
    if (raw === null) {
      expect(!header.required, `${label}: required header ${name} is missing`);
      continue;
    }
    const headerProblem = header.schemaPointer && validator.validate(header.schemaPointer, headerValue(raw));
    expect(!headerProblem, `${label}: header ${name}: ${JSON.stringify(raw)} ${headerProblem}`);
  }
  return body;
}

/**
 * The core contract check: the status is one the operation documents (and the expected one), and
 * the media type, body and documented headers match that response's declaration. Returns the body.
 */
export function checkResponse(
  validator: SpecSchemas,
  op: Operation,
  res: HttpResponse,
  expectation: Expectation = {},
): unknown {
  const label = `${op.method} ${op.template} -> ${res.status}`;
  const doc = documentedResponse(op, res.status);
  const documented = Object.keys(op.responses).join(', ');
  expect(doc, `status ${res.status} is not documented for ${op.id} (spec: ${documented}); body ${res.text.slice(0, 200)}`);
  if (expectation.status === 'success') {
    expect(res.status >= 200 && res.status < 300, `expected a 2xx, got ${res.status}: ${res.text.slice(0, 200)}`);
  } else if (expectation.status !== undefined) {
    expect(res.status === expectation.status, `expected ${expectation.status}, got ${res.status}: ${res.text.slice(0, 200)}`);
  }
  return checkAgainstDoc(validator, doc, res, label);
}
