'use strict';
// A throwaway PostgreSQL cluster for the stores section, made by scripts/with-postgres.sh (which
// installs Debian's `postgresql` when it is missing, starts a cluster in a temp dir on a free
// loopback port, and removes it when the command it runs exits). The command here only prints the
// cluster's URL and waits for its stdin to close.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { Pool } = require('pg');
const { ROOT, pinnedCommand } = require('../servers');

const HOLD = `process.stdout.write(JSON.stringify({ url: process.env.TEST_DATABASE_URL }) + '\\n');
process.stdin.on('end', () => process.exit(0)).resume();`;

/**
 * Starts the cluster, pinned to `cpu` when given (its server processes inherit the pinning).
 * Returns its URL, version, settings, database helpers and stop().
 */
async function startCluster({ cpu } = {}) {
  const [cmd, argv] = pinnedCommand(cpu, path.join(ROOT, 'scripts', 'with-postgres.sh'), ['--', process.execPath, '-e', HOLD]);
  const child = spawn(cmd, argv, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).url);
    });
    exited.then((code) => reject(new Error(`scripts/with-postgres.sh exited (${code}) before the cluster was up: ${(out + err).slice(-800)}`)));
  });
  const admin = new Pool({ connectionString: url, max: 2 });
  const settings = Object.fromEntries(
    (await admin.query("SELECT name, setting, unit FROM pg_settings WHERE name IN ('server_version', 'shared_buffers', 'fsync', 'synchronous_commit', 'max_connections')")).rows.map(
      (r) => [r.name, r.unit === '8kB' ? `${(Number(r.setting) * 8) / 1024} MB` : r.setting],
    ),
  );
  return {
    url,
    version: settings.server_version,
    settings,
    /** The URL of database `name` on this cluster, as `user` when given. */
    databaseUrl(name, user) {
      const u = new URL(url);
      u.pathname = `/${name}`;
      if (user) u.username = user;
      return u.toString();
    },
    query: (sql, params) => admin.query(sql, params),
    /** Creates database `name`, a copy of `template` when given. */
    createDatabase: (name, template) => admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`),
    dropDatabase: (name) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    async stop() {
      await admin.end();
      child.stdin.end();
      await exited;
    },
  };
}

module.exports = { startCluster };
