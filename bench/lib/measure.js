'use strict';
// One sample = one autocannon run in its own (pinned) process against one server.
const { spawn } = require('node:child_process');
const path = require('node:path');

const LOAD_SCRIPT = path.join(__dirname, '..', 'load.js');

function runLoad({ url, request, connections, duration, cpu, mix, graphql }) {
  const opts = JSON.stringify({ url, connections, duration, mix, graphql, ...request });
  const args = [LOAD_SCRIPT, opts];
  const [cmd, argv] = cpu ? ['taskset', ['-c', cpu, process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop();
      try {
        const result = JSON.parse(line);
        if (result.error || code !== 0) return reject(new Error(result.error || `load exited ${code}: ${err.slice(-300)}`));
        resolve(result);
      } catch {
        reject(new Error(`load generator gave no result (exit ${code}): ${err.slice(-300)}`));
      }
    });
  });
}

/**
 * One request with fetch, to check a server answers a workload correctly before it is measured: a 2xx, a
 * GraphQL answer with data and no errors, and, when `expectItems` is given, a JSON array of that length.
 * Returns what is wrong, or undefined.
 */
async function probe(url, request, expectItems) {
  const res = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) return `HTTP ${res.status}: ${text.slice(0, 120)}`;
  if (request.path.startsWith('/graphql')) {
    try {
      const json = JSON.parse(text);
      if (json.errors || !json.data) return `GraphQL errors: ${JSON.stringify(json.errors).slice(0, 160)}`;
    } catch {
      return `not JSON: ${text.slice(0, 80)}`;
    }
  }
  if (expectItems !== undefined) {
    let items;
    try {
      items = JSON.parse(text);
    } catch {
      return `not JSON: ${text.slice(0, 80)}`;
    }
    if (!Array.isArray(items) || items.length !== expectItems) return `expected an array of ${expectItems} records, got ${Array.isArray(items) ? items.length : typeof items}`;
  }
  return undefined;
}

module.exports = { runLoad, probe };
