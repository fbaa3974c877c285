import { createHash } from 'node:crypto';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { KeptInOrder } from './kept-in-order';

const DOC_ID = 'urn:service:openapi';

/**
 * Validators for schemas inside an OpenAPI document (OpenAPI 3.1 schemas are JSON Schema 2020-12). The whole
 * document is registered once, so `#/components/...` references resolve exactly as the spec wrote them; a
 * schema is addressed by its JSON pointer and compiled once, on first use. Used by the seed loader, the
 * service's response checks and the contract-test kit (scripts/contract).
 */
export class SpecSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  /** `allErrors`: report every problem of a value (up to three are described), not only the first. */
  constructor(doc: object, { allErrors = false }: { allErrors?: boolean } = {}) {
    // OpenAPI annotations (example, deprecated, discriminator...) are not JSON Schema keywords.
    this.ajv = new Ajv2020({ strict: false, allErrors, validateFormats: false });
    this.ajv.addSchema({ ...structuredClone(doc), $id: DOC_ID }, DOC_ID);
  }

  /** A function that answers undefined when a value matches the schema at `pointer`, else one line saying what does not. */
  validator(pointer: string): (value: unknown) => string | undefined {
    const problems = this.problems(pointer);
    return (value) => {
      const errors = problems(value);
      return errors ? describe(errors) : undefined;
    };
  }

  /** A function that answers undefined when a value matches the schema at `pointer`, else Ajv's errors. */
  problems(pointer: string): (value: unknown) => readonly ErrorObject[] | undefined {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#${encodeURI(pointer)}` });
      this.compiled.set(pointer, validate);
    }
    const fn = validate;
    return (value) => (fn(value) ? undefined : (fn.errors ?? []));
  }

  /** Undefined when `value` matches the schema at `pointer`, else one line saying what does not. */
  validate(pointer: string, value: unknown): string | undefined {
    return this.validator(pointer)(value);
  }
}

const SHARED_DOCUMENTS = 8;
/**
 * SpecSchemas shared by every service of this process on the same document: their validators are pure functions,
 * compiled once. At most SHARED_DOCUMENTS, the one made longest ago goes first.
 */
const shared = new KeptInOrder<string, SpecSchemas>(SHARED_DOCUMENTS);

/**
 * The SpecSchemas of `doc`'s content (the same instance for an equal document): each service, seed check and test app
 * on the contract then compiles a schema once per process, not once each.
 */
export function schemasOf(doc: object, options: { allErrors?: boolean } = {}): SpecSchemas {
  const key = `${options.allErrors ? 'all' : 'first'}:${createHash('sha256').update(JSON.stringify(doc)).digest('base64')}`;
  let schemas = shared.get(key);
  if (!schemas) {
    schemas = new SpecSchemas(doc, options);
    shared.keep(key, schemas);
  }
  return schemas;
}

/** The first three problems, each as `<where> <message>` (naming an unknown property). */
function describe(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 3)
    .map((e) => {
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      return `${e.instancePath || '(root)'} ${e.message}${extra ? ` '${extra}'` : ''}`;
    })
    .join('; ');
}

/** A JSON pointer segment (RFC 6901): `/` and `~` escaped. */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
