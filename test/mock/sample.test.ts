import { fromPattern, SchemaSampler } from '../../src/mock/sample';
import { HTTP_METHODS } from '../../src/http/spec-routes';
import { loadOpenApi } from '../../src/spec';
import { pointerSegment, SpecSchemas } from '../../src/spec-schemas';

type Node = Record<string, unknown>;

describe('schema sampler', () => {
  const doc = loadOpenApi();
  const schemas = new SpecSchemas(doc);
  const sampler = new SchemaSampler(doc);

  /** Every schema of openapi.yaml's components, and every response schema written in place. */
  const pointers: string[] = Object.keys(doc.components.schemas).map((name) => `/components/schemas/${pointerSegment(name)}`);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const responses = ((item[method] as Node | undefined)?.responses ?? {}) as Record<string, Node>;
      for (const [status, response] of Object.entries(responses)) {
        for (const media of Object.keys((response.content ?? {}) as Node)) {
          pointers.push(`/paths/${pointerSegment(path)}/${method}/responses/${status}/content/${pointerSegment(media)}/schema`);
        }
      }
    }
  }

  it.each(pointers)('when the schema at %s is sampled, then the value is valid against it', (pointer) => {
    let node: unknown = doc;
    for (const key of pointer.split('/').slice(1)) node = (node as Node)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
    expect(schemas.validate(pointer, sampler.sample(node))).toBeUndefined();
  });

  it.each([
    [{ type: 'integer', exclusiveMinimum: 10, multipleOf: 5 }],
    [{ type: 'number', minimum: -3.5, maximum: -1 }],
    [{ type: 'string', pattern: '^[a-f0-9]{8}-(?:x|y)+\\.json$' }],
    [{ type: 'string', pattern: '^\\d{3,5}[^a-z\\d]$', minLength: 5 }],
    [{ type: 'string', minLength: 30, maxLength: 31 }],
    [{ type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 3, uniqueItems: true }],
    [{ type: ['null', 'boolean'] }],
    [{ type: 'object', required: ['a', 'b'], additionalProperties: { type: 'integer' }, minProperties: 3, properties: { a: { type: 'string' } } }],
    [{ anyOf: [{ type: 'string', format: 'email' }, { type: 'integer' }] }],
    [{ allOf: [{ type: 'string' }, { minLength: 4 }, { maxLength: 4 }] }],
  ])('when a schema with bounds (%j) is sampled, then the value is valid against it', (schema) => {
    const value = new SchemaSampler({}).sample(schema);
    expect(new SpecSchemas({ schema }).validate('/schema', value)).toBeUndefined();
  });

  it('when a pattern uses lookarounds, then the generator gives up instead of answering a string that does not match', () => {
    expect(fromPattern('^(?=a)b$', 1)).toBeUndefined();
    expect(fromPattern('^[A-Z]{2}\\d+$', 4)).toMatch(/^[A-Z]{2}\d+$/);
  });
});
