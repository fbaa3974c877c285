'use strict';
// What a run was measured on and with: the machine, the code, and the version of every package named.
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BENCH } = require('./install');
const { KINDS, ROOT } = require('./servers');

/** The packages the service runs on: the project's own (node_modules), not the peers' copies (bench/node_modules). */
const SERVICE_PACKAGES = new Set(KINDS.service.packages);

/**
 * The installed version of `spec`: a package name, or `a>b` for package b as package a resolves it. The first name
 * is looked up as the service resolves it (the project's node_modules) for the service's packages, else as the
 * servers and the load generator in bench/ do (bench/node_modules, then the project's).
 */
function packageVersion(spec) {
  const names = spec.split('>');
  let dir = SERVICE_PACKAGES.has(names[0]) ? ROOT : BENCH;
  for (const name of names) {
    // Node's lookup: node_modules/<name> in the requiring package's folder, then in each folder above it, up to the project.
    let found;
    for (let at = dir; !found; at = path.dirname(at)) {
      const candidate = path.join(at, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) found = candidate;
      else if (at === ROOT || at === path.dirname(at)) break;
    }
    if (!found) return 'not installed';
    dir = found;
  }
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

/** Versions of this service (package.json), the load generator, and every package a kind of server names. */
function versions() {
  const specs = new Set(['autocannon', ...Object.values(KINDS).flatMap((k) => k.packages)]);
  return {
    service: JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version,
    node: process.version,
    packages: Object.fromEntries([...specs].sort().map((s) => [s, packageVersion(s)])),
  };
}

function osName() {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    if (pretty) return `${pretty} (${os.type()} ${os.release()})`;
  } catch {
    // not Linux, or no os-release
  }
  return `${os.type()} ${os.release()}`;
}

function machine() {
  const cpus = os.cpus();
  return { cpu: cpus[0]?.model?.trim() ?? 'unknown', cores: cpus.length, memoryBytes: os.totalmem(), os: osName(), arch: os.arch() };
}

/** The commit measured, and whether the working tree differed from it. */
function code() {
  const git = (...args) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { commit: git('rev-parse', '--short=12', 'HEAD'), changed: git('status', '--porcelain', '--untracked-files=no', '--', 'src', 'generated', 'openapi.yaml', 'schema.graphql', 'bench', 'package-lock.json') !== '' };
  } catch {
    return { commit: 'unknown', changed: false };
  }
}

const loadAverage = () => os.loadavg().map((v) => v.toFixed(2)).join(' ');

module.exports = { machine, versions, code, loadAverage, packageVersion };
