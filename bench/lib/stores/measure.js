'use strict';
// One workload of the stores section: fresh copies of both databases, every subject started (this
// service on PostgreSQL, its peer, and for the store rows the service on memory and SQLite), their
// answers checked against each other, then alternating rounds: A B C D, D C B A, ...
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { runLoad } = require('../measure');
const { startServer } = require('../servers');
const { PEERS } = require('./peers');
const { taskStates, normalized } = require('./workloads');

/** The environment that runs the service on `store` (10 PostgreSQL connections, no logs). */
function serviceEnv(store, { cluster, database, file }) {
  if (store === 'postgres') return { LOG_LEVEL: 'silent', STORE: 'postgres', DATABASE_URL: cluster.databaseUrl(database), DB_POOL_SIZE: '10' };
  if (store === 'sqlite') return { LOG_LEVEL: 'silent', STORE: 'sqlite', SQLITE_FILE: file };
  return { LOG_LEVEL: 'silent', STORE: 'memory' };
}

const STORE_LABELS = { memory: 'this service, in memory', sqlite: 'this service on SQLite', postgres: 'this service on PostgreSQL' };

/** The parsed answer to one request (its data, for GraphQL); throws on a non-2xx or a GraphQL error. */
async function answer(url, { method, path: target, headers, body }) {
  const res = await fetch(url + target, { method, headers, body });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status} for ${method} ${target}: ${text.slice(0, 160)}`);
  const json = JSON.parse(text);
  if (target.startsWith('/graphql') && (json.errors || !json.data)) throw new Error(`GraphQL errors: ${JSON.stringify(json.errors).slice(0, 160)}`);
  return target.startsWith('/graphql') ? json.data : json;
}

/**
 * Measures workload `w`. `env`: { cluster, templates: {service, peer}, seedFile, tmp, cpus, stores, s }
 * where `stores` are the extra stores to measure on store rows and `s` the settings.
 * Returns { subjects: { key: { label, rps: [per round], problems } } }.
 */
async function measureWorkload(w, env) {
  const { cluster, cpus, s } = env;
  const name = w.id.replace(/-/g, '_');
  const databases = { service: `svc_${name}`, peer: `peer_${name}` };
  await cluster.createDatabase(databases.service, env.templates.service);
  await cluster.createDatabase(databases.peer, env.templates.peer);
  const subjects = [];
  try {
    const service = (store) => ({
      key: store,
      label: STORE_LABELS[store],
      request: w.service,
      start: () => startServer('service', { seedFile: env.seedFile, cpu: cpus?.server, extraEnv: serviceEnv(store, { cluster, database: databases.service, file: path.join(env.tmp, `${name}.sqlite`) }) }),
    });
    const peer = { key: 'peer', label: PEERS[w.peer].label, request: w.peerRequest, isPeer: true, start: () => PEERS[w.peer].start({ cluster, database: databases.peer, cpu: cpus?.server }) };
    for (const subject of [service('postgres'), peer, ...(w.stores ? env.stores.map(service) : [])]) {
      subjects.push({ ...subject, ...(await subject.start()), rps: [], problems: [] });
    }
    if (w.compare) {
      const answers = await Promise.all(subjects.map((x) => answer(x.url, x.request).then(normalized)));
      const differs = subjects.find((x, i) => !isDeepStrictEqual(answers[i], answers[0]));
      if (differs) throw new Error(`${differs.label} answers with other data than ${subjects[0].label}: ${JSON.stringify(answers[subjects.indexOf(differs)]).slice(0, 160)}`);
    }
    const load = async (x, duration) => {
      const request = w.tasks ? { ...x.request, tasks: await taskStates(x.url, x.isPeer) } : x.request;
      const result = await runLoad({ url: x.url, request, connections: s.connections, duration, cpu: cpus?.load });
      if (result.non2xx || result.errors || result.timeouts) {
        x.problems.push(`${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts of ${result.total} requests`);
      }
      return result.rps;
    };
    for (const x of subjects) await load(x, s.warmup);
    for (let r = 0; r < s.rounds; r += 1) {
      for (const x of r % 2 === 0 ? subjects : [...subjects].reverse()) x.rps.push(await load(x, s.duration));
    }
    return { subjects: Object.fromEntries(subjects.map((x) => [x.key, { label: x.label, rps: x.rps, problems: x.problems }])) };
  } finally {
    await Promise.all(subjects.map((x) => x.stop()));
    await cluster.dropDatabase(databases.service);
    await cluster.dropDatabase(databases.peer);
  }
}

module.exports = { measureWorkload, serviceEnv, STORE_LABELS };
