import {
  execute,
  getOperationAST,
  getVariableValues,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { isPromise, type MaybePromise } from '../store/types';

export interface CompiledExecutionOptions {
  /** Compiled operations kept (least recently used dropped); 0 runs everything with graphql-js. */
  cacheSize: number;
  /** Runs of a cached document with graphql-js before its query is compiled (a document used once is never compiled). */
  compileAfter: number;
  /** Told of each operation compiled (its name, or undefined for an anonymous one). */
  onCompiled?: (operationName: string | undefined) => void;
}

/** What the executor did, for tests and diagnostics. */
export interface ExecutionStats {
  compiled: number;
  /** Operations answered by their compiled form. */
  compiledRuns: number;
  /** Compiled runs whose result had errors, answered by graphql-js instead. */
  fallbacks: number;
}

export interface Executor {
  execute(args: ExecutionArgs): MaybePromise<ExecutionResult>;
  readonly stats: ExecutionStats;
}

/**
 * Runs operations with graphql-js, and hot read-only operations from a compiled form (graphql-jit),
 * which does the same work without graphql-js's per-field interpretation (measured in docs/maintainers/design.md,
 * "Speed tricks"). graphql-js stays the reference:
 *
 * - Validation is unchanged (done before this, by graphql-js, with the limits).
 * - Only `query` operations are compiled, and only once their document (the same cached DocumentNode)
 *   has run `compileAfter` times: mutations are never run twice, and a document sent once (or a flood
 *   of distinct ones) costs no compilation. Compiled operations are kept in a bounded LRU.
 * - Variables are coerced by graphql-js first; a coercion error is graphql-js's answer.
 * - A compiled run answers only when it produced data with no error. Any error (a resolver's, a null
 *   in a non-null field, storage down) and the operation runs again with graphql-js, whose answer (the
 *   standard messages, locations and null propagation) is the one sent. Reads have no side effects,
 *   and the request's loaders keep what was loaded, so the second run repeats no storage call.
 */
export function createExecutor(schema: GraphQLSchema, options: CompiledExecutionOptions): Executor {
  const stats: ExecutionStats = { compiled: 0, compiledRuns: 0, fallbacks: 0 };
  if (options.cacheSize <= 0) return { execute, stats };
  const uses = new WeakMap<DocumentNode, number>();
  // Per document, the compiled form of each of its operations (by operation name; '' for the only one).
  const compiled = new LRUCache<DocumentNode, Map<string, CompiledQuery | undefined>>({ max: options.cacheSize });

  const compiledFor = (args: ExecutionArgs, operation: OperationDefinitionNode): CompiledQuery | undefined => {
    const { document } = args;
    const key = args.operationName ?? '';
    const byOperation = compiled.get(document);
    if (byOperation?.has(key)) return byOperation.get(key);
    const count = (uses.get(document) ?? 0) + 1;
    uses.set(document, count);
    if (count <= options.compileAfter) return undefined;
    let query: CompiledQuery | undefined;
    try {
      const result = compileQuery(schema, document, args.operationName ?? undefined);
      query = isCompiledQuery(result) ? result : undefined;
    } catch {
      query = undefined;
    }
    // A document graphql-jit cannot compile stays with graphql-js (remembered, so it is tried once).
    if (query) {
      stats.compiled += 1;
      options.onCompiled?.(operation.name?.value);
    }
    compiled.set(document, (byOperation ?? new Map()).set(key, query));
    return query;
  };

  return {
    stats,
    execute(args) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'query') return execute(args);
      const query = compiledFor(args, operation);
      if (!query) return execute(args);
      let variables: Record<string, unknown> = {};
      if (operation.variableDefinitions?.length) {
        const coerced = getVariableValues(schema, operation.variableDefinitions, args.variableValues ?? {});
        if (coerced.errors) return execute(args);
        variables = coerced.coerced;
      }
      stats.compiledRuns += 1;
      const answer = (result: ExecutionResult): MaybePromise<ExecutionResult> => {
        if (result.errors === undefined && result.data) return result;
        stats.fallbacks += 1;
        return execute(args);
      };
      const result = query.query(args.rootValue, args.contextValue, variables);
      return isPromise(result) ? result.then(answer) : answer(result);
    },
  };
}
