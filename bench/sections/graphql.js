'use strict';
// The service against other GraphQL servers of the same schema.graphql, on its in-memory store.
const { peerSection } = require('../lib/peer-section');
const { GRAPH } = require('../lib/seed');

module.exports = peerSection({
  id: 'graphql',
  title: 'GraphQL: the service and its peers',
  intro: `Every server runs the same schema.graphql over the same records (100 books; ${GRAPH.users} users with ${GRAPH.postsPerUser} posts of
${GRAPH.commentsPerPost} comments each). The peers' resolvers read users → posts →
comments from maps grouped once at start; the service loads each level of the nested lists with one storage call
per group of siblings (\`src/graphql/loaders.ts\`), the cost of keeping a query's storage calls bounded on any store.
The service runs a query document with graphql-js the first time and compiled (graphql-jit) from its second run on.`,
});
