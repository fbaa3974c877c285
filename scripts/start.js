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
//
// A build that fails because the contract names an operation no handler implements (`npm run generate` or
// `npm run dev` wrote its type into generated/, and the handler map's `satisfies Handlers` fails) says so the way
// the service's start says it, in one line: the start-up check is run from source (scripts/source-loader.js) and
// its refusal is printed instead of the compiler's. Any other failure prints the compiler's errors.
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

/**
 * The one line the service's start would refuse the contract with (src/startup/contract-check.ts, run on the
 * sources as they are), or undefined when it would not; undefined too when the check itself cannot run.
 */
function contractRefusal() {
  let check;
  try {
    const { requireSources } = require('./source-loader');
    let spec, handlers, resolvers;
    [check, spec, { handlers }, { resolvers }] = requireSources(root, ['src/startup/contract-check', 'src/spec', 'src/rest/handlers', 'src/graphql/resolvers']);
    const parts = { openapi: spec.loadOpenApi(), sdl: spec.loadGraphqlSdl(), handlers, resolvers };
    check.assertServedAlike(parts);
    check.assertContractImplemented(parts);
    return undefined;
  } catch (err) {
    return check && err instanceof check.ContractError ? err.message : undefined;
  }
}

// Workers (WORKERS > 1) run this file again; the primary has built already.
if (cluster.isPrimary && isStale()) {
  const started = new Date();
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], encoding: 'utf8' });
  if (build.status !== 0) {
    const refusal = contractRefusal();
    if (refusal) process.stderr.write(`Failed to start: ${refusal}\n`);
    else process.stderr.write(`${build.stdout}${build.stderr}Failed to start: the build failed (npm run build)\n`);
    process.exit(build.status || 1);
  }
  process.stdout.write(build.stdout);
  process.stderr.write(build.stderr);
  closeSync(openSync(stamp, 'w'));
  utimesSync(stamp, started, started);
}
require(server);
