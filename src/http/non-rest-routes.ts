/**
 * The paths served outside openapi.yaml, with the methods each answers: GraphQL over HTTP and the
 * docs. The REST paths and their methods come from the spec (RouteTable); these are the only others.
 */
export const NON_REST_ROUTES: Readonly<Record<string, readonly string[]>> = {
  '/graphql': ['GET', 'POST'],
  '/docs': ['GET'],
  '/openapi.yaml': ['GET'],
  '/openapi.json': ['GET'],
  '/schema.graphql': ['GET'],
};

/** Their first characters (a superset, with /docs/assets/...): a cheap check that lets REST requests skip them. */
export const NON_REST_PREFIXES = ['/graphql', '/docs', '/openapi.', '/schema.graphql'];
