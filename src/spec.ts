import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** The project root: the nearest folder above this file that holds openapi.yaml (works from src/ and dist/src/). */
export const projectRoot: string = (() => {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'openapi.yaml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('openapi.yaml not found above ' + __dirname);
    dir = parent;
  }
  return dir;
})();

export const openapiPath = path.join(projectRoot, 'openapi.yaml');
const graphqlSchemaPath = path.join(projectRoot, 'schema.graphql');

/** A minimal view of the parts of an OpenAPI document this service reads. */
export interface OpenApiDocument {
  openapi: string;
  info: { version: string; title: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

/** The last document parsed from each file, with the text it came from. */
const parsed = new Map<string, { text: string; doc: OpenApiDocument }>();

/**
 * Reads and parses openapi.yaml. Callers that keep it get their own copy. Start-up reads it several
 * times: the text is parsed once (the YAML parse is a good part of the service's start time) and copied.
 */
export function loadOpenApi(file = openapiPath): OpenApiDocument {
  const text = readFileSync(file, 'utf8');
  let entry = parsed.get(file);
  if (entry?.text !== text) {
    entry = { text, doc: parse(text) as OpenApiDocument };
    parsed.set(file, entry);
  }
  return structuredClone(entry.doc);
}

export function loadGraphqlSdl(file = graphqlSchemaPath): string {
  return readFileSync(file, 'utf8');
}

/** What a local `$ref` (`#/components/parameters/Limit`) points at in `doc`; undefined when nothing is there. */
export function resolveRef(doc: object, ref: string): unknown {
  let target: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return target;
}

/** A schema with its local `$ref`s followed and `allOf` parts merged (keywords beside a `$ref` win). */
export function resolveSchema(doc: OpenApiDocument, schema: unknown, depth = 0): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null || depth > 32) return {};
  const { $ref, allOf, ...own } = schema as Record<string, unknown>;
  let merged: Record<string, unknown> = {};
  if (typeof $ref === 'string' && $ref.startsWith('#/')) {
    merged = resolveSchema(doc, resolveRef(doc, $ref), depth + 1);
  }
  for (const part of Array.isArray(allOf) ? allOf : []) {
    const next = resolveSchema(doc, part, depth + 1);
    merged = { ...merged, ...next, properties: { ...(merged.properties as Record<string, unknown> | undefined), ...(next.properties as Record<string, unknown> | undefined) } };
  }
  return { ...merged, ...own };
}
