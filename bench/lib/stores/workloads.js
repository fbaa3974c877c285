'use strict';
// What the stores section measures: each workload as this service asks it and as its peer
// (PostgREST for REST, PostGraphile for GraphQL) asks the same of the same rows.
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const PGRST_OBJECT = 'application/vnd.pgrst.object+json';
const gql = (query) => ({ method: 'POST', path: '/graphql', headers: JSON_HEADERS, body: JSON.stringify({ query }) });
const BOOK = JSON.stringify({ title: 'A benchmark book', pages: 123 });
const NESTED = '{ users { name posts { title comments { body } } } }';

/** Tasks the conditional writes share out (more than connections: no two requests in flight hold one). */
const TASKS = 64;

/**
 * `peerTarget`: the lowest service/peer median ratio aimed at. `stores`: also measured on every store;
 * `storeTarget`: the lowest median of SQLite over `store` aimed at. `compare`: the answers must hold the same data.
 * `tasks`: a conditional write, whose load needs the tasks' current state before each run.
 */
const WORKLOADS = [
  {
    id: 'get-book', title: 'GET /books/{id}', peer: 'postgrest', stores: true, compare: true, peerTarget: 1.2, storeTarget: { store: 'memory', min: 0.8 },
    service: { method: 'GET', path: '/books/42' },
    peerRequest: { method: 'GET', path: '/books?id=eq.42', headers: { accept: PGRST_OBJECT } },
  },
  {
    id: 'post-book', title: 'POST /books', peer: 'postgrest', stores: true, peerTarget: 1.0, storeTarget: { store: 'postgres', min: 2 },
    service: { method: 'POST', path: '/books', headers: JSON_HEADERS, body: BOOK },
    peerRequest: { method: 'POST', path: '/books', headers: { ...JSON_HEADERS, accept: PGRST_OBJECT, prefer: 'return=representation' }, body: BOOK },
  },
  {
    id: 'list-50', title: 'GET /books?limit=50', peer: 'postgrest', compare: true,
    service: { method: 'GET', path: '/books?limit=50' },
    peerRequest: { method: 'GET', path: '/books?limit=50&order=id', headers: { accept: 'application/json' } },
  },
  {
    id: 'put-task', title: 'PUT /tasks/{id} with If-Match', peer: 'postgrest', tasks: true,
    service: { mix: 'put-if-match' },
    peerRequest: { mix: 'patch-if-state' },
  },
  { id: 'gql-books', title: 'GraphQL { books { id title pages } }', peer: 'postgraphile', compare: true, peerTarget: 1.2, service: gql('{ books { id title pages } }'), peerRequest: gql('{ books { id title pages } }') },
  { id: 'gql-nested', title: `GraphQL ${NESTED}`, peer: 'postgraphile', stores: true, compare: true, peerTarget: 1.2, storeTarget: { store: 'memory', min: 0.8 }, service: gql(NESTED), peerRequest: gql(NESTED) },
];

/** The tasks' current state, for a conditional-write run: [{id, done, etag}] from the service, [{id, done}] from PostgREST. */
async function taskStates(url, isPeer) {
  if (isPeer) {
    const res = await fetch(`${url}/tasks?select=id,done&id=lte.${TASKS}&order=id`);
    return res.json();
  }
  return Promise.all(
    Array.from({ length: TASKS }, async (_, i) => {
      const res = await fetch(`${url}/tasks/${i + 1}`);
      const { id, done } = await res.json();
      return { id, done, etag: res.headers.get('etag') };
    }),
  );
}

/** The seed both sides load: bench/lib/seed.js's, with TASKS tasks. */
function withTasks(seed) {
  const tasks = Array.from({ length: TASKS }, (_, i) => ({ id: i + 1, title: `Benchmark task ${i + 1}`, done: i % 2 === 1 }));
  return { ...seed, tasks };
}

/** An answer's data with ids as strings and keys sorted (GraphQL serialises ids as strings, REST as numbers). */
function normalized(value) {
  if (Array.isArray(value)) return value.map(normalized);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, k === 'id' ? String(value[k]) : normalized(value[k])]));
  }
  return value;
}

module.exports = { WORKLOADS, TASKS, taskStates, withTasks, normalized };
