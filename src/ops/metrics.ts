import cluster from 'node:cluster';
import type { Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { operationMethod, type OwnRoute } from '../http/routes';
import { sendText } from '../http/send';
import type { Store } from '../store/types';
import { workerScraper } from './cluster-metrics';

/** The `operation` label of requests that match no operation: unknown paths, methods a path lacks, OPTIONS. */
export const UNMATCHED = 'unmatched';
/** GraphQL operation names beyond the first MAX_GRAPHQL_NAMES seen (or longer than MAX_NAME_LENGTH) share this label. */
export const OTHER_NAME = 'other';
const ANONYMOUS = 'anonymous';
export const MAX_GRAPHQL_NAMES = 100;
const MAX_NAME_LENGTH = 64;

export type RefusalReason = 'depth' | 'aliases' | 'tokens' | 'invalid' | 'body_size';
const REFUSAL_REASONS: readonly RefusalReason[] = ['depth', 'aliases', 'tokens', 'invalid', 'body_size'];

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
/** Seconds; from a cached GET (under a millisecond) to the slowest request worth telling apart. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the GraphQL endpoint reports. A no-op when metrics are off. */
export interface GraphqlMetrics {
  /** The operation a request executed (stored on the response, counted when the request ends). */
  executed(res: Response | undefined, type: string, name: string | undefined): void;
  refused(reason: RefusalReason): void;
  compiled(): void;
  /** How to read the number of cached documents at scrape time. */
  cachedDocuments(read: () => number): void;
}

export const NO_GRAPHQL_METRICS: GraphqlMetrics = {
  executed: () => undefined,
  refused: () => undefined,
  compiled: () => undefined,
  cachedDocuments: () => undefined,
};

/** What requestContext reports for every request. */
export interface RequestMetrics {
  started(): void;
  finished(method: string, path: string, status: number, seconds: number, res: Response): void;
}

export interface ServiceMetrics extends RequestMetrics {
  readonly registry: Registry;
  /** Where the metrics are served (METRICS_PATH). */
  readonly path: string;
  readonly graphql: GraphqlMetrics;
  /** The route serving the exposition text at the metrics path (GET and HEAD), for the route table. */
  readonly route: OwnRoute;
}

interface GraphqlLabels {
  type: string;
  name: string;
}

/**
 * Prometheus metrics for one app, on its own registry (no global state: every app counts alone).
 * Labels are bounded: REST requests by the spec's operationId (found through the route table, never the
 * raw path), GraphQL requests by operation type and a capped set of operation names.
 * In a worker of `WORKERS=<n>` the metrics route answers with every worker's metrics added up
 * (cluster-metrics.ts), and the pool gauges carry a `worker` label (the worker's pid).
 */
export function createMetrics({ store, path }: { store: Store; path: string }): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by operation (REST operationId, graphql, docs, metrics or unmatched) and status class.',
    labelNames: ['operation', 'status_class'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'http_auth_refusals_total',
    help: 'Requests refused for their credentials (401: no or an invalid token; 403: a scope missing), by operation.',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request arriving to the response being closed, by operation.',
    labelNames: ['operation'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  // A plain number, read at scrape time: two gauge updates per request cost more than the rest of the counting.
  let inFlight = 0;
  new Gauge({
    name: 'http_requests_in_flight',
    help: 'Requests being served now (with several workers: by all of them).',
    aggregator: 'sum',
    registers,
    collect() {
      this.set(inFlight);
    },
  });
  const graphqlDuration = new Histogram({
    name: 'graphql_request_duration_seconds',
    help: `GraphQL requests that executed an operation, by type and name (anonymous operations: "${ANONYMOUS}"; names beyond the first ${MAX_GRAPHQL_NAMES}: "${OTHER_NAME}").`,
    labelNames: ['operation_type', 'operation_name'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const refused = new Counter({
    name: 'graphql_documents_refused_total',
    help: 'GraphQL documents refused before execution, by reason (a limit, or invalid for the schema).',
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of REFUSAL_REASONS) refused.inc({ reason }, 0);
  const compiled = new Counter({ name: 'graphql_documents_compiled_total', help: 'GraphQL query documents compiled with graphql-jit.', registers });
  let readCached = () => 0;
  new Gauge({
    name: 'graphql_documents_cached',
    help: 'Parsed and validated GraphQL documents kept for reuse (with several workers: in all their caches).',
    aggregator: 'sum',
    registers,
    collect() {
      this.set(readCached());
    },
  });
  if (store.poolStats) poolGauges(registry, () => store.poolStats!(), cluster.isWorker ? { worker: String(process.pid) } : {});

  const names = new Set<string>();
  const nameLabel = (name: string | undefined): string => {
    if (!name) return ANONYMOUS;
    if (names.has(name)) return name;
    if (name.length > MAX_NAME_LENGTH || names.size >= MAX_GRAPHQL_NAMES) return OTHER_NAME;
    names.add(name);
    return name;
  };

  // prom-client children per operation, bound once (operations are a bounded set): each request then
  // counts without hashing its label values again.
  type Bound = { duration: { observe(seconds: number): void }; byClass: { inc(): void }[] };
  const bound = new Map<string, Bound>();
  const boundFor = (operation: string): Bound => {
    let children = bound.get(operation);
    if (!children) {
      children = {
        duration: duration.labels({ operation }),
        byClass: STATUS_CLASSES.map((statusClass) => requests.labels({ operation, status_class: statusClass })),
      };
      bound.set(operation, children);
    }
    return children;
  };

  /** The request's operation, from the route the table matched: an operationId, a route's label, or unmatched. */
  const operationOf = (method: string, res: Response): string => {
    const route = res.locals.state?.match?.route;
    if (!route) return UNMATCHED;
    return route.label || (route.operations[operationMethod(method)]?.operationId ?? UNMATCHED);
  };

  // Process metrics (CPU, memory, event-loop lag, GC, handles) start with the first scrape (with
  // several workers, in every worker at the first scrape of any): their event-loop and GC observers
  // then run only in apps that someone scrapes.
  let processMetrics = false;
  const startProcessMetrics = () => {
    if (processMetrics) return;
    processMetrics = true;
    collectDefaultMetrics({ register: registry });
  };
  // A worker's scrape is the whole process tree's (every worker collects when one is scraped).
  const exposition = cluster.isWorker ? workerScraper(registry, startProcessMetrics) : () => registry.metrics();
  const route: OwnRoute = {
    path,
    methods: ['GET', 'HEAD'],
    label: 'metrics',
    setting: 'METRICS_PATH',
    handler: (_req, res, next) => {
      startProcessMetrics();
      exposition().then((text) => sendText(res, 200, registry.contentType, text, { 'Cache-Control': 'no-store' }), next);
    },
    writesThroughService: true,
  };

  return {
    registry,
    path,
    route,
    started: () => {
      inFlight += 1;
    },
    finished(method, _path, status, seconds, res) {
      inFlight -= 1;
      const operation = operationOf(method, res);
      const children = boundFor(operation);
      if (status === 401 || status === 403) refusals.inc({ operation, status: String(status) });
      children.byClass[Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1].inc();
      children.duration.observe(seconds);
      const graphql = res.locals.graphqlOperation as GraphqlLabels | undefined;
      if (graphql) graphqlDuration.observe({ operation_type: graphql.type, operation_name: graphql.name }, seconds);
    },
    graphql: {
      executed(res, type, name) {
        if (res) res.locals.graphqlOperation = { type, name: nameLabel(name) } satisfies GraphqlLabels;
      },
      refused: (reason) => refused.inc({ reason }),
      compiled: () => compiled.inc(),
      cachedDocuments(read) {
        readCached = read;
      },
    },
  };
}

/** The PostgreSQL pool's connections, read at scrape time; `labels` name the worker whose pool it is. */
function poolGauges(registry: Registry, stats: () => { size: number; idle: number; waiting: number }, labels: Record<string, string>): void {
  const gauge = (name: string, help: string, key: 'size' | 'idle' | 'waiting') =>
    new Gauge({
      name,
      help,
      labelNames: Object.keys(labels),
      registers: [registry],
      collect() {
        this.set(labels, stats()[key]);
      },
    });
  gauge('pg_pool_connections', 'Open connections in the PostgreSQL pool.', 'size');
  gauge('pg_pool_idle_connections', 'Open connections in the PostgreSQL pool not running a query.', 'idle');
  gauge('pg_pool_waiting_requests', 'Queries waiting for a connection of the PostgreSQL pool.', 'waiting');
}
