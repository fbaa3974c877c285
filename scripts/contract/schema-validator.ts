import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { Node } from './spec-model';

const DOC_ID = 'urn:contract-kit:openapi';

/**
 * Validates values against schemas inside the OpenAPI document (OAS 3.1 schemas are JSON Schema
 * 2020-12). The whole document is registered once, so `#/components/...` references resolve
 * exactly as the spec wrote them; schemas are addressed by JSON pointer and compiled once.
 */
export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: Node) {
    // OpenAPI annotations (example, deprecated, discriminator...) are not JSON Schema keywords.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    this.ajv.addSchema({ ...structuredClone(doc), $id: DOC_ID }, DOC_ID);
  }

  /** Undefined when `value` matches the schema at `pointer`, else a one-line description of what is wrong. */
  validate(pointer: string, value: unknown): string | undefined {
    let fn = this.compiled.get(pointer);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `${DOC_ID}#${encodeURI(pointer)}` });
      this.compiled.set(pointer, fn);
    }
    if (fn(value)) return undefined;
    return (fn.errors ?? [])
      .slice(0, 3)
      .map((e) => {
        const extra = (e.params as { additionalProperty?: string }).additionalProperty;
        return `${e.instancePath || '(root)'} ${e.message}${extra ? ` '${extra}'` : ''}`;
      })
      .join('; ');
  }
}
