'use strict';
// Profiles the service (or a peer: `kind`, a key of KINDS) under one workload with `node --cpu-prof`
// and sums the profile.
const { mkdtempSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { startServer, newestFile } = require('./servers');
const { runLoad } = require('./measure');
const { requestFor } = require('./workloads');
const { summarise } = require('./cpuprofile');

async function profileWorkload(workload, { tmp, seedFile, cpus, connections, seconds, warmup, kind = 'service' }) {
  const dir = mkdtempSync(path.join(tmp, `prof-${kind}-${workload.id}-`));
  const started = Date.now();
  const server = await startServer(kind, { seedFile, cpu: cpus?.server, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  let skipMs = 0;
  try {
    // Start-up and a warm-up run (JIT) are left out of the summary; the profile file keeps them.
    await runLoad({ url: server.url, request: requestFor(workload, kind), connections, duration: warmup, cpu: cpus?.load });
    skipMs = Date.now() - started;
    await runLoad({ url: server.url, request: requestFor(workload, kind), connections, duration: seconds, cpu: cpus?.load });
  } finally {
    await server.stop();
  }
  const file = newestFile(dir, '.cpuprofile');
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  return { file, skipMs, summary: summarise(JSON.parse(readFileSync(file, 'utf8')), 30, skipMs) };
}

module.exports = { profileWorkload };
