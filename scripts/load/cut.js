'use strict';
// Lists cut midway (scenario 4 of scripts/load-test.js).
const { rssMiB } = require('./http');
const { ListChecker } = require('./json-list');
const { figures, settledRss, watch, watchedChecks } = require('./monitor');
const { parses } = require('./non-readers');
const { closedByServer, kernelBufferBytes, parseAnswers, rawClient, releasedByServer, requestText } = require('./raw');

const WHOLE = 10;
const SERVER_CUT = 10;
const CLIENT_CUT = Number(process.env.LOAD_CUT_CLIENTS ?? 100);
/** How far into the answer a client reads before it closes its connection: past the first chunks, far from the end. */
const READ_BEFORE_CUT = 512 * 1024;
/** How far a client reads before it stops reading: its first chunk. */
const READ_BEFORE_STOP = 16 * 1024;
/** The RSS after the clients that went away (its garbage collected) may be at most this much over the RSS before. */
const SETTLE_MARGIN_MIB = 64;

/** A body that is a list of exactly `total` records in id order. */
function wholeList(body, total) {
  const checker = new ListChecker();
  checker.push(body.toString('utf8'));
  const { ok, count } = checker.end();
  return ok && count === total;
}

/**
 * 4. On the socket: WHOLE clients read `GET /books` to its end, which is the last chunk (`0\r\n\r\n`), and
 * the list is whole. SERVER_CUT clients read part of it and stop: the server cuts them
 * (RESPONSE_WRITE_TIMEOUT_MS), and what they got ends without the last chunk and does not parse. Then
 * CLIENT_CUT clients read part of it and close their connection: the service stays healthy (/health
 * answers, no error logged), once it has let go of them and collected its garbage its RSS is back near where it
 * was, and a whole list is still answered.
 */
async function cutLists({ service, port, pid, books, logs }) {
  const scenario = `lists cut midway (${CLIENT_CUT} clients close their connection after ${READ_BEFORE_CUT / 1024} KiB)`;
  const whole = await Promise.all(Array.from({ length: WHOLE }, () => rawClient(port, requestText('GET', '/books')).read()));
  const wholeOk = whole.filter((a) => a.status === 200 && a.chunked && a.endsWithLastChunk && a.complete && wholeList(a.body, books)).length;

  // Each stopping client asks for the list as many times (pipelined on its one connection) as makes more bytes than
  // the kernel can buffer for it, whatever this machine's socket settings: the server must cut one of the answers.
  const listBytes = Math.max(1, whole[0]?.bytes ?? 1);
  const asks = Math.ceil((2 * kernelBufferBytes()) / listBytes) + 1;
  const stopping = Array.from({ length: SERVER_CUT }, () => rawClient(port, requestText('GET', '/books').repeat(asks)));
  await Promise.all(stopping.map((client) => client.readUntil((n) => n >= READ_BEFORE_STOP)));
  await closedByServer(port, stopping);
  const stopped = await Promise.all(stopping.map((client) => client.read({ untilClose: true })));
  // What got through: whole lists (those the kernel's buffers took), then the one the server cut, which must not pass for a list.
  const cutOk = stopped.filter((a) => {
    const answers = parseAnswers(a.raw);
    const cut = answers[answers.length - 1];
    const before = answers.slice(0, -1);
    return a.closed && !a.endsWithLastChunk && cut.status === 200 && !cut.complete && !parses(cut.body) && answers.length < asks && before.every((b) => b.status === 200 && b.complete && wholeList(b.body, books));
  }).length;

  const errorsBefore = logs.levels.error ?? 0;
  const warningsBefore = logs.levels.warn ?? 0;
  const before = rssMiB(pid);
  const watched = watch(pid, port);
  const leaving = Array.from({ length: CLIENT_CUT }, () => rawClient(port, requestText('GET', '/books')));
  const reads = await Promise.all(leaving.map((client) => client.readUntil((n) => n >= READ_BEFORE_CUT)));
  for (const client of leaving) client.socket.destroy();
  const midway = reads.filter((n) => n >= READ_BEFORE_CUT).length;
  // Measured once the service has let go of every one of those connections (not after a given time).
  await releasedByServer(port, leaving);
  const seen = await watched.stop();
  const bound = before + SETTLE_MARGIN_MIB;
  const settled = await settledRss(service);
  const after = await rawClient(port, requestText('GET', '/books')).read();
  const errors = (logs.levels.error ?? 0) - errorsBefore;
  const warnings = (logs.levels.warn ?? 0) - warningsBefore;
  console.log(
    `${scenario}: ${figures(before, seen, settled)}; ${midway} cut midway; ${errors} errors and ${warnings} warnings logged; ` +
      `${wholeOk} of ${WHOLE} whole answers end with the last chunk; ${cutOk} of ${SERVER_CUT} cut by the server end without it`,
  );
  return [
    { name: `a whole chunked list ends with its last chunk (0\\r\\n\\r\\n) and holds every record in id order`, ok: wholeOk === WHOLE, detail: `${wholeOk} of ${WHOLE}` },
    {
      name: `a list the server cuts (its client stopped reading after ${READ_BEFORE_STOP / 1024} KiB, having asked for more than the kernel buffers) ends without its last chunk and does not parse`,
      ok: cutOk === SERVER_CUT,
      detail: `${cutOk} of ${SERVER_CUT}`,
    },
    ...watchedChecks(scenario, seen),
    { name: `${scenario}: every client got that far before it closed`, ok: midway === CLIENT_CUT, detail: `${midway} of ${CLIENT_CUT}` },
    { name: `${scenario}: the service logs no error for them`, ok: errors === 0, detail: `${errors} error lines: ${logs.errors.slice(-2).join(' | ')}` },
    {
      name: `${scenario}: its garbage collected, RSS is back under the RSS before + ${SETTLE_MARGIN_MIB} MiB`,
      ok: settled < bound,
      detail: `${settled.toFixed(0)} MiB, bound ${bound.toFixed(0)} MiB`,
    },
    { name: `${scenario}: a whole list is answered afterwards`, ok: after.complete && wholeList(after.body, books), detail: `status ${after.status}, ${after.bytes} bytes` },
  ];
}

module.exports = { cutLists };
