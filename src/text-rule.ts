/**
 * The contract's text rule, for REST and GraphQL alike: at least one non-whitespace character, no NUL
 * (U+0000) and no unpaired surrogate (a lone U+D800..U+DFFF; with the `u` flag a valid pair is one code
 * point and passes). PostgreSQL cannot store NUL at all and the memory store would keep it, so the edge
 * refuses both. The same source text is openapi.yaml's `Text.pattern` (test/rest/text-rules.test.ts
 * holds them equal); it backtracks at most linearly, whatever the input.
 */
export const TEXT_PATTERN = /^\s*[^\s\u0000\uD800-\uDFFF][^\u0000\uD800-\uDFFF]*$/u;

/** What a text field that fails TEXT_PATTERN is told. */
export const TEXT_RULE = 'must contain a non-whitespace character, and no NUL character or unpaired surrogate';
