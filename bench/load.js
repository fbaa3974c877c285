'use strict';
// The load generator, run as its own process (pinned to its own core by run.js):
//   node bench/load.js '<json options>'
// Prints one JSON line: {rps, latencyP50, latencyP99, total, ok, non2xx, errors, timeouts}.
const autocannon = require('autocannon');

const opts = JSON.parse(process.argv[2]);
const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Conditional writes that all succeed: `opts.tasks` ([{id, done, etag}], the tasks' current state,
 * more of them than connections) are handed out so that no two requests in flight hold the same task;
 * each request flips its task's `done` on the condition that the task is as last seen, and the answer
 * gives the state (and tag) the next request on that task is conditioned on.
 */
function conditionalWrites(o, write, seen) {
  const free = [...o.tasks];
  return [
    {
      method: 'PUT',
      setupRequest: (req, context) => {
        context.task = free.pop();
        return context.task && { ...req, ...write(context.task) };
      },
      onResponse: (status, _body, context, headers) => {
        const task = context.task;
        if (status >= 200 && status < 300) {
          task.done = !task.done;
          seen(task, headers);
        }
        free.push(task);
      },
    },
  ];
}

/** A response header by name, whatever the case the server wrote it in. */
const header = (headers, name) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/** Named request mixes (functions cannot travel through argv). */
const MIXES = {
  // Memory soak: reads, a write that does not grow the store (POST then DELETE of the same book),
  // an update, a rejected request, and GraphQL when mounted.
  mixed: (o) => [
    { method: 'GET', path: '/books/42' },
    { method: 'GET', path: '/books' },
    { method: 'GET', path: '/books?limit=10&offset=20' },
    {
      method: 'POST', path: '/books', headers: JSON_HEADERS, body: JSON.stringify({ title: 'Soak book', pages: 10 }),
      onResponse: (status, body, context) => {
        try {
          context.created = JSON.parse(body).id;
        } catch {
          context.created = undefined;
        }
      },
    },
    { method: 'DELETE', setupRequest: (req, context) => ({ ...req, path: `/books/${context.created ?? 999999}` }) },
    { method: 'PUT', path: '/tasks/1', headers: JSON_HEADERS, body: JSON.stringify({ done: true }) },
    { method: 'GET', path: '/books/abc' },
    ...(o.graphql
      ? [{ method: 'POST', path: '/graphql', headers: JSON_HEADERS, body: JSON.stringify({ query: '{ users { name posts { title comments { body } } } }' }) }]
      : []),
  ],
  // This service: PUT with the task's current ETag in If-Match; the answer's ETag is the next one.
  'put-if-match': (o) =>
    conditionalWrites(
      o,
      (task) => ({ method: 'PUT', path: `/tasks/${task.id}`, headers: { ...JSON_HEADERS, 'if-match': task.etag }, body: JSON.stringify({ done: !task.done }) }),
      (task, headers) => (task.etag = header(headers, 'etag')),
    ),
  // PostgREST has no ETags: the same write conditioned on the state last seen (a filter on `done`);
  // a condition that no longer holds matches no row, which the single-object Accept turns into a 406.
  'patch-if-state': (o) =>
    conditionalWrites(
      o,
      (task) => ({
        method: 'PATCH',
        path: `/tasks?id=eq.${task.id}&done=is.${task.done}`,
        headers: { ...JSON_HEADERS, accept: 'application/vnd.pgrst.object+json', prefer: 'return=representation' },
        body: JSON.stringify({ done: !task.done }),
      }),
      () => undefined,
    ),
};

const request = opts.mix ? { requests: MIXES[opts.mix](opts) } : { method: opts.method, headers: opts.headers, body: opts.body };
const instance = autocannon(
  {
    url: opts.mix ? opts.url : opts.url + opts.path,
    connections: opts.connections,
    duration: opts.duration,
    pipelining: 1,
    timeout: 10,
    ...request,
  },
  (err, result) => {
    if (err) {
      process.stdout.write(JSON.stringify({ error: String(err) }) + '\n');
      process.exit(1);
    }
    const seconds = (result.finish - result.start) / 1000 || opts.duration;
    process.stdout.write(
      JSON.stringify({
        rps: result['2xx'] / seconds,
        latencyP50: result.latency.p50,
        latencyP99: result.latency.p99,
        total: result.requests.total,
        ok: result['2xx'],
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
      }) + '\n',
    );
  },
);
process.once('SIGTERM', () => instance.stop());
