import { checkContracts } from '../../scripts/contract-diff/gate';
import { fixture, lines } from './support';

// Each fixture in fixtures/graphql/ is base.graphql with one kind of change. The contract version is
// openapi.yaml's info.version, so the OpenAPI fixture decides whether the major was bumped.
const gate = (after: string, openapiAfter = 'base') =>
  checkContracts(
    { openapi: fixture('openapi/base.yaml'), graphql: fixture('graphql/base.graphql') },
    { openapi: fixture(`openapi/${openapiAfter}.yaml`), graphql: fixture(`graphql/${after}.graphql`) },
  );

describe('GraphQL gate: breaking changes fail', () => {
  test.each([
    ['field-removed', ["Book.pages: Field 'pages' was removed from object type 'Book' [refused]"]],
    ['field-type-changed', ["Book.pages: Field 'Book.pages' changed type from 'Int!' to 'String!' [refused]"]],
    ['required-argument-added', ["Mutation.addTodo.due: Argument 'due: String!' added to field 'Mutation.addTodo' [refused]"]],
    ['deprecated-field-removed', ["Todo.text: Field 'text' (deprecated) was removed from object type 'Todo' [refused]"]],
  ])('when the change is %s, then it is breaking and the gate fails', async (name, breaking) => {
    const result = await gate(name);

    expect(lines(result, 'breaking')).toEqual(breaking);
    expect(result.failed).toBe(true);
  });

  test('when a field that was never deprecated is removed, then a version bump is not enough', async () => {
    const result = await gate('field-removed', 'version-bump');

    expect(lines(result, 'breaking')).toEqual(["Book.pages: Field 'pages' was removed from object type 'Book' [refused]"]);
    expect(result.changes[0].note).toMatch(/^not deprecated in the base/);
    expect(result.failed).toBe(true);
  });
});

describe('GraphQL gate: safe and dangerous changes pass', () => {
  test.each([
    ['field-added', ["Book.isbn: Field 'isbn' was added to object type 'Book'"]],
    [
      'deprecation-added',
      [
        "Book.pages.@deprecated: Field 'Book.pages' is deprecated",
        "Book.pages.@deprecated: Directive 'deprecated' was added to field 'Book.pages'",
        "Book.pages.@deprecated.reason: Argument 'reason' was added to '@deprecated'",
      ],
    ],
  ])('when the change is %s, then it is safe and the gate passes', async (name, safe) => {
    const result = await gate(name);

    expect(lines(result, 'safe')).toEqual(safe);
    expect(result.changes.filter((c) => c.level !== 'safe')).toEqual([]);
    expect(result.failed).toBe(false);
  });

  test('when an optional argument is added, then it is dangerous and the gate passes', async () => {
    const result = await gate('optional-argument-added');

    expect(lines(result, 'dangerous')).toEqual(["Query.todos.done: Argument 'done: Boolean' added to field 'Query.todos'"]);
    expect(result.failed).toBe(false);
  });
});

describe('GraphQL gate: removal after deprecation', () => {
  test('when a field deprecated in the base is removed with a major version bump, then it passes', async () => {
    const result = await gate('deprecated-field-removed', 'version-bump');

    expect(lines(result, 'breaking')).toEqual(["Todo.text: Field 'text' (deprecated) was removed from object type 'Todo' [announced]"]);
    expect(result.changes[0].note).toBe('announced: deprecated in the base, version 1.0.0 -> 2.0.0');
    expect(result.failed).toBe(false);
  });

  // Arguments, input fields and enum values can carry @deprecated too; the rule is the same for each.
  const SDL = (done: string, a: string, b: string) =>
    `type Query { todos(${done}q: Q): [E!]! } input Q { ${a}c: String } enum E { A ${b} }`;
  const deprecatedAll = SDL('done: Boolean @deprecated(reason: "x"), ', 'a: String @deprecated(reason: "y") ', 'B @deprecated(reason: "z")');
  const deprecatedNone = SDL('done: Boolean, ', 'a: String ', 'B');
  const removedAll = SDL('', '', '');

  test.each([
    ['deprecated in the base', 'announced', deprecatedAll],
    ['not deprecated in the base', 'refused', deprecatedNone],
  ])('when an argument, an input field and an enum value %s are removed with a bump, then each is %s', async (_, verdict, before) => {
    const result = await checkContracts(
      { openapi: fixture('openapi/base.yaml'), graphql: before },
      { openapi: fixture('openapi/version-bump.yaml'), graphql: removedAll },
    );

    expect(lines(result, 'breaking')).toEqual([
      expect.stringMatching(new RegExp(`^Query\\.todos\\.done: Argument 'done: Boolean' was removed .* \\[${verdict}\\]$`)),
      expect.stringMatching(new RegExp(`^Q\\.a: Input field 'a' .*was removed .* \\[${verdict}\\]$`)),
      expect.stringMatching(new RegExp(`^E\\.B: Enum value 'B' .*was removed .* \\[${verdict}\\]$`)),
    ]);
    expect(result.failed).toBe(verdict === 'refused');
  });
});
