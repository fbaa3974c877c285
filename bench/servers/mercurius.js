'use strict';
// Mercurius (GraphQL for Fastify) with the same data and resolvers as yoga.js (graphql-peer.js):
// users -> posts -> comments come from maps grouped up front (no loader), so nesting costs no scans.
// With MERCURIUS_JIT=1 it runs with `jit: 1` (a query is compiled by graphql-jit from its first run on).
// Mercurius caches parsed and validated queries itself. Logger, request ids and helmet:
// fastify-house.js, as for the Fastify REST peers.
const mercurius = require('mercurius');
const { houseFastify } = require('./fastify-house');
const { port, host, typeDefs, resolvers } = require('./graphql-peer');

async function main() {
  const app = await houseFastify();
  await app.register(mercurius, { schema: typeDefs, resolvers, graphiql: false, ...(process.env.MERCURIUS_JIT === '1' && { jit: 1 }) });
  await app.listen({ port, host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
