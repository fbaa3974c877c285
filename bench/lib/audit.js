'use strict';
// Does each server do per request what its row on the page says (bench/lib/servers.js, `perRequest`)? Each server is
// started once more, its stdout kept, and sent one request of the workload with an X-Request-Id of ours; what can be
// seen from outside is compared with its row: the log line (and that it names the request id), the X-Request-Id
// sent back, helmet's headers. Not while measuring: a kept stdout costs the server a pipe.
const { setTimeout: sleep } = require('node:timers/promises');
const { KINDS, startServer } = require('./servers');

/** Headers helmet's defaults set: all of them mean helmet's headers are there. */
const HELMET_SIGNS = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'cross-origin-resource-policy'];

/**
 * What differs between a row (`perRequest`) and what a server did: `observed` is `{ sentId, headers, lines }`,
 * `headers` the answer's (lower-case names), `lines` what it wrote to stdout for that request. [] when they agree.
 */
function auditFindings(perRequest, { sentId, headers, lines }) {
  const findings = [];
  const echoed = headers['x-request-id'];
  if (perRequest.requestId && echoed !== sentId) findings.push(`its row says it sends a request id back, but X-Request-Id was ${echoed === undefined ? 'missing' : `"${echoed}"`}`);
  if (!perRequest.requestId && echoed !== undefined) findings.push('it sends X-Request-Id, which its row does not say');
  const signs = HELMET_SIGNS.filter((h) => headers[h] !== undefined);
  if (perRequest.securityHeaders && signs.length < HELMET_SIGNS.length) findings.push(`its row says it sends helmet's headers, but ${HELMET_SIGNS.filter((h) => !signs.includes(h)).join(', ')} missing`);
  // One of them alone is not helmet's (express's res.jsonp sends X-Content-Type-Options itself).
  if (!perRequest.securityHeaders && signs.length === HELMET_SIGNS.length) findings.push("it sends helmet's headers, which its row does not say");
  const logged = lines.filter((l) => l.trim() !== '');
  if (perRequest.log && !logged.length) findings.push('its row says it logs a line per request, but it wrote none');
  if (perRequest.log && logged.length > 1) findings.push(`its row says it logs a line per request, but it wrote ${logged.length}`);
  if (perRequest.log && perRequest.requestId && logged.length && !logged.some((l) => l.includes(sentId))) findings.push('its log line does not name the request id');
  if (!perRequest.log && logged.length) findings.push(`it wrote ${logged.length} line(s) per request, which its row does not say`);
  return findings;
}

/** Starts `kind` once with its stdout kept, sends `request` (a workload's, for this kind) and returns auditFindings'. */
async function auditServer(kind, request, { seedFile }) {
  const server = await startServer(kind, { seedFile, captureStdout: true });
  try {
    const sentId = `bench-audit-${kind}`;
    // The line of the readiness check may still be on its way: wait until stdout has been still for 200 ms.
    for (let seen = -1; seen !== server.stdout().length; ) {
      seen = server.stdout().length;
      await sleep(200);
    }
    const before = server.stdout().length;
    const res = await fetch(server.url + request.path, { method: request.method, headers: { ...request.headers, 'x-request-id': sentId }, body: request.body });
    await res.arrayBuffer();
    // A log line is written when the answer is finished, maybe just after the client has it.
    for (let waited = 0; waited < 1000 && server.stdout().length === before; waited += 50) await sleep(50);
    await sleep(50);
    const lines = server.stdout().slice(before).split('\n');
    return auditFindings(KINDS[kind].perRequest, { sentId, headers: Object.fromEntries(res.headers), lines });
  } finally {
    await server.stop();
  }
}

module.exports = { auditFindings, auditServer, HELMET_SIGNS };
