import { buildSchema, isNonNullType, isObjectType } from 'graphql';
import { resolveSchema, type OpenApiDocument } from '../spec';
import { requestSchema, type ContractModel, type ResourceModel } from '../store/model';
import { HTTP_METHODS } from '../http/routes';

type Json = Record<string, unknown>;

/**
 * Where an operation on a collection could not be served from its stored records, one line each: a write
 * whose request body has a property its record does not store (where would it go?), a create that may leave
 * out a field its record requires and gives no default (what would the record hold?), a GraphQL field that is
 * non-null while its record may have no value for it, a merge patch (PATCH, `application/merge-patch+json`, RFC
 * 7396) whose `null` would remove a field the record requires, or that cannot remove an optional one. Checked at
 * start, so such a contract never serves a 500.
 */
export function storedShapeProblems(doc: OpenApiDocument, sdl: string | undefined, model: ContractModel): string[] {
  const problems: string[] = [];
  for (const resource of model.resources.values()) {
    if (!resource.schema) continue;
    for (const [template, create] of [[`/${resource.name}`, true], [`/${resource.name}/{id}`, false]] as const) {
      const item = doc.paths?.[template] as Json | undefined;
      for (const method of HTTP_METHODS) {
        if (method === 'get' || method === 'delete' || !item?.[method]) continue;
        const body = requestSchema(doc, template, method);
        if (!body.properties && !body.required) continue;
        problems.push(...requestProblems(`${method.toUpperCase()} ${template}`, resource, body, create && method === 'post'));
      }
    }
    const patch = mergePatchSchema(doc, `/${resource.name}/{id}`);
    if (patch) problems.push(...requestProblems(`PATCH /${resource.name}/{id}`, resource, patch, false), ...patchProblems(doc, resource, patch));
  }
  if (sdl !== undefined) {
    const schema = buildSchema(sdl);
    for (const [typeName, resource] of model.byType) {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) continue;
      for (const field of resource.fields) {
        const declared = type.getFields()[field.name];
        if (declared && isNonNullType(declared.type) && !(field.required && !field.nullable)) {
          problems.push(`schema.graphql ${typeName}.${field.name} is non-null, but a ${resource.label} record may have no value for it (make it nullable, or required in openapi.yaml)`);
        }
      }
    }
  }
  return problems;
}

const MERGE_PATCH = 'application/merge-patch+json';

/** The schema of a PATCH's merge patch on `template` (resolved), or undefined when the path has none. */
function mergePatchSchema(doc: OpenApiDocument, template: string): Json | undefined {
  const op = (doc.paths?.[template] as Json | undefined)?.patch as Json | undefined;
  const content = (resolveSchema(doc, op?.requestBody).content ?? {}) as Json;
  return MERGE_PATCH in content ? resolveSchema(doc, (content[MERGE_PATCH] as Json).schema) : undefined;
}

/** Whether a schema takes `null` (`type: [string, 'null']`, `nullable: true`, or a `null` in its enum). */
function takesNull(schema: Json): boolean {
  return (Array.isArray(schema.type) && schema.type.includes('null')) || schema.type === 'null' || schema.nullable === true || (Array.isArray(schema.enum) && schema.enum.includes(null));
}

/** A merge patch removes a field with `null`: only an optional field may be, and each optional field may be. */
function patchProblems(doc: OpenApiDocument, resource: ResourceModel, patch: Json): string[] {
  const problems: string[] = [];
  const operation = `PATCH /${resource.name}/{id}`;
  for (const [name, raw] of Object.entries((patch.properties as Json | undefined) ?? {})) {
    const field = resource.fields.find((f) => f.name === name);
    if (!field) continue; // requestProblems names it
    const nullable = takesNull(resolveSchema(doc, raw));
    if (field.required && nullable) problems.push(`${operation} takes null for ${name}, which would remove a field ${resource.label} requires (make ${name} non-null in the patch schema)`);
    if (!field.required && !nullable) problems.push(`${operation} cannot remove ${name}, an optional field of ${resource.label}: a merge patch removes a field with null (let ${name} be null in the patch schema: type: [<its type>, 'null'])`);
  }
  return problems;
}

function requestProblems(operation: string, resource: ResourceModel, body: Json, create: boolean): string[] {
  const problems: string[] = [];
  const properties = Object.keys((body.properties as Json | undefined) ?? {});
  const stored = new Set(resource.fields.map((f) => f.name));
  for (const property of properties) {
    if (!stored.has(property)) problems.push(`${operation} takes ${property}, which ${resource.label} does not store (add it to ${resource.label} in openapi.yaml)`);
  }
  if (create) {
    const required = new Set((body.required as string[] | undefined) ?? []);
    for (const field of resource.fields) {
      if (field.required && !field.parent && !('default' in field) && !required.has(field.name)) {
        problems.push(`${operation} may leave out ${field.name}, which ${resource.label} requires and gives no default (require it in the request, or give ${resource.label}.${field.name} a default)`);
      }
    }
  }
  return problems;
}
