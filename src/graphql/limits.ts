import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Introspection meta-fields (`__schema`, `__type`, `__typename`) and everything below them are not counted. */
function isIntrospection(name: string): boolean {
  return name.startsWith('__');
}

/**
 * Depth of a selection set: 1 for a level of fields, following fragments (each fragment's depth is
 * computed once; a fragment cycle counts as 0 here and is reported by the standard NoFragmentCycles rule).
 */
function selectionDepth(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  memo: Map<string, number>,
  visiting: Set<string>,
): number {
  if (!set) return 0;
  let deepest = 0;
  for (const selection of set.selections) {
    let depth = 0;
    if (selection.kind === Kind.FIELD) {
      if (isIntrospection(selection.name.value)) continue;
      depth = 1 + selectionDepth(selection.selectionSet, fragments, memo, visiting);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = selectionDepth(selection.selectionSet, fragments, memo, visiting);
    } else {
      const name = selection.name.value;
      const known = memo.get(name);
      if (known !== undefined) depth = known;
      else if (!visiting.has(name) && fragments.has(name)) {
        visiting.add(name);
        depth = selectionDepth(fragments.get(name)?.selectionSet, fragments, memo, visiting);
        visiting.delete(name);
        memo.set(name, depth);
      }
    }
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** Rejects an operation whose fields nest deeper than `maxDepth` (`{ users { posts { id } } }` is depth 3). */
export function depthLimit(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const memo = new Map<string, number>();
    return {
      OperationDefinition(node) {
        const depth = selectionDepth(node.selectionSet, fragments, memo, new Set());
        if (depth > maxDepth) {
          const name = node.name ? `Operation "${node.name.value}"` : 'The operation';
          context.reportError(
            new GraphQLError(`${name} is nested ${depth} levels deep; the maximum query depth is ${maxDepth}.`, {
              nodes: [node],
              extensions: { code: 'QUERY_TOO_DEEP' },
            }),
          );
        }
        return false;
      },
    };
  };
}

/** Rejects a document with more than `maxAliases` aliased fields (alias flooding multiplies work). */
export function aliasLimit(maxAliases: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    return {
      Field(node) {
        if (node.alias) aliases += 1;
      },
      Document: {
        leave(node) {
          if (aliases > maxAliases) {
            context.reportError(
              new GraphQLError(`The document uses ${aliases} aliases; the maximum is ${maxAliases}.`, {
                nodes: [node],
                extensions: { code: 'TOO_MANY_ALIASES' },
              }),
            );
          }
        },
      },
    };
  };
}

const OPENERS = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSERS = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * graphql-js parses recursively: a few thousand nested `{` overflow the stack within the token limit.
 * This pass lexes (flat, no recursion) and refuses a document whose braces, brackets and parentheses
 * nest deeper than `maxNesting` before the parser sees it. Lexing errors and the token limit are left
 * to the parser, which reports them in its own words.
 */
export function nestingError(query: string, maxNesting: number, maxTokens: number): GraphQLError | undefined {
  const lexer = new Lexer(new Source(query));
  let depth = 0;
  try {
    for (let tokens = 1, token = lexer.advance(); token.kind !== TokenKind.EOF; tokens += 1, token = lexer.advance()) {
      if (tokens > maxTokens) return undefined;
      if (CLOSERS.has(token.kind)) depth -= 1;
      else if (OPENERS.has(token.kind) && ++depth > maxNesting) {
        return new GraphQLError(`The document nests braces, brackets or parentheses more than ${maxNesting} levels deep; the query depth limit does not allow it.`, {
          extensions: { code: 'QUERY_TOO_DEEP' },
        });
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}
