'use strict';
// Profiles the service (or a peer: `kind`, a key of KINDS) under one workload with `node --cpu-prof`
// and sums the profile.
const { mkdtempSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { startServer, newestFile } = require('./servers');
const { runLoad } = require('./measure');
const { requestFor } = require('./workloads');
const { summarise } = require('./cpuprofile');

/**
 * The profile of `kind` under `workload`'s load: its file, the window of the profile the load was measured in
 * (`skipMs` to `untilMs` after the server started: start-up and warm-up before it, shutdown after), the requests
 * answered in it, and the profile's summary over that window.
 */
async function profileWorkload(workload, { tmp, seedFile, cpus, connections, seconds, warmup, kind = 'service' }) {
  const dir = mkdtempSync(path.join(tmp, `prof-${kind}-${workload.id}-`));
  const started = Date.now();
  const server = await startServer(kind, { seedFile, cpu: cpus?.server, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  let skipMs = 0;
  let untilMs = Infinity;
  let measured;
  try {
    // Start-up and a warm-up run (JIT) are left out of the summary; the profile file keeps them.
    await runLoad({ url: server.url, request: requestFor(workload, kind), connections, duration: warmup, cpu: cpus?.load });
    skipMs = Date.now() - started;
    measured = await runLoad({ url: server.url, request: requestFor(workload, kind), connections, duration: seconds, cpu: cpus?.load });
    untilMs = Date.now() - started;
  } finally {
    await server.stop();
  }
  const file = newestFile(dir, '.cpuprofile');
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  return { file, profile, skipMs, untilMs, requests: measured.total, summary: summarise(profile, 30, skipMs, untilMs) };
}

module.exports = { profileWorkload };
