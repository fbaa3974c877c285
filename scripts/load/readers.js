'use strict';
// Many clients reading big lists at once (scenario 3 of scripts/load-test.js).
const http = require('node:http');
const { rssMiB, HANG_GUARD_MS } = require('./http');
const { ListChecker } = require('./json-list');
const { figures, watch, watchedChecks } = require('./monitor');

const READERS = Number(process.env.LOAD_READERS ?? 300);

/** One `GET /books` read to its end, its list checked as it comes: status, X-Total-Count, and the check's verdict. */
function readList(agent, port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/books', agent }, (res) => {
      const checker = new ListChecker();
      let bytes = 0;
      res.setEncoding('utf8');
      res.on('data', (text) => {
        bytes += text.length;
        checker.push(text);
      });
      res.on('end', () => resolve({ status: res.statusCode, total: Number(res.headers['x-total-count']), bytes, ...checker.end() }));
      res.on('error', (err) => resolve({ status: res.statusCode, ok: false, error: err.message }));
    });
    req.on('error', (err) => resolve({ status: 0, ok: false, error: err.message }));
    req.setTimeout(HANG_GUARD_MS, () => req.destroy(new Error('client hung')));
  });
}

/**
 * 3. READERS clients send `GET /books` at once and read it: /health answers all along, and every
 * answer is a 200 that parses and holds exactly X-Total-Count records, in id order.
 */
async function manyReaders({ port, pid, books }) {
  const scenario = `many readers (${READERS} x GET /books of ${books} books, read)`;
  const agent = new http.Agent({ keepAlive: false, maxSockets: READERS });
  const before = rssMiB(pid);
  const watched = watch(pid, port);
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: READERS }, () => readList(agent, port)));
  const seconds = (Date.now() - started) / 1000;
  const seen = await watched.stop();
  agent.destroy();
  const whole = (a) => a.status === 200 && a.ok && a.count === a.total;
  const good = answers.filter(whole).length;
  const wrong = answers.filter((a) => !whole(a));
  const statuses = {};
  for (const a of wrong) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const why = (a) => (a.status === 200 ? `${a.count} of ${a.total} records${a.error ? `: ${a.error}` : ''}` : `status ${a.status}`);
  const mib = answers.reduce((sum, a) => sum + (a.bytes ?? 0), 0) / 1024 ** 2;
  console.log(`${scenario}: ${figures(before, seen)}; ${good} of ${READERS} answers whole, ${mib.toFixed(0)} MiB read in ${seconds.toFixed(1)} s`);
  return [
    ...watchedChecks(scenario, seen),
    {
      name: `${scenario}: every answer is a 200 that parses and holds exactly X-Total-Count records in id order`,
      ok: good === READERS,
      detail: `${good} of ${READERS}; the others by status: ${JSON.stringify(statuses)}; ${wrong.slice(0, 3).map(why).join('; ')}`,
    },
  ];
}

module.exports = { manyReaders };
