'use strict';
// What is measured. Each workload compares a subject (this service) with peers, pairwise and
// alternately; `seed` is the number of books in the seed file every server of the row loads. `section`
// is the page section that measures it (bench/sections/); bench/compare.js and bench/execution.js pick
// workloads from this list by id.
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const gql = (query) => ({ method: 'POST', path: '/graphql', headers: JSON_HEADERS, body: JSON.stringify({ query }) });
// REST peers: the ceiling (node:http), what a user writes by hand (express), the same given the service's
// request classes, a mock server users reach for (json-server), and the contract-first Fastify peers
// (hand-written routes with JSON schemas; fastify-openapi-glue on this openapi.yaml, as documented and tuned).
const REST_PEERS = ['bare', 'express', 'express-classes', 'json-server', 'fastify', 'fastify-openapi-glue', 'fastify-openapi-glue-tuned'];
// GraphQL peers: Yoga and Mercurius, each as documented and with compiled execution.
const GRAPHQL_PEERS = ['yoga', 'yoga-jit', 'mercurius', 'mercurius-jit'];
const svc = (seed) => ({ kind: 'service', seed });

const WORKLOADS = [
  { id: 'get-book', section: 'rest', title: 'GET /books/{id}', request: { method: 'GET', path: '/books/42' }, subject: svc(100), peers: REST_PEERS },
  {
    id: 'list-books-100', section: 'rest', title: 'GET /books (100 records)', request: { method: 'GET', path: '/books' },
    subject: svc(100), peers: REST_PEERS, expectItems: 100,
  },
  {
    id: 'list-books-10k', section: 'rest', title: 'GET /books (10,000 records)', request: { method: 'GET', path: '/books' },
    subject: svc(10000), peers: REST_PEERS, expectItems: 10000,
  },
  {
    // json-server pages with its own parameters (`limit` would be a filter on a field of that name).
    id: 'list-books-page-50', section: 'rest', title: 'GET /books?limit=50 (10,000 records)', request: { method: 'GET', path: '/books?limit=50' },
    subject: svc(10000), peers: REST_PEERS, expectItems: 50, paths: { 'json-server': '/books?_limit=50' },
  },
  {
    id: 'post-book', section: 'rest', title: 'POST /books',
    request: { method: 'POST', path: '/books', headers: JSON_HEADERS, body: JSON.stringify({ title: 'A benchmark book', pages: 123 }) },
    subject: svc(100), peers: REST_PEERS,
  },
  {
    id: 'put-task', section: 'rest', title: 'PUT /tasks/{id}',
    request: { method: 'PUT', path: '/tasks/2', headers: JSON_HEADERS, body: JSON.stringify({ title: 'Review pull requests', done: true }) },
    subject: svc(100), peers: REST_PEERS,
  },
  { id: 'gql-books', section: 'graphql', title: 'GraphQL { books { id title pages } }', request: gql('{ books { id title pages } }'), subject: svc(100), peers: GRAPHQL_PEERS, graphql: true },
  {
    id: 'gql-nested', section: 'graphql', title: 'GraphQL { users { name posts { title comments { body } } } }',
    request: gql('{ users { name posts { title comments { body } } } }'), subject: svc(100), peers: GRAPHQL_PEERS, graphql: true,
  },
  {
    id: 'gql-mutation', section: 'graphql', title: 'GraphQL mutation addTodo',
    request: gql('mutation { addTodo(title: "Benchmark todo") { id title done } }'), subject: svc(100), peers: GRAPHQL_PEERS, graphql: true,
  },
  // Scaling: the service against itself on a larger data set (ratio = large / small).
  {
    id: 'page-100k', section: 'scaling', title: 'GET /books?limit=50: 100,000 vs 100 records', request: { method: 'GET', path: '/books?limit=50' },
    subject: svc(100000), peers: [svc(100)], scaling: { records: 1000, expect: 'flat' }, expectItems: 50,
  },
  {
    id: 'list-linear', section: 'scaling', title: 'GET /books: 10,000 vs 100 records', request: { method: 'GET', path: '/books' },
    subject: svc(10000), peers: [svc(100)], scaling: { records: 100, expect: 'linear' },
  },
];

/**
 * Refusals, for bench/compare.js only (no page section measures them: no peer refuses by this contract): each request
 * is answered with `status`, and a build's rate is of those answers. For changes to how the service refuses.
 */
const REFUSALS = [
  { id: 'refuse-unknown-path', title: 'GET /no-such-path (404)', request: { method: 'GET', path: '/no-such-path' }, subject: svc(100), status: 404 },
  { id: 'refuse-unknown-id', title: 'GET /books/99999 (404)', request: { method: 'GET', path: '/books/99999' }, subject: svc(100), status: 404 },
  { id: 'refuse-bad-limit', title: 'GET /books?limit=0 (400)', request: { method: 'GET', path: '/books?limit=0' }, subject: svc(100), status: 400 },
];

/** A peer is a kind name (same seed as the subject) or a full {kind, seed}. */
const peerSpec = (workload, peer) => (typeof peer === 'string' ? { kind: peer, seed: workload.subject.seed } : peer);

/** The workload's request as `kind` is asked it (a peer may page with its own parameters). */
const requestFor = (workload, kind) => {
  const path = workload.paths?.[kind];
  return path ? { ...workload.request, path } : workload.request;
};

/** The workloads of one page section, `only` (ids) applied. */
const workloadsOf = (section, only) => WORKLOADS.filter((w) => w.section === section && (!only || only.includes(w.id)));

module.exports = { WORKLOADS, REFUSALS, peerSpec, requestFor, workloadsOf };
