#!/usr/bin/env node
// `npm start`: builds dist/ only when it is missing or older than its inputs, then runs the service
// (dist/src/server.js) in this process. When the build is fresh, that costs a look at file times
// (tens of ms) instead of a run of the compiler (seconds).
//
// The build is `npm run build` (tsc -b, incremental: it recompiles only what changed). After a
// build that succeeds, this script stamps dist/.built with the time the build started; a later start
// builds again when any input is newer than that stamp. A failed build leaves no new stamp, so the
// start after it builds again and fails again (the service never runs code from a failed build), and a
// build run directly (`npm run build`, `npm test`) costs one up-to-date check of tsc at the next start.
// `rm -rf dist` removes the stamp and tsc's record, and forces a full build.
const { spawnSync } = require('node:child_process');
const cluster = require('node:cluster');
const { closeSync, existsSync, openSync, readdirSync, statSync, utimesSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.built');
const server = path.join(root, 'dist', 'src', 'server.js');
/** What tsconfig.build.json compiles, and what decides how. Folders count too: deleting a file changes its folder's time. */
const INPUTS = ['src', 'generated', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The newest modification time (ms) of a file, or of a folder and everything under it. */
function newest(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  let time = stat.mtimeMs;
  if (stat.isDirectory()) for (const entry of readdirSync(file)) time = Math.max(time, newest(path.join(file, entry)));
  return time;
}

function isStale() {
  const built = statSync(stamp, { throwIfNoEntry: false });
  if (!built || !existsSync(server)) return true;
  return INPUTS.some((input) => newest(path.join(root, input)) > built.mtimeMs);
}

// Workers (WORKERS > 1) run this file again; the primary has built already.
if (cluster.isPrimary && isStale()) {
  const started = new Date();
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    process.stderr.write('Failed to start: the build failed (npm run build)\n');
    process.exit(build.status || 1);
  }
  closeSync(openSync(stamp, 'w'));
  utimesSync(stamp, started, started);
}
require(server);
