import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { loadGraphqlSdl, loadOpenApi } from '../../src/spec';
import { parityProblems } from '../../src/startup/api-parity';
import { ContractError, PARITY_REFUSAL } from '../../src/startup/contract-check';
import { createMemoryStore } from '../../src/store/memory';
import { buildModel } from '../../src/store/model';
import { emptySeed } from '../../src/store/seed';

type Schemas = Record<string, { properties: Record<string, unknown>; required?: string[] }>;

/** openapi.yaml with `property` added to Todo and TodoCreate, and schema.graphql with `field` added to type Todo (and `extraSdl` at its end). */
function contract(name: string, property: Record<string, unknown>, field: string, extraSdl = '') {
  const openapi = loadOpenApi();
  const schemas = openapi.components.schemas as Schemas;
  for (const schema of ['Todo', 'TodoCreate']) schemas[schema].properties[name] = property;
  const sdl = loadGraphqlSdl().replace(/(type Todo\b[^{]*\{[\s\S]*?)\n\}/, `$1\n  "Added."\n  ${name}: ${field}\n}`) + extraSdl;
  return { openapi, sdl, model: buildModel(openapi, sdl) };
}

const problems = (parts: ReturnType<typeof contract>) => parityProblems(parts.openapi, parts.sdl, parts.model);

describe('fields REST and GraphQL must serve alike', () => {
  it("when the service's own contract is checked, then every field both APIs show is served alike", () => {
    expect(parityProblems(loadOpenApi(), loadGraphqlSdl(), buildModel(loadOpenApi(), loadGraphqlSdl()))).toEqual([]);
  });

  it('when an integer has a minimum and no maximum and GraphQL shows it as Int, then it is refused naming the field and the bound to add', () => {
    expect(problems(contract('priority', { type: 'integer', minimum: 0 }, 'Int'))).toEqual([
      'schema.graphql Todo.priority is Int but openapi.yaml Todo.priority is an integer with minimum 0 and no maximum, and GraphQL Int holds 32 bits: give it maximum: 2147483647',
    ]);
  });

  it('when an integer is bounded to 32 bits, then it passes; one bit more on either side does not', () => {
    expect(problems(contract('priority', { type: 'integer', minimum: -2147483648, maximum: 2147483647 }, 'Int'))).toEqual([]);
    expect(problems(contract('priority', { type: 'integer', minimum: 0, maximum: 2147483648 }, 'Int'))).toHaveLength(1);
    expect(problems(contract('priority', { type: 'integer', minimum: -2147483649, maximum: 10 }, 'Int'))[0]).toMatch(/give it minimum: -2147483648 \(or 0\)$/);
  });

  const LEVEL = '\n"Levels."\nenum Level {\n  "Low."\n  LOW\n  "High."\n  HIGH\n}\n';
  it.each([
    ['a number shown as Int', { type: 'number', minimum: 0, maximum: 10 }, 'Int', 'Int', 'is number: make it an integer (GraphQL Int has no fractions)'],
    ['an integer shown as String', { type: 'integer', minimum: 0, maximum: 10 }, 'String', 'String', 'is integer, which GraphQL String would answer as text: make it a string, or the GraphQL field Int'],
    ['a string shown as Boolean', { type: 'string' }, 'Boolean', 'Boolean', 'is string: make it a boolean'],
    ['a string shown as Float', { type: 'string' }, 'Float!', 'Float', 'is string: make it a number'],
    ['an array of numbers shown as [Int!]', { type: 'array', items: { type: 'number' } }, '[Int!]', '[Int!]', 'has items that are number: make it an integer (GraphQL Int has no fractions)'],
    ['a string enum with a value the GraphQL enum lacks', { type: 'string', enum: ['LOW', 'in-progress'] }, 'Level', 'Level', 'allows "in-progress", which the GraphQL enum does not have: add them to the enum Level, or remove them from openapi.yaml'],
    ['a string without an enum shown as an enum', { type: 'string' }, 'Level', 'Level', 'is string without an enum: list the GraphQL enum\'s values (LOW, HIGH) in its enum'],
  ])('when %s, then it is refused naming the field', (_case, property, field, shown, why) => {
    expect(problems(contract('priority', property, field, LEVEL))).toEqual([`schema.graphql Todo.priority is ${shown} but openapi.yaml Todo.priority ${why}`]);
  });

  it('when a string enum lists only values of the GraphQL enum, then it passes', () => {
    expect(problems(contract('priority', { type: 'string', enum: ['HIGH'] }, 'Level', LEVEL))).toEqual([]);
  });

  it('when a property REST declares writeOnly is a field of the GraphQL type, then it is refused: GraphQL would show what REST never does', () => {
    expect(problems(contract('secret', { type: 'string', writeOnly: true }, 'String'))).toEqual([
      'schema.graphql Todo.secret shows a field that openapi.yaml Todo.secret declares writeOnly (REST never answers it): remove it from the GraphQL type, or drop writeOnly',
    ]);
  });

  it('when such a contract is started, mocked or not, then createApp refuses with one line naming the field, before anything is stored', () => {
    const { openapi, sdl } = contract('priority', { type: 'integer', minimum: 0 }, 'Int');
    for (const mockUnimplemented of [false, true]) {
      let refused: unknown;
      try {
        createApp({ store: createMemoryStore(emptySeed()), config: testConfig({ mockUnimplemented }), logger: createLogger('silent'), openapi, sdl });
      } catch (err) {
        refused = err;
      }
      expect(refused).toBeInstanceOf(ContractError);
      expect((refused as Error).message).toBe(`${PARITY_REFUSAL}${problems(contract('priority', { type: 'integer', minimum: 0 }, 'Int'))[0]}`);
      expect((refused as Error).message).not.toContain('\n');
    }
  });
});
