import type { OperationInfo, Route } from '../http/routes';
import type { Logger } from '../logger';
import type { OpenApiDocument } from '../spec';
import { missingParts, type ContractParts } from '../startup/contract-check';
import { fieldsToMock } from './graphql';
import { restMocks, type MockAnswer } from './rest';

/** What the service mocks (MOCK_UNIMPLEMENTED), for the REST registrar and the GraphQL schema. */
export interface MockPlan {
  /** The answer of an operation with no handler (src/rest/registrar.ts binds it). */
  rest: (route: Route, op: OperationInfo) => MockAnswer;
  /** schema.graphql fields with no resolver, as `Type.field` (src/graphql/schema.ts mocks them). */
  graphqlFields: string[];
}

/**
 * With MOCK_UNIMPLEMENTED on: what has no handler or resolver answers from the contract instead of
 * stopping the start (src/startup/contract-check.ts names the same parts). Logs one line listing it.
 */
export function planMocks(parts: ContractParts & { openapi: OpenApiDocument; sdl: string }, logger: Logger): MockPlan {
  const missing = missingParts(parts);
  const graphqlFields = fieldsToMock(parts.sdl, missing.fields, parts.resolvers ?? {});
  const listed = [
    ...(missing.operations.length ? [`openapi.yaml operations ${missing.operations.join(', ')}`] : []),
    ...(graphqlFields.length ? [`schema.graphql fields ${graphqlFields.join(', ')}`] : []),
  ];
  logger.info(
    { mockedOperations: missing.operations, mockedFields: graphqlFields },
    listed.length ? `MOCK_UNIMPLEMENTED: mocking ${listed.join('; ')}` : 'MOCK_UNIMPLEMENTED: everything is implemented, nothing is mocked',
  );
  return { rest: restMocks(parts.openapi), graphqlFields };
}
