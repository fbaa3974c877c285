import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { OpenApiDocument } from './spec';

const DOC_ID = 'urn:service:openapi';

/**
 * Validators for schemas inside openapi.yaml (OpenAPI 3.1 schemas are JSON Schema 2020-12). The whole
 * document is registered once, so `#/components/...` references resolve exactly as the spec wrote them;
 * a schema is addressed by its JSON pointer and compiled once, on first use.
 */
export class SpecSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    // OpenAPI annotations (example, deprecated...) are not JSON Schema keywords; the spec declares no formats.
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
    this.ajv.addSchema({ ...structuredClone(doc), $id: DOC_ID }, DOC_ID);
  }

  /** A function that answers undefined when a value matches the schema at `pointer`, else one line saying what does not. */
  validator(pointer: string): (value: unknown) => string | undefined {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#${encodeURI(pointer)}` });
      this.compiled.set(pointer, validate);
    }
    const fn = validate;
    return (value) => (fn(value) ? undefined : this.ajv.errorsText(fn.errors, { dataVar: '' }));
  }
}

/** A JSON pointer segment (RFC 6901): `/` and `~` escaped. */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
