'use strict';
// The benchmark's own packages are not the service's: bench/package.json (the peers: Fastify, Mercurius, GraphQL
// Yoga, json-server; the load generator: autocannon) and the store peers' packages under bench/peers/ each have
// their own package-lock.json, and are installed on first use, here, instead of by the service's `npm ci`.
const { execFileSync } = require('node:child_process');
const { statSync } = require('node:fs');
const path = require('node:path');

const BENCH = path.join(__dirname, '..');
const ROOT = path.join(BENCH, '..');

const mtime = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/**
 * Runs `npm ci` in `dir` (bench/ by default) when its node_modules is missing, or older than its package.json or
 * package-lock.json (a checkout that changed them): npm ci writes node_modules/.package-lock.json last.
 */
function ensureInstalled(dir = BENCH, log = (line) => process.stderr.write(`${line}\n`)) {
  const installed = mtime(path.join(dir, 'node_modules', '.package-lock.json'));
  if (installed && installed >= Math.max(mtime(path.join(dir, 'package.json')), mtime(path.join(dir, 'package-lock.json')))) return;
  const where = path.relative(ROOT, dir);
  log(`installing the packages of ${where}/ (npm ci --prefix ${where}): once, and again when its package-lock.json changes`);
  execFileSync('npm', ['ci', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}

module.exports = { BENCH, ensureInstalled };
