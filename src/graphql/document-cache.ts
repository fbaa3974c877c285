import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { LRUCache } from 'lru-cache';
import { nestingError } from './limits';

export interface DocumentPreparer {
  /** The parsed document when `query` is within the limits and valid for the schema; its errors otherwise. */
  prepare(query: string): DocumentNode | readonly GraphQLError[];
  /** Valid documents kept; exposed for tests and diagnostics. */
  readonly cache: LRUCache<string, DocumentNode>;
}

/** graphql-js's message when `parse(..., { maxTokens })` gives up. */
const TOKEN_LIMIT = /Document contains more tha[nt] \d+ tokens\. Parsing aborted\.$/;

/** Longer documents are still served, just not kept: the cache holds at most capacity x this many characters. */
const MAX_CACHED_DOCUMENT_LENGTH = 20_000;

/**
 * Parses (with the token limit) and validates (standard rules plus the limits) a document, keeping
 * only documents that passed both, keyed by their exact text. The schema and the rule set are fixed
 * for one preparer, so a cached document is exactly as valid as it was: an invalid document is never
 * stored and is parsed and validated again (and rejected) every time it comes.
 */
export function documentPreparer(schema: GraphQLSchema, rules: readonly ValidationRule[], options: { maxTokens: number; maxNesting: number; cacheSize: number }): DocumentPreparer {
  // lru-cache needs a max of at least 1; a size of 0 keeps nothing (nothing is ever set).
  const cache = new LRUCache<string, DocumentNode>({ max: Math.max(1, options.cacheSize) });
  const allRules = [...specifiedRules, ...rules];

  /** `query` parsed within the limits (nesting, tokens); throws the GraphQLError that refuses it. */
  const parseWithin = (query: string): DocumentNode => {
    const tooDeep = nestingError(query, options.maxNesting, options.maxTokens);
    if (tooDeep) throw tooDeep;
    try {
      return parse(query, { maxTokens: options.maxTokens });
    } catch (err) {
      // Last line of defence should the nesting pre-check ever let a stack overflow through.
      if (err instanceof RangeError) throw new GraphQLError('The document is nested too deeply to parse.', { extensions: { code: 'QUERY_TOO_DEEP' } });
      // graphql-js words this one as a syntax error ("more that N tokens"); say plainly which limit it is.
      if (!(err instanceof GraphQLError) || !TOKEN_LIMIT.test(err.message)) throw err;
      throw new GraphQLError(`The document has more than ${options.maxTokens} tokens, the limit; it was not parsed further.`, { extensions: { code: 'TOO_MANY_TOKENS' } });
    }
  };

  return {
    cache,
    prepare(query) {
      const cached = cache.get(query);
      if (cached) return cached;
      let document: DocumentNode;
      try {
        document = parseWithin(query);
      } catch (err) {
        if (err instanceof GraphQLError) return [err];
        throw err;
      }
      const errors = validate(schema, document, allRules);
      if (errors.length > 0) return errors;
      if (options.cacheSize > 0 && query.length <= MAX_CACHED_DOCUMENT_LENGTH) cache.set(query, document);
      return document;
    },
  };
}
