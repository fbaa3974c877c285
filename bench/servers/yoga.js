'use strict';
// GraphQL Yoga on node:http with the shared GraphQL peer data and resolvers (graphql-peer.js).
// With YOGA_JIT=1 it executes with graphql-jit through envelop's plugin (@envelop/graphql-jit), the
// way Yoga offers compiled execution.
const http = require('node:http');
const { createYoga, createSchema } = require('graphql-yoga');
const { port, host, typeDefs, resolvers } = require('./graphql-peer');

const plugins = process.env.YOGA_JIT === '1' ? [require('@envelop/graphql-jit').useGraphQlJit()] : [];
const yoga = createYoga({ schema: createSchema({ typeDefs, resolvers }), graphiql: false, plugins });
http.createServer(yoga).listen(port, host);
