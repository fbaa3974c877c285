'use strict';
// Clients that ask for a big answer and never read it (scenarios 1 and 2 of scripts/load-test.js).
const { call, until } = require('./http');
const { figures, settledRss, watchHolding } = require('./monitor');
const { closedByServer, rawClient, requestText } = require('./raw');

const NON_READING = Number(process.env.LOAD_NON_READING ?? 100);
/** The settle check's margin over the RSS before plus MAX_UNSENT_BYTES. */
const SETTLE_MARGIN_MIB = 128;
const BOOKS_QUERY = { query: '{ books { id title pages } }' };

/** Whether a body parses as JSON: a cut answer must not. */
function parses(body) {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/**
 * 1. NON_READING connections send `GET /books` (the whole collection, several MiB) and read nothing. While
 * they hold: the service's RSS stays bounded and /health answers. The server closes every one of them itself
 * (RESPONSE_WRITE_TIMEOUT_MS after its client last took a byte), seen from /proc/net/tcp while the clients still
 * read nothing. Read after that, each ends without the last chunk and its body does not parse (or, an answer the
 * kernel's buffers took whole, ends complete). Then, its garbage collected, RSS is back near where it was, and the
 * service still answers.
 */
async function restNonReaders({ service, port, pid, settings, books }) {
  const scenario = `REST non-readers (${NON_READING} x GET /books of ${books} books)`;
  const watching = await watchHolding(service, pid, port);
  const clients = Array.from({ length: NON_READING }, () => rawClient(port, requestText('GET', '/books')));
  await Promise.all(clients.map((client) => client.connected));
  const { closed: closedByIt, lastAt } = await closedByServer(port, clients);
  await watching.held();
  const answers = await Promise.all(clients.map((client) => client.read({ untilClose: true })));
  const { seen, held, checks } = await watching.stop(scenario, settings, NON_READING);
  const bound = watching.before + settings.maxUnsentMiB + SETTLE_MARGIN_MIB;
  const settled = await settledRss(service);
  const stillServing = (await call(undefined, port, 'GET', '/books?limit=1')).status === 200;

  const { counts, text } = tally(answers, (answer) => outcome(answer, books, (json) => json));
  const closedWhen = closedByIt ? `, the last ${(lastAt / 1000).toFixed(1)} s after they asked` : '';
  console.log(`${scenario}: ${figures(watching.before, seen, settled, held)}; ${closedByIt} closed by the server${closedWhen}; answers: ${text}`);
  return [
    ...checks,
    {
      name: `${scenario}: the server closes every one of those connections itself (RESPONSE_WRITE_TIMEOUT_MS)`,
      ok: closedByIt === NON_READING,
      detail: `${closedByIt} of ${NON_READING} closed`,
    },
    {
      name: `${scenario}: each answer is cut without its last chunk, whole, or a 503 with Retry-After; never a shorter JSON that parses`,
      ok: (counts.cut ?? 0) + (counts.whole ?? 0) + (counts.busy ?? 0) === NON_READING,
      detail: text,
    },
    {
      name: `${scenario}: its garbage collected, RSS is back under the RSS before + MAX_UNSENT_BYTES + ${SETTLE_MARGIN_MIB} MiB`,
      ok: settled < bound,
      detail: `${settled.toFixed(0)} MiB, bound ${bound.toFixed(0)} MiB`,
    },
    { name: `${scenario}: the service still answers afterwards`, ok: stillServing, detail: 'GET /books?limit=1 failed' },
  ];
}

/**
 * What a client got, once it read: `whole` (a 200 that ends complete and holds the `books` records in id order,
 * `list` taking them from the parsed body), `cut` (a 200 that ends early and does not parse), `busy` (a 503 with
 * Retry-After), or what else it was.
 */
function outcome(answer, books, list) {
  if (answer.status === 503) return answer.headers['retry-after'] ? 'busy' : '503 without Retry-After';
  if (answer.status !== 200) return `status ${answer.status || 'none'}`;
  if (!answer.complete) return parses(answer.body) ? 'truncated JSON that parses' : 'cut';
  if (!parses(answer.body)) return 'complete but does not parse';
  const records = list(JSON.parse(answer.body.toString('utf8')));
  const inOrder = Array.isArray(records) && records.every((record, i) => i === 0 || Number(record.id) > Number(records[i - 1].id));
  return records?.length === books && inOrder ? 'whole' : `a list of ${records?.length} records${inOrder ? '' : ' out of order'}`;
}

/** How many answers had each outcome, and that as text. */
function tally(answers, outcomeOf) {
  const counts = {};
  for (const answer of answers) {
    const label = outcomeOf(answer);
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return { counts, text: Object.entries(counts).map(([label, n]) => `${n} ${label}`).join(', ') };
}

/**
 * 2. The same with GraphQL `{ books { id title pages } }`, on a service that never cuts a client for not reading
 * (RESPONSE_WRITE_TIMEOUT_MS far longer than the run): a large answer, written in turns (GRAPHQL_MAX_LARGE_ANSWERS);
 * the others wait GRAPHQL_LARGE_ANSWER_WAIT_MS for a turn and get a 503. The clients hold until the service has
 * answered every request it does not write (its 503s, counted in /metrics) beside at most the answers it is
 * writing, then read: each answer is the whole result or a 503 with Retry-After.
 */
async function graphqlNonReaders({ service, port, pid, settings, books }) {
  const scenario = `GraphQL non-readers (${NON_READING} x { books { id title pages } } of ${books} books)`;
  // Answered: counted by the service's own metrics (a request is counted once its answer is sent), read before the
  // clients ask (a busy service may answer some before a later reading). Only the large answers under way (at
  // most GRAPHQL_MAX_LARGE_ANSWERS) are not counted.
  const answeredBefore = await graphqlAnswered(port);
  const watching = await watchHolding(service, pid, port);
  const clients = Array.from({ length: NON_READING }, () => rawClient(port, requestText('POST', '/graphql', BOOKS_QUERY)));
  await Promise.all(clients.map((client) => client.connected));
  await until('the service answering the GraphQL requests it does not write', async () => {
    service.stillRunning();
    return (await graphqlAnswered(port)) - answeredBefore >= NON_READING - settings.maxLargeAnswers;
  });
  await watching.held();
  const answers = await Promise.all(clients.map((client) => client.read()));
  const { seen, held, checks } = await watching.stop(scenario, settings, NON_READING);
  const { counts, text } = tally(answers, (answer) => outcome(answer, books, (json) => json.data?.books));
  const { whole = 0, busy = 0 } = counts;
  console.log(`${scenario}: ${figures(watching.before, seen, undefined, held)}; answers: ${text}`);
  return [
    ...checks,
    {
      name: `${scenario}: each answer is the whole result or a 503 with Retry-After, and some are whole`,
      ok: whole + busy === NON_READING && whole > 0,
      detail: text,
    },
  ];
}

/** How long one reading of /metrics may take; one that takes longer counts as no answer, so the wait's hang guard still applies. */
const METRICS_READ_MS = 5000;

/** GraphQL requests the service has answered so far, by its /metrics (`http_requests_total` of the graphql route). */
async function graphqlAnswered(port) {
  const res = await new Promise((resolve) => {
    const req = require('node:http')
      .get({ host: '127.0.0.1', port, path: '/metrics', agent: false, timeout: METRICS_READ_MS }, (r) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (d) => (text += d));
        r.on('end', () => resolve(text));
        r.on('error', () => resolve(''));
      })
      .on('timeout', () => req.destroy(new Error('no answer from /metrics')))
      .on('error', () => resolve(''));
  });
  let total = 0;
  for (const line of res.split('\n')) {
    if (line.startsWith('http_requests_total{') && /operation="graphql"/.test(line)) total += Number(line.split(' ').pop());
  }
  return total;
}

module.exports = { restNonReaders, graphqlNonReaders, parses, NON_READING };
