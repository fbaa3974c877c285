import type { OpenApiDocument } from './spec';

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

/** Why a text value breaks the rule, or undefined when it keeps it. */
export type TextProblem = 'blank' | 'characters' | 'too long';

/** The text rule with the limit openapi.yaml gives it (`components.schemas.Text.maxLength`), for input REST's validator does not see (GraphQL arguments). */
export interface TextLimits {
  /** Most characters (code points, as JSON Schema counts them: an emoji is one). */
  readonly maxLength: number;
  problem(value: string): TextProblem | undefined;
}

/** The text rule of `doc`: its `Text` schema's `maxLength`. Throws (one line) when the spec does not give one. */
export function textLimits(doc: OpenApiDocument): TextLimits {
  const maxLength = (doc.components?.schemas?.Text as { maxLength?: unknown } | undefined)?.maxLength;
  if (!Number.isSafeInteger(maxLength) || (maxLength as number) < 1) throw new Error('openapi.yaml: components.schemas.Text needs a maxLength (the longest text field)');
  const max = maxLength as number;
  return {
    maxLength: max,
    problem(value) {
      if (!/\S/.test(value)) return 'blank';
      if (!TEXT_PATTERN.test(value)) return 'characters';
      // Counted in code points only when the UTF-16 length could be over (a cheap test first).
      if (value.length > max && [...value].length > max) return 'too long';
      return undefined;
    },
  };
}
