'use strict';
// What a V8 .cpuprofile's time went to, by concern (logging, the socket write, request validation, the store, ...)
// rather than by package: the rows of docs/maintainers/design.md, "Where the time goes against the peers". Each
// sample goes to the concern of the innermost frame on its stack that has one; a sample with none goes to Node's HTTP
// core when a Node frame is on its stack, else to `other`. Idle samples are left out.
const { eachSample } = require('./cpuprofile');

/** [concern, test of a frame]: the first that matches a frame names its concern. */
const RULES = [
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['V8 (program)', (f) => f.functionName === '(program)'],
  ['logging', (f) => /\/(pino|sonic-boom|pino-std-serializers|thread-stream)\//.test(f.url) || /\/dist\/src\/logger\.js$/.test(f.url) || f.functionName === 'logRequest'],
  // A native call (`writev`, fs's `writeString`) has no url and no concern: it counts under its caller's (the socket's
  // write from Node's stream frames, the log's from sonic-boom's).
  ['socket write', (f) => f.url === 'node:internal/stream_base_commons'],
  ['response headers', (f) => f.url === 'node:_http_outgoing' && /^(setHeader|appendHeader|getHeader|removeHeader|_storeHeader|processHeader)$/.test(f.functionName)],
  ['response headers', (f) => (f.url === 'node:_http_server' && f.functionName === 'writeHead') || (f.url === 'node:_http_common' && /^check/.test(f.functionName))],
  // Node's checks of header names and values, as compiled regular expressions.
  ['response headers', (f) => f.url === '' && /^RegExp: (\[\^\\t\\x20|\^\[\\\^_)/.test(f.functionName)],
  ['response headers', (f) => /\/dist\/src\/http\/(head|security|perf\/fixed-headers)\.js$/.test(f.url) || (/\/fastify\//.test(f.url) && /^Reply\.headers?$/.test(f.functionName))],
  ['request validation', (f) => /\/(express-openapi-validator|ajv|ajv-formats)\//.test(f.url) || /\/dist\/src\/http\/(validate|query-params|validator-errors)\.js$/.test(f.url)],
  ['request validation', (f) => (/\/fastify\//.test(f.url) && /^(validate|validateParam)$/.test(f.functionName)) || (f.url === '' && /^validate\d*$/.test(f.functionName))],
  ['metrics', (f) => /\/prom-client\//.test(f.url) || /\/dist\/src\/ops\/metrics\.js$/.test(f.url)],
  ['request body', (f) => /\/(raw-body|iconv-lite|secure-json-parse|content-type)\//.test(f.url) || /\/dist\/src\/http\/(body|unread-body)\.js$/.test(f.url)],
  // The service writes a clean GraphQL result with JSON.stringify in `answerOf`; Fastify with a compiled serializer
  // (fast-json-stringify, made with new Function: an `anonymousN` frame with no url).
  ['serialisation', (f) => (/\/dist\/src\/graphql\/endpoint\.js$/.test(f.url) && f.functionName === 'answerOf') || (f.url === '' && /^anonymous\d+$/.test(f.functionName))],
  ['serialisation', (f) => /\/fast-json-stringify\//.test(f.url) || (/\/fastify\//.test(f.url) && /^(serialize|getSchemaSerializer)$/.test(f.functionName))],
  ['GraphQL transport', (f) => /\/(graphql-http|mercurius)\//.test(f.url) || /\/dist\/src\/graphql\/(endpoint|transport|limits|large-answers)\.js$/.test(f.url)],
  ['GraphQL parse and validate', (f) => /\/graphql\/(language|validation)\//.test(f.url) || /\/dist\/src\/graphql\/document-cache\.js$/.test(f.url)],
  // graphql-jit's compiled functions have no url and names like Query__fieldbooksMapHandler.
  ['GraphQL execution', (f) => /\/(graphql-jit|graphql)\//.test(f.url) || /\/dist\/src\/graphql\//.test(f.url) || (f.url === '' && f.functionName.includes('__'))],
  ['store', (f) => /\/dist\/src\/(store\/|kept-in-order\.js$)/.test(f.url) || /\/(better-sqlite3|kysely)\//.test(f.url) || /\/bench\/servers\/data\.js$/.test(f.url)],
  // A peer's own code (bench/servers/): its GraphQL resolvers, its REST handlers, and its hooks (request id, fixed headers).
  ['GraphQL execution', (f) => /\/bench\/servers\/graphql-peer\.js$/.test(f.url)],
  ['REST handler, ETag', (f) => /\/bench\/servers\/fastify-openapi-glue\.js$/.test(f.url)],
  ['routing, phases, framework', (f) => /\/bench\/servers\/[^/]+\.js$/.test(f.url)],
  ['REST handler, ETag', (f) => /\/dist\/src\/rest\//.test(f.url)],
  ['answer writing', (f) => /\/dist\/src\/http\/(send|json-stream|chunk-writer|write-turns)\.js$/.test(f.url)],
  ['routing, phases, framework', (f) => /\/(express|router|fastify|find-my-way|avvio|fastify-openapi-glue|@fastify\/[^/]+)\//.test(f.url) || /\/dist\/src\/(http\/[^/]+|service|app)\.js$/.test(f.url)],
  ['AsyncLocalStorage, async_hooks', (f) => /^node:(async_hooks|internal\/async_local_storage|internal\/async_hooks)/.test(f.url)],
];

const NODE_CORE = 'Node HTTP core, streams, ticks';

/** The concern of one frame (`{url, functionName}`), or undefined. */
function concernOf(frame) {
  const f = { url: frame.url || '', functionName: frame.functionName || '' };
  for (const [name, test] of RULES) if (test(f)) return name;
  return undefined;
}

/**
 * Microseconds per request by concern, over the samples from `skipMs` to `untilMs` after the profile began (the
 * window the load was measured in), for `requests` requests answered in it.
 */
function byConcern(profile, { skipMs = 0, untilMs = Infinity, requests }) {
  const sums = {};
  eachSample(profile, { skipMs, untilMs }, (stack, dt) => {
    if (stack[0].callFrame.functionName === '(idle)') return;
    let concern;
    let nodeFrame = false;
    for (const { callFrame } of stack) {
      concern = concernOf(callFrame);
      if (concern !== undefined) break;
      nodeFrame ||= callFrame.url.startsWith('node:');
    }
    concern ??= nodeFrame ? NODE_CORE : 'other';
    sums[concern] = (sums[concern] ?? 0) + dt;
  });
  for (const k of Object.keys(sums)) sums[k] /= requests;
  return sums;
}

module.exports = { byConcern, concernOf, NODE_CORE };
