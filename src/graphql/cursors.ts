import { GraphQLError, TypeInfo, getNamedType, visit, visitWithTypeInfo, type ASTVisitor, type DocumentNode, type GraphQLField, type GraphQLSchema, type ValidationContext } from 'graphql';
import { wellFormedCursor } from '../store/query';

/**
 * The `after` argument of a Relay connection field (`booksConnection(after: String)`) takes only a cursor this
 * service made (src/store/query.ts): a string it did not make, or one changed in any way, is refused before
 * anything runs. Written as `String` in schema.graphql, as Relay clients declare it (`$after: String`); checked
 * here: a literal by a validation rule, a variable's value before execution.
 */

/** Whether the field being visited is a connection's and `name` its cursor argument. */
const isCursorArgument = (typeInfo: { getFieldDef(): GraphQLField<unknown, unknown> | null | undefined }, name: string): boolean => {
  const field = typeInfo.getFieldDef();
  return name === 'after' && !!field && /Connection$/.test(getNamedType(field.type).name);
};

const refusal = (where: string) => `${where}: not a cursor this service made (an endCursor or cursor of the same list and order, unchanged).`;

/** The validation rule: a literal `after` of a connection field must be a cursor this service made. */
export function cursorArguments(context: ValidationContext): ASTVisitor {
  return {
    Argument(node) {
      if (!isCursorArgument(context, node.name.value) || node.value.kind !== 'StringValue') return;
      if (!wellFormedCursor(node.value.value)) context.reportError(new GraphQLError(refusal('Argument "after"'), { nodes: node, extensions: { code: 'BAD_USER_INPUT' } }));
    },
  };
}

/** The variables each document passes as a connection's `after`, worked out once per document. */
export function cursorVariables(schema: GraphQLSchema): (document: DocumentNode) => readonly string[] {
  const known = new WeakMap<DocumentNode, readonly string[]>();
  return (document) => {
    let names = known.get(document);
    if (!names) {
      const found = new Set<string>();
      const typeInfo = new TypeInfo(schema);
      visit(document, visitWithTypeInfo(typeInfo, { Argument: (node) => void (isCursorArgument(typeInfo, node.name.value) && node.value.kind === 'Variable' && found.add(node.value.name.value)) }));
      known.set(document, (names = [...found]));
    }
    return names;
  };
}

/** The refusals of the request's variables given as a connection's `after` that are not cursors this service made. */
export function cursorVariableErrors(names: readonly string[], variables: Readonly<Record<string, unknown>> | null | undefined): GraphQLError[] {
  return names
    .filter((name) => typeof variables?.[name] === 'string' && !wellFormedCursor(variables[name] as string))
    .map((name) => new GraphQLError(refusal(`Variable "$${name}"`), { extensions: { code: 'BAD_USER_INPUT' } }));
}
