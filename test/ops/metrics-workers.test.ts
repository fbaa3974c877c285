import { describePostgres } from '../support/postgres';
import { getOnOwnConnection, twoWorkers, untilWorkersServe } from '../support/workers';
import { METRICS_CONTENT_TYPE, parseScrape, type Scrape } from './scrape';

const GET_BOOK_OK = { operation: 'getBook', status_class: '2xx' };

describePostgres('GET /metrics with WORKERS=2 (each scrape answered by whichever worker accepts it)', () => {
  const workers = twoWorkers();

  /** One scrape on a connection of its own. */
  async function scrapeService(): Promise<Scrape> {
    const res = await getOnOwnConnection(workers.service.baseUrl, '/metrics');
    expect({ status: res.status, type: res.type }).toEqual({ status: 200, type: METRICS_CONTENT_TYPE });
    return parseScrape(res.text);
  }

  /** `count` GET /books/1, each on a connection of its own, 8 at a time: the workers share them. */
  async function getBooks(count: number): Promise<void> {
    const statuses: number[] = [];
    let started = 0;
    const client = async () => {
      while (started < count) {
        started += 1;
        statuses.push((await getOnOwnConnection(workers.service.baseUrl, '/books/1')).status);
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }

  /** getBook's 2xx count in each of `times` scrapes. */
  async function getBookCounts(times: number): Promise<number[]> {
    const counts: number[] = [];
    for (let i = 0; i < times; i += 1) counts.push((await scrapeService()).value('http_requests_total', GET_BOOK_OK));
    return counts;
  }

  it('when N requests were served on fresh connections, then every scrape counts all N, and each worker has its own pool gauges', async () => {
    const pids = await untilWorkersServe(workers.service);
    await getBooks(200);

    expect(await getBookCounts(8)).toEqual(Array(8).fill(200));
    const metrics = await scrapeService();
    const byWorker = (name: string) => metrics.labelValues(name, 'worker');
    const labels = pids.map(String).sort();
    expect({
      connections: byWorker('pg_pool_connections'),
      idle: byWorker('pg_pool_idle_connections'),
      waiting: byWorker('pg_pool_waiting_requests'),
    }).toEqual({ connections: labels, idle: labels, waiting: labels });
    // Summed over the workers: only the scrape being answered is in flight.
    expect(metrics.value('http_requests_in_flight')).toBe(1);
  }, 60000);

  it('when a worker is killed and replaced, then the counts it had at the last scrape stay in the sums and the replacement adds its own', async () => {
    const pids = await untilWorkersServe(workers.service);
    const [before] = await getBookCounts(1);
    expect(before).toBeGreaterThan(0);

    process.kill(pids[0], 'SIGKILL');
    const now = await untilWorkersServe(workers.service, [pids[0]]);
    expect(await getBookCounts(4)).toEqual(Array(4).fill(before));
    expect((await scrapeService()).labelValues('pg_pool_connections', 'worker')).toEqual(now.map(String).sort());

    await getBooks(50);
    expect(await getBookCounts(4)).toEqual(Array(4).fill(before + 50));
  }, 60000);
});
