'use strict';
// Builds of this service to compare: a folder holding dist/src/server.js (for example a git worktree of
// an older commit, built with `npx tsc -p tsconfig.build.json`) or a git revision, which is checked out
// into a temporary worktree and built. `removeWorktrees()` removes the worktrees made.
const { execFileSync } = require('node:child_process');
const { existsSync, symlinkSync } = require('node:fs');
const path = require('node:path');
const { ROOT } = require('./servers');

const worktrees = [];

/** The dist/src folder of a build folder, or of a revision checked out and built in a worktree under `tmp`. */
function buildDist(build, tmp) {
  if (existsSync(path.join(build, 'dist', 'src', 'server.js'))) return path.resolve(build, 'dist', 'src');
  const dir = path.join(tmp, build.replace(/[^A-Za-z0-9._-]/g, '_'));
  execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', dir, build], { stdio: 'ignore' });
  worktrees.push(dir);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  return path.join(dir, 'dist', 'src');
}

function removeWorktrees() {
  for (const dir of worktrees.splice(0)) execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
}

module.exports = { buildDist, removeWorktrees };
