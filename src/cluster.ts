import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './logger';
import { aggregateWorkerMetrics } from './ops/cluster-metrics';

/**
 * The primary process of `WORKERS=<n>` (n > 1): forks n workers that share the listening port
 * (each runs server.ts's normal start against the shared database), replaces a worker that dies
 * after it started, and stops everything if one cannot start. SIGTERM/SIGINT are passed on; each
 * worker drains its requests and closes its pool; the primary exits when all have.
 *
 * Workers accept connections themselves from the shared listening socket (SCHED_NONE), not through
 * the primary's round-robin: with round-robin the primary accepts and hands each connection to a
 * worker, and a connection handed to a worker that dies before taking it stays open in the primary
 * with no answer, forever. With SCHED_NONE a killed worker takes only the connections it had
 * accepted, and the operating system closes those at once (the client sees a reset, never a hang);
 * connections not yet accepted wait in the kernel's backlog for the other workers.
 *
 * A worker's metrics route answers with every worker's metrics, which the primary collects and adds up
 * (ops/cluster-metrics.ts).
 */
export function runPrimary(workers: number, logger: Logger): void {
  // Must be set before the first fork; it applies to every worker forked after.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  aggregateWorkerMetrics();
  const started = new Set<number>();
  let stopping = false;
  let exitCode = 0;

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.once('listening', () => started.add(worker.id));
    return worker;
  };

  const stop = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ reason }, 'shutting down workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (code !== 0 && code !== null) exitCode = exitCode || 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info('stopped');
        process.exit(exitCode);
      }
      return;
    }
    if (!started.has(worker.id)) {
      process.stderr.write(`Failed to start: worker ${worker.process.pid} exited (${signal ?? code}) before listening\n`);
      stop('a worker could not start', 1);
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died: starting a replacement');
    fork();
  });

  logger.info({ workers }, 'starting workers');
  for (let i = 0; i < workers; i += 1) fork();
  process.once('SIGTERM', () => stop('SIGTERM', 0));
  process.once('SIGINT', () => stop('SIGINT', 0));
}
