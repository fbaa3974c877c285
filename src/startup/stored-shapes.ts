import { buildSchema, isNonNullType, isObjectType } from 'graphql';
import type { OpenApiDocument } from '../spec';
import { requestSchema, type ContractModel, type ResourceModel } from '../store/model';
import { HTTP_METHODS } from '../http/routes';

type Json = Record<string, unknown>;

/**
 * Where an operation on a collection could not be served from its stored records, one line each: a write
 * whose request body has a property its record does not store (where would it go?), a create that may leave
 * out a field its record requires and gives no default (what would the record hold?), a GraphQL field that is
 * non-null while its record may have no value for it. Checked at start, so such a contract never serves a 500.
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
