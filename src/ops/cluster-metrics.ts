import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * Metrics of the whole process tree with `WORKERS=<n>`. A scrape reaches one worker (whichever accepts
 * the connection); that worker asks the primary over node:cluster's IPC, the primary asks every worker
 * for its registry as JSON, adds them up with prom-client's AggregatorRegistry (counters and histograms
 * summed, each gauge as its `aggregator` says) and hands the text back. Single-process mode uses none
 * of this: its metrics route reads its own registry.
 */

/** worker → primary: a scrape arrived, send the whole tree's text. */
const SCRAPE = 'service:metrics-scrape';
/** primary → that worker: the text (or why there is none). */
const SCRAPED = 'service:metrics-scraped';
/** primary → every worker: send your metrics. */
const COLLECT = 'service:metrics-collect';
/** worker → primary: its metrics, as `registry.getMetricsAsJSON()` gives them. */
const COLLECTED = 'service:metrics-collected';

/** How long the primary waits for the workers' answers; a worker that has not answered by then counts with its previous answer. */
const COLLECT_TIMEOUT_MS = 2000;
/** How long a worker waits for the primary's text before the scrape fails. */
const SCRAPE_TIMEOUT_MS = 5000;

type Snapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

interface Message {
  type?: unknown;
  id?: number;
  text?: string;
  error?: string;
  metrics?: Snapshot;
}

/** Metric types whose values only grow (prom-client's JSON names types as strings; its typings say a numeric enum). */
const CUMULATIVE = new Set(['counter', 'histogram']);

/** Counters and histograms only: what a dead worker leaves in the sums. */
const cumulative = (snapshot: Snapshot): Snapshot => snapshot.filter((m) => CUMULATIVE.has(String(m.type)));

/** The snapshots added up into one, synchronously (aggregate's metrics carry their values). */
const fold = (snapshots: Snapshot[]): Snapshot => AggregatorRegistry.aggregate(snapshots).getMetricsAsArray() as unknown as Snapshot;

/**
 * Primary side: answers the workers' scrape requests. Keeps each worker's latest answer; when a worker
 * exits, the counters and histograms of its latest answer stay in the sums (so they never go down
 * while the service runs) and its gauges leave.
 */
export function aggregateWorkerMetrics(): void {
  const latest = new Map<number, Snapshot>();
  let retired: Snapshot = [];
  /** Collection rounds in progress: round id → "this worker is done" (answered or gone). */
  const rounds = new Map<number, (workerId: number) => void>();
  let nextRound = 0;
  /** The round answering the scrapes in progress, with the tree's text. */
  let scraping: Promise<string> | undefined;

  const collect = (): Promise<void> =>
    new Promise((resolve) => {
      const round = nextRound++;
      const pending = new Set<number>();
      const finish = () => {
        clearTimeout(timer);
        rounds.delete(round);
        resolve();
      };
      const timer = setTimeout(finish, COLLECT_TIMEOUT_MS);
      rounds.set(round, (workerId) => {
        if (pending.delete(workerId) && pending.size === 0) finish();
      });
      for (const worker of Object.values(cluster.workers ?? {})) {
        if (!worker?.isConnected()) continue;
        pending.add(worker.id);
        worker.send({ type: COLLECT, id: round }, undefined, (err) => err && rounds.get(round)?.(worker.id));
      }
      if (pending.size === 0) finish();
    });

  const reply = (worker: Worker, message: Message) => {
    if (worker.isConnected()) worker.send(message, undefined, () => undefined);
  };

  cluster.on('message', (worker: Worker, message: Message) => {
    if (message?.type === COLLECTED) {
      if (message.metrics) latest.set(worker.id, message.metrics);
      rounds.get(message.id!)?.(worker.id);
    } else if (message?.type === SCRAPE) {
      // Scrapes that arrive while a round runs share it: a burst of scrapes costs the workers one collection.
      scraping ??= collect()
        .then(() => AggregatorRegistry.aggregate([retired, ...latest.values()]).metrics())
        .finally(() => {
          scraping = undefined;
        });
      scraping.then(
          (text) => reply(worker, { type: SCRAPED, id: message.id, text }),
          (err: Error) => reply(worker, { type: SCRAPED, id: message.id, error: err.message }),
        );
    }
  });

  cluster.on('exit', (worker: Worker) => {
    const last = latest.get(worker.id);
    latest.delete(worker.id);
    if (last) retired = fold([retired, cumulative(last)]);
    for (const done of rounds.values()) done(worker.id);
  });
}

/**
 * Worker side: answers the primary's requests for this worker's metrics (calling `beforeCollect`
 * first), and returns the scrape function the metrics route calls: the whole tree's text, from the primary.
 */
export function workerScraper(registry: Registry, beforeCollect: () => void): () => Promise<string> {
  const waiting = new Map<number, (message: Message) => void>();
  let nextId = 0;

  process.on('message', (message: Message) => {
    if (message?.type === COLLECT) {
      beforeCollect();
      registry.getMetricsAsJSON().then(
        (metrics) => process.connected && process.send!({ type: COLLECTED, id: message.id, metrics }),
        () => process.connected && process.send!({ type: COLLECTED, id: message.id }),
      );
    } else if (message?.type === SCRAPED) {
      waiting.get(message.id!)?.(message);
    }
  });

  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => settle({ error: `the primary process did not answer within ${SCRAPE_TIMEOUT_MS} ms` }), SCRAPE_TIMEOUT_MS);
      const settle = (message: Message) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (message.text !== undefined) resolve(message.text);
        else reject(new Error(`metrics of the workers: ${message.error ?? 'no answer'}`));
      };
      waiting.set(id, settle);
      if (!process.connected) return settle({ error: 'not connected to the primary process' });
      process.send!({ type: SCRAPE, id });
    });
}
