/**
 * The Node entry's metrics backend: the proxy's metrics (core/metrics.ts) rendered at `/metrics`
 * by a prom-client registry, in the Prometheus text format, with prom-client's standard process and
 * Node.js metrics (`process_*`, `nodejs_*`) beside them.
 *
 * Every number is counted in plain maps (`memoryBackend`), which the registry's metrics read when
 * they are collected, at a scrape: counting on the hot path is then a map lookup and an addition,
 * and observing a histogram a short loop over its buckets, where prom-client's own `inc` and
 * `observe` re-validate and re-hash their labels on every call (its `observe` was ~16 % of a cached
 * read's answer). Counters and gauges are prom-client's, filled from the maps; histograms are
 * objects of our own (`histogramMetric`) that give the registry what prom-client's Histogram would,
 * so `/metrics` reads the same.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics, type Histogram } from 'prom-client';
import {
  memoryBackend,
  METRIC_PREFIX,
  METRICS,
  type MemoryBackend,
  type MetricDefinition,
  type MetricName,
  type MetricsBackend,
} from '../core/metrics.js';

/** Options of the prom-client backend. */
export interface PrometheusOptions {
  /** Adds prom-client's process and Node.js metrics (CPU, memory, event loop lag, GC); default true. */
  processMetrics?: boolean;
}

/** prom-client's standard gauges named like counters, which `promtool check metrics` rightly refuses. */
const MISNAMED = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** One line of a metric's values, as prom-client's registry renders it. */
interface ValueLine {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * A histogram of the memory backend as a metric of prom-client's registry: its values are those of
 * prom-client's own Histogram (per series, cumulative `_bucket` lines labelled `le` first and ending
 * in `+Inf`, then `_sum` and `_count`; labels in the definition's order; a labelled series from its
 * first observation on), so the registry renders the very same text.
 */
function histogramMetric(name: MetricName, counted: MemoryBackend) {
  const definition: MetricDefinition = METRICS[name];
  const bounds = definition.buckets!;
  const fullName = `${METRIC_PREFIX}${name}`;
  const bucket = `${fullName}_bucket`;
  const sum = `${fullName}_sum`;
  const count = `${fullName}_count`;
  const metric = {
    name: fullName,
    help: definition.help,
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    async get() {
      const values: ValueLine[] = [];
      for (const sample of counted.samples(name)) {
        if (sample.value === 0 && definition.labels.length > 0) continue;
        const labels: Record<string, string> = {};
        for (const label of definition.labels) labels[label] = sample.labels[label]!;
        let cumulative = 0;
        for (let i = 0; i < bounds.length; i++) {
          cumulative += sample.buckets![i]!;
          values.push({ metricName: bucket, labels: { le: bounds[i]!, ...labels }, value: cumulative });
        }
        values.push(
          { metricName: bucket, labels: { le: '+Inf', ...labels }, value: sample.value },
          { metricName: sum, labels, value: sample.sum! },
          { metricName: count, labels, value: sample.value },
        );
      }
      return { name: fullName, help: metric.help, type: metric.type, values, aggregator: metric.aggregator };
    },
    /** The counts are the memory backend's, which a registry's reset leaves, as it leaves the counters' and gauges'. */
    reset() {},
  };
  return metric;
}

/** A backend over a fresh prom-client registry. */
export function prometheusBackend(options: PrometheusOptions = {}): MetricsBackend & { registry: Registry } {
  const counted = memoryBackend();
  const registry = new Registry();
  for (const [name, definition] of Object.entries(METRICS) as [MetricName, (typeof METRICS)[MetricName]][]) {
    const config = {
      name: `${METRIC_PREFIX}${name}`,
      help: definition.help,
      labelNames: [...definition.labels],
      registers: [registry],
    };
    if (definition.type === 'histogram') {
      // Not a prom-client class, but the registry needs only what `histogramMetric` has.
      registry.registerMetric(histogramMetric(name, counted) as unknown as Histogram);
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

  return {
    registry,
    inc: counted.inc,
    set: counted.set,
    observe: counted.observe,
    series: counted.series,
    read: counted.read,
    async exposition() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
