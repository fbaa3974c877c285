'use strict';
// Small client helpers of the load test: a free port, one JSON request, a pause, a process's RSS, a wait for an
// event.
//
// Nothing here bounds how long the service may take: a machine busy with other work makes a run slower, never a
// check fail. Every wait is for an event (an answer, a close, a count); the one time bound, HANG_GUARD_MS, only
// turns a wait for something that never happens into a failure that says what it waited for, instead of a hang.
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long any wait may last before the run fails as hung (LOAD_HANG_GUARD_MS; 10 minutes). Never a check of speed. */
const HANG_GUARD_MS = Number(process.env.LOAD_HANG_GUARD_MS ?? 600_000);

/** Resolves once `check()` holds (polled every 50 ms); rejects naming `what` if it has not after HANG_GUARD_MS. */
async function until(what, check) {
  const hung = Date.now() + HANG_GUARD_MS;
  while (!(await check())) {
    if (Date.now() > hung) throw new Error(`the load test hung: ${what} did not happen within ${HANG_GUARD_MS / 1000} s`);
    await sleep(50);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * One request with an optional JSON body; resolves (never rejects) with the status (0 when the connection
 * failed or `timeoutMs` passed, with `error`), the headers and the parsed JSON body (undefined when it is not
 * JSON). `timeoutMs` is the hang guard unless a client means to give up early (a lost answer, on purpose).
 */
function call(agent, port, method, urlPath, body, { headers: extra = {}, timeoutMs = HANG_GUARD_MS } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}), ...extra };
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, headers: res.headers, json });
      });
      res.on('error', (error) => resolve({ status: 0, error }));
    });
    req.on('error', (error) => resolve({ status: 0, error }));
    req.setTimeout(timeoutMs, () => req.destroy(new Error('client timeout')));
    req.end(payload);
  });
}

/** Resident memory of a process in MiB, from /proc (Linux); NaN once the process is gone. */
function rssMiB(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

module.exports = { sleep, until, freePort, call, rssMiB, HANG_GUARD_MS };
