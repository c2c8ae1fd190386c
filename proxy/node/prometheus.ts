/**
 * The Node entry's metrics backend: the proxy's metrics (core/metrics.ts) kept in a prom-client
 * registry, which renders them at `/metrics` in the Prometheus text format (or OpenMetrics), with
 * prom-client's standard process and Node.js metrics (`process_*`, `nodejs_*`) beside them.
 *
 * Each series' child is looked up once and kept, so counting on the hot path is a map lookup and
 * prom-client's own increment.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
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

type Instrument = Counter<string> | Gauge<string> | Histogram<string>;

/** A backend over a fresh prom-client registry. */
export function prometheusBackend(options: PrometheusOptions = {}): MetricsBackend & { registry: Registry } {
  const registry = new Registry();
  const instruments = new Map<MetricName, Instrument>();
  for (const [name, definition] of Object.entries(METRICS) as [MetricName, (typeof METRICS)[MetricName]][]) {
    const config = {
      name: `${METRIC_PREFIX}${name}`,
      help: definition.help,
      labelNames: [...definition.labels],
      registers: [registry],
    };
    instruments.set(
      name,
      definition.type === 'counter'
        ? new Counter(config)
        : definition.type === 'gauge'
          ? new Gauge(config)
          : new Histogram({ ...config, buckets: [...(definition as { buckets: readonly number[] }).buckets] }),
    );
  }
  if (options.processMetrics ?? true) {
    collectDefaultMetrics({ register: registry });
    // Gauges named like counters, which `promtool check metrics` rightly refuses; the same counts
    // are in `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources`.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      registry.removeSingleMetric(name);
  }

  // One bound child per series: prom-client hashes a label object on every call otherwise.
  const children = new Map<
    string,
    { inc?(by: number): void; set?(value: number): void; observe?(value: number): void }
  >();
  const child = (name: MetricName, labels: Record<string, string>) => {
    let key = name;
    for (const label of METRICS[name].labels) key += `\u0000${labels[label]}`;
    let found = children.get(key);
    if (!found) {
      const instrument = instruments.get(name)!;
      const values = METRICS[name].labels.map((label) => labels[label]!);
      found = values.length ? (instrument as Counter<string>).labels(...values) : instrument;
      children.set(key, found);
    }
    return found;
  };

  return {
    registry,
    inc: (name, labels, by) => child(name, labels).inc!(by),
    set(name, labels, value) {
      if (value !== null) return child(name, labels).set!(value);
      // A series not known yet is absent rather than 0 (a label-less gauge starts at 0 otherwise).
      (instruments.get(name) as Gauge<string>).remove(...METRICS[name].labels.map((label) => labels[label]!));
    },
    observe: (name, labels, value) => child(name, labels).observe!(value),
    async read() {
      const snapshot: MetricsSnapshot = {};
      for (const metric of await registry.getMetricsAsJSON()) {
        if (!metric.name.startsWith(METRIC_PREFIX)) continue;
        const name = metric.name.slice(METRIC_PREFIX.length) as MetricName;
        if (!(name in METRICS)) continue;
        const samples: Sample[] = [];
        if (METRICS[name].type !== 'histogram') {
          for (const value of metric.values)
            samples.push({ labels: { ...value.labels } as Sample['labels'], value: value.value });
        } else {
          // Histogram values come as `_bucket`, `_sum` and `_count` lines: the count and sum per label set.
          const byLabels = new Map<string, Sample>();
          for (const value of metric.values) {
            const metricName = (value as { metricName?: string }).metricName ?? '';
            if (metricName.endsWith('_bucket')) continue;
            const labels = value.labels as Sample['labels'];
            const key = JSON.stringify(labels);
            let sample = byLabels.get(key);
            if (!sample) byLabels.set(key, (sample = { labels: { ...labels }, value: 0, sum: 0 }));
            if (metricName.endsWith('_sum')) sample.sum = value.value;
            else sample.value = value.value;
          }
          samples.push(...byLabels.values());
        }
        snapshot[name] = samples;
      }
      return snapshot;
    },
    async exposition() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
