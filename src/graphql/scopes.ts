import {
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  isObjectType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLDirective,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { AuthSettings } from '../config';
import { enforcedScopes } from '../http/auth';

/** The directive schema.graphql declares the scopes of its fields with. */
export const SCOPES_DIRECTIVE = 'requiresScopes';

/**
 * The scopes an operation of a document needs on this instance: those `@requiresScopes` (schema.graphql)
 * declares on each field it selects and on the type each returns (a mutation's result is a read of the stored
 * record: `addTodo` needs `todos:write`, and its Todo `todos:read`), through aliases, inline fragments and named
 * fragments, each enforced one (writes always, reads with AUTH_READS=token). Kept per document and operation
 * name: the document cache hands back the same document for the same text, so each is walked once.
 */
export function operationScopes(schema: GraphQLSchema, settings: AuthSettings): (document: DocumentNode, operationName: string | null | undefined) => readonly string[] | undefined {
  const directive = schema.getDirective(SCOPES_DIRECTIVE);
  if (!directive) throw new Error(`schema.graphql: the @${SCOPES_DIRECTIVE} directive is not declared`);
  const kept = new WeakMap<DocumentNode, Map<string, readonly string[]>>();
  return (document, operationName) => {
    let byName = kept.get(document);
    const name = operationName ?? '';
    const known = byName?.get(name);
    if (known) return known;
    const operation = getOperationAST(document, operationName);
    const root = operation && schema.getRootType(operation.operation);
    // No such operation: graphql-http refuses the document itself, and nothing runs.
    if (!operation || !root) return undefined;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    const scopes = new Set<string>();
    collect(schema, directive, root, operation.selectionSet, fragments, new Set(), scopes);
    const needed = enforcedScopes(settings, [...scopes]);
    if (!byName) kept.set(document, (byName = new Map()));
    byName.set(name, needed);
    return needed;
  };
}

function collect(
  schema: GraphQLSchema,
  directive: GraphQLDirective,
  parent: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  visited: Set<string>,
  scopes: Set<string>,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!field) continue;
      const type = getNamedType(field.type);
      for (const node of [field.astNode, type.astNode]) {
        const declared = node ? getDirectiveValues(directive, node) : undefined;
        for (const scope of (declared?.scopes as string[] | undefined) ?? []) scopes.add(scope);
      }
      if (selection.selectionSet && (isObjectType(type) || isInterfaceType(type))) collect(schema, directive, type, selection.selectionSet, fragments, visited, scopes);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
      if (type && (isObjectType(type) || isInterfaceType(type))) collect(schema, directive, type, selection.selectionSet, fragments, visited, scopes);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || visited.has(name)) continue;
      visited.add(name);
      const type = schema.getType(fragment.typeCondition.name.value);
      if (type && (isObjectType(type) || isInterfaceType(type))) collect(schema, directive, type, fragment.selectionSet, fragments, visited, scopes);
    }
  }
}
