'use strict';
// Small client helpers of the load test: a free port, one JSON request, a pause, a process's RSS.
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
 * failed or timed out, with `error`), the headers and the parsed JSON body (undefined when it is not JSON).
 */
function call(agent, port, method, urlPath, body, { headers: extra = {}, timeoutMs = 15_000 } = {}) {
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

module.exports = { sleep, freePort, call, rssMiB };
