import { main } from '../../scripts/contract/cli';
import { runContractKit, type KitResult } from '../../scripts/contract/run';
import { testConfig } from '../../src/config';
import { resolvers } from '../../src/graphql/resolvers';
import { handlers } from '../../src/rest/handlers';
import type { Handlers } from '../../src/rest/types';
import { OPENAPI, SCHEMA, startService, type RunningService } from './service';

/**
 * A build that drifts from the contract in ways the service's own response validation would catch,
 * so it is switched off here: the kit, a black box over HTTP, must catch them instead.
 */
const brokenHandlers = {
  ...handlers,
  // Wrong shape: a string id, a number title, no pages.
  listBooks: async () => ({ status: 200, body: [{ id: 'one', title: 42 }] }),
  // Wrong status: 200 is not documented for a create.
  createItem: async ({ body }: { body: { name: string } }) => ({ status: 200, body: { id: 99, name: body.name } }),
  // Says 204 but deletes nothing.
  deleteTask: async () => ({ status: 204 }),
} as unknown as Handlers;

const brokenResolvers = {
  ...resolvers,
  // A non-null field resolved to null.
  Query: { ...resolvers.Query, books: () => [{ id: 1, title: null, pages: 3 }] },
} as never;

describe('contract kit against a broken instance', () => {
  let service: RunningService;
  let lines: string[];
  let result: KitResult;

  beforeAll(async () => {
    service = await startService({ handlers: brokenHandlers, resolvers: brokenResolvers, config: testConfig({ validateResponses: false }) });
    lines = [];
    result = await runContractKit({ baseUrl: service.baseUrl, openapiFile: OPENAPI, graphqlSchemaFile: SCHEMA, write: (l) => lines.push(l) });
  });
  afterAll(() => service.close());

  const failed = (prefix: string) => lines.filter((l) => l.startsWith(`FAIL ${prefix}`));

  it('when a handler returns the wrong shape, then the kit fails its checks and says what does not match', () => {
    expect(failed('listBooks: GET /books (documented example)')).toEqual([
      expect.stringMatching(/body does not match the spec's schema: .*\/0\/id must be integer; \/0\/title must be string/),
    ]);
  });

  it('when a handler answers an undocumented status, then the kit fails each example and names the status', () => {
    const lines = failed('createItem: POST /items example');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('status 200 is not documented for createItem (spec: 201,');
  });

  it('when a delete deletes nothing, then the kit sees the record is still there and unknown ids are not 404', () => {
    expect(failed('deleteTask: DELETE /tasks/')).toEqual([
      expect.stringMatching(/a record the kit created\) -> 2xx, then it is gone: expected 404, got 200/),
      expect.stringMatching(/with unknown id 9007199254740991 -> 404: expected 404, got 204/),
    ]);
  });

  it('when a resolver returns null for a non-null field, then the schema-driven query fails with the error', () => {
    expect(failed('POST /graphql query { books { id title pages } }')).toEqual([
      expect.stringMatching(/errors: .*Cannot return null for non-nullable field Book\.title/),
    ]);
  });

  it('when checks fail, then the summary counts them and nothing else is reported failed', () => {
    expect(lines[lines.length - 1]).toBe(`${result.passed} passed, ${result.failed} failed`);
    expect(result.failed).toBe(lines.filter((l) => l.startsWith('FAIL ')).length);
    expect(result.failed).toBeGreaterThanOrEqual(4);
    expect(result.passed).toBeGreaterThan(300);
  });

  it('when checks fail, then the command exits 1', async () => {
    const out: string[] = [];
    expect(await main(['--base-url', service.baseUrl, '--only', 'graphql'], (l) => out.push(l))).toBe(1);
    expect(out[out.length - 1]).toMatch(/^\d+ passed, [1-9]\d* failed$/);
  });
});
