import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type Source, type ValidationRule } from 'graphql';
import { LRUCache } from 'lru-cache';
import { nestingError } from './limits';

export interface DocumentPreparer {
  /** The parsed document when `query` is within the limits and valid for the schema; its errors otherwise. */
  prepare(query: string): DocumentNode | readonly GraphQLError[];
  /**
   * graphql-http's `parse`: the document kept for this text if it was found valid before, else `query`
   * parsed within the limits (nesting, tokens); throws the GraphQLError that refuses it.
   */
  parse(query: string | Source): DocumentNode;
  /**
   * graphql-http's `validate`: no errors for a document this preparer found valid before, else graphql-js's
   * validation with `rules`, keeping the document if it is valid. graphql-http passes the same rules on every
   * call (the standard ones and its `validationRules`), which must be the preparer's.
   */
  validate(schema: GraphQLSchema, document: DocumentNode, rules?: readonly ValidationRule[]): readonly GraphQLError[];
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
  /** The documents found valid (those in the cache, and any still in use after it dropped them). */
  const valid = new WeakSet<DocumentNode>();
  const allRules = [...specifiedRules, ...rules];

  const parseWithin = (query: string): DocumentNode => {
    const cached = cache.get(query);
    if (cached) return cached;
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

  const validateOnce = (against: GraphQLSchema, document: DocumentNode, withRules: readonly ValidationRule[] = allRules): readonly GraphQLError[] => {
    if (valid.has(document)) return [];
    const errors = validate(against, document, withRules);
    if (errors.length > 0 || options.cacheSize <= 0) return errors;
    const query = document.loc?.source.body;
    if (query !== undefined && query.length <= MAX_CACHED_DOCUMENT_LENGTH) {
      valid.add(document);
      cache.set(query, document);
    }
    return errors;
  };

  return {
    cache,
    parse: (query) => parseWithin(typeof query === 'string' ? query : query.body),
    validate: validateOnce,
    prepare(query) {
      let document: DocumentNode;
      try {
        document = parseWithin(query);
      } catch (err) {
        if (err instanceof GraphQLError) return [err];
        throw err;
      }
      const errors = validateOnce(schema, document);
      return errors.length > 0 ? errors : document;
    },
  };
}
