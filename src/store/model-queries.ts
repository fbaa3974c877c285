import { getNamedType, isInputObjectType, isObjectType, type GraphQLField, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import type { OpenApiDocument } from '../spec';
import { ModelError, resolve, type ContractModel, type Json, type ResourceModel } from './model';
import { isOperator, OPERATORS, type Operator } from './query';

/**
 * What lists may be filtered and sorted by, read from the specs: openapi.yaml's `GET /{name}` query parameters (`field`,
 * `field[op]`, and `sort`'s items' `enum`), schema.graphql's Query fields' `where` (inputs of operators per field) and
 * `orderBy` (its fields), `@stored(field:)` naming a renamed field's stored one. A collection's model is both together.
 */
export function withQueries(doc: OpenApiDocument, schema: GraphQLSchema, model: ContractModel): ContractModel {
  const found = new Map<string, { filters: Map<string, Set<Operator>>; sortable: Set<string> }>();
  const of = (resource: ResourceModel) => {
    let entry = found.get(resource.name);
    if (!entry) found.set(resource.name, (entry = { filters: new Map(), sortable: new Set() }));
    return entry;
  };
  const storedField = (resource: ResourceModel, field: string, where: string) => {
    const model = resource.fields.find((f) => f.name === field);
    if (!model) throw new ModelError(`${where}: ${field} is not a stored field of ${resource.label}`);
    return model;
  };
  const addFilter = (resource: ResourceModel, field: string, op: string, where: string) => {
    const { kind } = storedField(resource, field, where);
    if (!isOperator(op) || !(OPERATORS[op] as readonly string[]).includes(kind)) throw new ModelError(`${where}: ${op} is no operator for ${kind} fields (${Object.keys(OPERATORS).join(', ')})`);
    const filters = of(resource).filters;
    if (!filters.has(field)) filters.set(field, new Set());
    filters.get(field)!.add(op);
  };

  const graphqlNames = new Map<string, Map<string, string>>();
  for (const [typeName, resource] of model.byType) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) continue;
    const names = new Map<string, string>();
    for (const field of Object.values(type.getFields())) {
      const stored = field.astNode?.directives?.find((d) => d.name.value === 'stored')?.arguments?.find((a) => a.name.value === 'field')?.value;
      if (stored?.kind !== 'StringValue') continue;
      storedField(resource, stored.value, `schema.graphql: ${typeName}.${field.name} @stored`);
      names.set(field.name, stored.value);
    }
    graphqlNames.set(resource.name, names);
  }

  for (const resource of model.resources.values()) {
    if (!resource.schema) continue;
    const where = `openapi.yaml: GET /${resource.name}`;
    const parameters = ((doc.paths[`/${resource.name}`]?.get as Json | undefined)?.parameters ?? []) as unknown[];
    for (const parameter of parameters.map((p) => resolve(doc, p))) {
      if (parameter.in !== 'query' || ['limit', 'offset', 'after'].includes(parameter.name as string)) continue;
      if (parameter.name === 'sort') {
        const values = (resolve(doc, resolve(doc, parameter.schema).items).enum ?? []) as string[];
        for (const value of values) of(resource).sortable.add(storedField(resource, value.replace(/^-/, ''), `${where} sort`).name);
        continue;
      }
      const match = /^([A-Za-z][A-Za-z0-9_]*)(?:\[([A-Za-z]+)\])?$/.exec(String(parameter.name));
      if (!match) throw new ModelError(`${where}: query parameter ${String(parameter.name)} is neither field nor field[op]`);
      addFilter(resource, match[1], match[2] ?? 'eq', `${where} ${String(parameter.name)}`);
    }
  }

  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    const whereArg = field.args.find((a) => a.name === 'where');
    const orderArg = field.args.find((a) => a.name === 'orderBy');
    if (!whereArg && !orderArg) continue;
    const typeName = nodeType(field)?.name;
    const resource = typeName ? model.byType.get(typeName) : undefined;
    const at = `schema.graphql: Query.${field.name}`;
    if (!resource) throw new ModelError(`${at} takes where/orderBy but lists no stored type`);
    const names = graphqlNames.get(resource.name)!;
    const whereType = whereArg && getNamedType(whereArg.type);
    for (const input of isInputObjectType(whereType) ? Object.values(whereType.getFields()) : []) {
      const ops = getNamedType(input.type);
      if (!isInputObjectType(ops)) throw new ModelError(`${at} where.${input.name} must be an input of operators`);
      for (const op of Object.keys(ops.getFields())) addFilter(resource, names.get(input.name) ?? input.name, op, `${at} where.${input.name}`);
    }
    const orderType = orderArg && getNamedType(orderArg.type);
    for (const input of isInputObjectType(orderType) ? Object.keys(orderType.getFields()) : []) {
      of(resource).sortable.add(storedField(resource, names.get(input) ?? input, `${at} orderBy`).name);
    }
  }

  const resources = new Map([...model.resources].map(([name, resource]) => [name, { ...resource, query: found.get(name) ?? resource.query, graphqlNames: graphqlNames.get(name) ?? resource.graphqlNames }]));
  return { resources, byType: new Map([...model.byType].map(([type, resource]) => [type, resources.get(resource.name)!])) };
}

/** The record type a Query field lists: `[Book!]!`, or the `node` of its connection's `edges` (`BookConnection`). */
function nodeType(field: GraphQLField<unknown, unknown>): GraphQLNamedType | undefined {
  const type = getNamedType(field.type);
  if (!isObjectType(type)) return undefined;
  const edges = type.getFields().edges;
  if (!edges) return type;
  const edge = getNamedType(edges.type);
  return isObjectType(edge) ? getNamedType(edge.getFields().node?.type) : undefined;
}
