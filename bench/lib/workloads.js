'use strict';
// What is measured. Each workload compares a subject (this service) with peers, pairwise and
// alternately; `seed` is the number of books in the seed file every server of the row loads.
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const gql = (query) => ({ method: 'POST', path: '/graphql', headers: JSON_HEADERS, body: JSON.stringify({ query }) });
// Peers: the ceiling (node:http), what a user would write by hand (express), what they would pick
// instead (json-server, GraphQL Yoga), and the same peers given the service's two engine tricks
// (express with the app's classes, Yoga with graphql-jit), so the table shows what those tricks buy.
// Then the contract-first peers of issue 12: Fastify with JSON schemas, fastify-openapi-glue on this
// openapi.yaml, Mercurius with and without graphql-jit (each with a logger, request ids and helmet).
const REST_PEERS = ['bare', 'express', 'express-classes', 'json-server', 'fastify', 'fastify-openapi-glue'];
const GRAPHQL_PEERS = ['yoga', 'yoga-jit', 'mercurius', 'mercurius-jit'];
const svc = (seed) => ({ kind: 'service', seed });

const WORKLOADS = [
  { id: 'get-book', title: 'GET /books/{id}', request: { method: 'GET', path: '/books/42' }, subject: svc(100), peers: REST_PEERS },
  { id: 'list-100', title: 'GET /books (100 records)', request: { method: 'GET', path: '/books' }, subject: svc(100), peers: REST_PEERS },
  { id: 'list-10k', title: 'GET /books (10,000 records)', request: { method: 'GET', path: '/books' }, subject: svc(10000), peers: REST_PEERS },
  {
    id: 'post-book', title: 'POST /books',
    request: { method: 'POST', path: '/books', headers: JSON_HEADERS, body: JSON.stringify({ title: 'A benchmark book', pages: 123 }) },
    subject: svc(100), peers: REST_PEERS,
  },
  {
    id: 'put-task', title: 'PUT /tasks/{id}',
    request: { method: 'PUT', path: '/tasks/2', headers: JSON_HEADERS, body: JSON.stringify({ title: 'Review pull requests', done: true }) },
    subject: svc(100), peers: REST_PEERS,
  },
  { id: 'gql-books', title: 'GraphQL { books { id title pages } }', request: gql('{ books { id title pages } }'), subject: svc(100), peers: GRAPHQL_PEERS, graphql: true },
  {
    id: 'gql-nested', title: 'GraphQL { users { name posts { title comments { body } } } }',
    request: gql('{ users { name posts { title comments { body } } } }'), subject: svc(100), peers: GRAPHQL_PEERS, graphql: true,
  },
  {
    id: 'gql-mutation', title: 'GraphQL mutation addTodo',
    request: gql('mutation { addTodo(title: "Benchmark todo") { id title done } }'), subject: svc(100), peers: GRAPHQL_PEERS, graphql: true,
  },
  // Scaling: the service against itself on a larger data set (ratio = large / small).
  {
    id: 'page-100k', title: 'GET /books?limit=50: 100,000 vs 100 records', request: { method: 'GET', path: '/books?limit=50' },
    subject: svc(100000), peers: [svc(100)], scaling: { records: 1000, expect: 'flat' },
  },
  {
    id: 'list-linear', title: 'GET /books: 10,000 vs 100 records', request: { method: 'GET', path: '/books' },
    subject: svc(10000), peers: [svc(100)], scaling: { records: 100, expect: 'linear' },
  },
];

/** A peer is a kind name (same seed as the subject) or a full {kind, seed}. */
const peerSpec = (workload, peer) => (typeof peer === 'string' ? { kind: peer, seed: workload.subject.seed } : peer);

module.exports = { WORKLOADS, peerSpec };
