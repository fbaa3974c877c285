'use strict';
// PostGraphile 4 on node:http (options.js says how it is tuned). It lives in a package of its own
// (this folder, `npm ci` here): PostGraphile 4 needs graphql 15 and the service uses 16, and all of
// PostGraphile's modules must share one graphql and one graphile-build, which a shared node_modules
// does not give them.
//   DATABASE_URL=postgres://graphile@.../db PORT=... node bench/peers/postgraphile/server.js
const http = require('node:http');
const { Pool } = require('pg');
const { postgraphile } = require('postgraphile');
const { OPTIONS, PLUGINS, POOL_SIZE } = require('./options');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
const server = http.createServer(postgraphile(pool, 'api', { ...OPTIONS, appendPlugins: PLUGINS.map((name) => require(name)) }));
server.listen(Number(process.env.PORT), process.env.HOST || '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
