/**
 * The Node entry's metrics backend: the proxy's metrics (core/metrics.ts) rendered at `/metrics`
 * by a prom-client registry, in the Prometheus text format, with prom-client's standard process and
 * Node.js metrics (`process_*`, `nodejs_*`) beside them.
 *
 * Counters and gauges are counted in plain maps (`memoryBackend`), which prom-client's metrics
 * copy when they are collected, at a scrape: counting on the hot path is then a map lookup and an
 * addition, where prom-client's own `inc` hashes its label object on every call. Histograms, whose
 * buckets prom-client alone keeps, observe into prom-client directly, through one bound child per
 * series.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  memoryBackend,
  METRIC_PREFIX,
  METRICS,
  type MetricName,
  type MetricsBackend,
  type MetricsSnapshot,
  type Sample,
} from '../core/metrics.js';

/** Options of the prom-client backend. */
export interface PrometheusOptions {
  /** Adds prom-client's process and Node.js metrics (CPU, memory, event loop lag, GC); default true. */
  processMetrics?: boolean;
}

/** prom-client's standard gauges named like counters, which `promtool check metrics` rightly refuses. */
const MISNAMED = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** A backend over a fresh prom-client registry. */
export function prometheusBackend(options: PrometheusOptions = {}): MetricsBackend & { registry: Registry } {
  const counted = memoryBackend();
  const registry = new Registry();
  const histograms = new Map<MetricName, Histogram<string>>();
  for (const [name, definition] of Object.entries(METRICS) as [MetricName, (typeof METRICS)[MetricName]][]) {
    const config = {
      name: `${METRIC_PREFIX}${name}`,
      help: definition.help,
      labelNames: [...definition.labels],
      registers: [registry],
    };
    if (definition.type === 'histogram') {
      histograms.set(
        name,
        new Histogram({ ...config, buckets: [...(definition as { buckets: readonly number[] }).buckets] }),
      );
    } else if (definition.type === 'counter') {
      new Counter({
        ...config,
        collect() {
          this.reset();
          for (const sample of counted.samples(name)) this.inc(sample.labels, sample.value);
        },
      });
    } else {
      new Gauge({
        ...config,
        collect() {
          // A series not set (or set to null) is absent, not 0: a label-less gauge starts at 0 otherwise.
          this.reset();
          if (config.labelNames.length === 0) this.remove();
          for (const sample of counted.samples(name)) this.set(sample.labels, sample.value);
        },
      });
    }
  }
  if (options.processMetrics ?? true) {
    collectDefaultMetrics({ register: registry });
    // The same counts are in `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources`.
    for (const name of MISNAMED) registry.removeSingleMetric(name);
  }

  // One bound child per histogram series: prom-client hashes a label object on every call otherwise.
  const children = new Map<string, { observe(value: number): void }>();
  const histogramOf = (name: MetricName, labels: Record<string, string>) => {
    let key: string = name;
    for (const label of METRICS[name].labels) key += `\u0000${labels[label]}`;
    let child = children.get(key);
    if (!child) {
      const values = METRICS[name].labels.map((label) => labels[label]!);
      const histogram = histograms.get(name)!;
      child = values.length ? histogram.labels(...values) : histogram;
      children.set(key, child);
    }
    return child;
  };

  return {
    registry,
    inc: counted.inc,
    set: counted.set,
    observe: (name, labels, value) => histogramOf(name, labels).observe(value),
    series(name, labels) {
      if (!histograms.has(name)) return counted.series(name, labels);
      const child = histogramOf(name, labels);
      return (value) => child.observe(value);
    },
    async read() {
      const snapshot: MetricsSnapshot = await counted.read();
      // Histogram values come as `_bucket`, `_sum` and `_count` lines: the count and sum per label set.
      for (const [name, histogram] of histograms) {
        const byLabels = new Map<string, Sample>();
        for (const value of (await histogram.get()).values) {
          const metricName = (value as { metricName?: string }).metricName ?? '';
          if (metricName.endsWith('_bucket')) continue;
          const labels = value.labels as Sample['labels'];
          const key = JSON.stringify(labels);
          let sample = byLabels.get(key);
          if (!sample) byLabels.set(key, (sample = { labels: { ...labels }, value: 0, sum: 0 }));
          if (metricName.endsWith('_sum')) sample.sum = value.value;
          else sample.value = value.value;
        }
        snapshot[name] = [...byLabels.values()];
      }
      return snapshot;
    },
    async exposition() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
