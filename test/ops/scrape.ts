import { getMetricsFromIterator, type PromMetric, type PromMetrics } from 'prom2javascript';
import type { TestApp } from '../support/app';

type Sample = PromMetric['data'][number];

/** One scrape, parsed by a Prometheus text-format parser (prom2javascript; it throws on a malformed line). */
export class Scrape {
  constructor(readonly families: PromMetrics) {}

  family(name: string): PromMetric | undefined {
    return this.families[name];
  }

  private sample(name: string, labels: Record<string, string>): Sample | undefined {
    return (this.family(name)?.data ?? []).find((s: Sample) => sameLabels(s.labels, labels));
  }

  /** A counter's or gauge's value, or a histogram's count; 0 when the series does not exist (yet). */
  value(name: string, labels: Record<string, string> = {}): number {
    const sample = this.sample(name, labels);
    if (!sample) return 0;
    return 'value' in sample ? sample.value : (sample.count ?? 0);
  }

  /** Every value a label takes in a family. */
  labelValues(name: string, label: string): string[] {
    return [...new Set((this.family(name)?.data ?? []).map((s: Sample) => s.labels[label]).filter((v): v is string => v !== undefined))].sort();
  }

  /** Series of the service's own metrics (http_*, graphql_*, pg_*), a histogram counted once per label set. */
  serviceSeries(): number {
    return Object.entries(this.families)
      .filter(([name]) => /^(http|graphql|pg)_/.test(name))
      .reduce((n, [, family]) => n + family.data.length, 0);
  }
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * prom-client writes NaN as `Nan` (Prometheus reads it: its parser takes NaN in any case), which
 * prom2javascript does not know. Only the event-loop statistics are NaN, before their first sample.
 */
const NAN_SAMPLE = / Nan$/;
const MAY_BE_NAN = /^nodejs_eventloop_lag_\w+_seconds /;

/** The Prometheus text content type the metrics path answers with. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** GET the metrics path (200, the Prometheus text content type) and parse the answer. */
export async function scrape(http: TestApp['http'], path = '/metrics'): Promise<Scrape> {
  const res = await http.get(path).expect(200).expect('Content-Type', METRICS_CONTENT_TYPE);
  return parseScrape(res.text);
}

/** Parses an exposition text; only the event-loop statistics may be NaN. */
export async function parseScrape(text: string): Promise<Scrape> {
  const lines = text.split('\n');
  const nan = lines.filter((line) => NAN_SAMPLE.test(line));
  expect(nan.filter((line) => !MAY_BE_NAN.test(line))).toEqual([]);
  return new Scrape(await getMetricsFromIterator(lines.filter((line) => !NAN_SAMPLE.test(line))[Symbol.iterator]()));
}
