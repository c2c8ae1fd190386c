/**
 * What the proxy counts, in one place: every metric's name, type, help text and labels, and the
 * events the routes, guards, upstream client and state report (`Metrics`). Runtime-free, so the
 * Node entry, the Worker entry and tests record the very same counters.
 *
 * Where the numbers are kept is a backend's business: `memoryBackend()` here (plain maps, for the
 * status page, the Worker and tests), or the Node entry's (node/prometheus.ts), which counts in the
 * same maps and renders them at `/metrics` through a prom-client registry. Names follow Prometheus
 * conventions: one prefix, base units (seconds), `_total` on counters, and labels whose values are
 * a fixed set written in this code (a route's template, a reason, an outcome), never a venue id, a
 * client address or anything else a request carries, so a hostile client cannot grow the series
 * without bound.
 */

/** The prefix of every metric the proxy reports. */
export const METRIC_PREFIX = 'venue_booking_';

/** Latency buckets in seconds: a cached read takes well under a millisecond, an upstream call tens to thousands. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How a metric is declared. */
export interface MetricDefinition {
  type: 'counter' | 'gauge' | 'histogram';
  help: string;
  labels: readonly string[];
  /** Upper bounds of a histogram's buckets, in its unit. */
  buckets?: readonly number[];
  /** The README's "Labels" cell: the values each label takes (Markdown); none: no labels. */
  labelDoc?: string;
  /** The README's "What it tells" cell. */
  tells: string;
  /** Where only the Node entry reports it (`/metrics` is the Node entry's anyway; the status page reads the rest). */
  node?: boolean;
}

/** Sizes in bytes: an envelope is a few hundred bytes, a widget chunk tens of kilobytes. */
export const SIZE_BUCKETS = [100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000];

/**
 * Every metric of the proxy, by name without the prefix. README.md's metrics table is rendered
 * from it (`npm run docs`; test/package/readme.test.ts fails on drift).
 */
export const METRICS = {
  requests_total: {
    type: 'counter',
    help: 'Requests answered, by route template, method and status code.',
    labels: ['route', 'method', 'code'],
    labelDoc: '`route` (template, `/:chunk.js` for every widget chunk, or `unmatched`), `method`, `code`',
    tells: 'requests answered',
  },
  requests_in_flight: {
    type: 'gauge',
    help: 'Requests received and not yet answered.',
    labels: [],
    tells: 'requests the proxy is working on now (a stuck upstream shows here first)',
  },
  request_latency_seconds: {
    type: 'histogram',
    help: 'Time from a request to its answer inside the proxy, by route template, method and status class (2xx, 3xx, 4xx, 5xx).',
    labels: ['route', 'method', 'status_class'],
    buckets: LATENCY_BUCKETS,
    labelDoc: '`route`, `method`, `status_class` (`2xx`, `3xx`, `4xx`, `5xx`)',
    tells: 'latency of good and failed answers apart (a fast 429 no longer flatters the p99 of reads)',
  },
  request_size_bytes: {
    type: 'histogram',
    help: 'Size of request bodies in bytes (Content-Length; 0 without a body), by route template.',
    labels: ['route'],
    buckets: SIZE_BUCKETS,
    labelDoc: '`route`',
    tells: 'what clients send (bookings are the only bodies)',
  },
  response_size_bytes: {
    type: 'histogram',
    help: 'Size of response bodies in bytes, by route template (answers of unknown length, a stream, are left out).',
    labels: ['route'],
    buckets: SIZE_BUCKETS,
    labelDoc: '`route`',
    tells: 'what the proxy sends back, uncompressed size of its envelopes, compressed size of the script',
  },
  connections_refused_total: {
    type: 'counter',
    help: 'Connections dropped at accept because VENUE_BOOKING_MAX_CONNECTIONS were open (Node entry).',
    labels: [],
    tells: 'the connection cap reached: a flood, or a cap too low for the traffic',
    node: true,
  },
  build_info: {
    type: 'gauge',
    help: "Always 1, labelled with the proxy's version.",
    labels: ['version'],
    labelDoc: '`version` (the package version)',
    tells: 'which release runs where (join on it to compare releases)',
  },
  request_duration_seconds: {
    type: 'histogram',
    help: 'Time from a request to its answer inside the proxy (upstream calls included), by route template.',
    labels: ['route'],
    buckets: LATENCY_BUCKETS,
    labelDoc: '`route`',
    tells: 'time in the proxy, upstream calls included',
  },
  upstream_requests_total: {
    type: 'counter',
    help: 'Calls made to the upstream service, by upstream route and outcome (ok, refused, or the fault).',
    labels: ['route', 'outcome'],
    labelDoc:
      '`route` (e.g. `GET /venues/:venue/booking-availability`), `outcome` (`ok`, `refused`, `timeout`, `unreachable`, `server`, `redirect`, `garbage`, `auth`, `limited`)',
    tells: "calls spent of the App ID's quota, and how each went",
  },
  upstream_duration_seconds: {
    type: 'histogram',
    help: 'Time an upstream call took, answer read included, by upstream route.',
    labels: ['route'],
    buckets: LATENCY_BUCKETS,
    labelDoc: '`route`',
    tells: "how slow the upstream is, beside the proxy's own time",
  },
  upstream_ratelimit_limit: {
    type: 'gauge',
    help: "The App ID's calls per window, as the upstream last reported (X-RateLimit-Limit); -1 until it said.",
    labels: [],
    tells:
      "the App ID's quota as the upstream last reported it (`X-RateLimit-Limit`); `-1` from start until it said, so an alert has data after a restart",
  },
  upstream_ratelimit_remaining: {
    type: 'gauge',
    help: "Calls left in the App ID's window, as the upstream last reported (X-RateLimit-Remaining); -1 until it said.",
    labels: [],
    tells: 'calls left of it (`X-RateLimit-Remaining`); `-1` until the upstream said',
  },
  upstream_ratelimit_reset_timestamp_seconds: {
    type: 'gauge',
    help: "When the App ID's window resets, Unix time in seconds (X-RateLimit-Reset); -1 until it said.",
    labels: [],
    tells: 'when its window resets (`X-RateLimit-Reset`); `-1` until the upstream said',
  },
  upstream_backoff: {
    type: 'gauge',
    help: '1 while the proxy stays away from the upstream after its 429, else 0.',
    labels: [],
    tells: "1 while the proxy stays away after the upstream's 429",
  },
  budget_remaining_calls: {
    type: 'gauge',
    help: "Upstream calls a share of the hourly budget may still spend, as last counted: early reads, final checks (all but the bookings' reserve), all (bookings).",
    labels: ['share'],
    labelDoc: '`share` (`early`, `final`, `all`)',
    tells: 'what each share of the hourly budget may still spend, as last counted',
  },
  budget_reserve_calls: {
    type: 'gauge',
    help: 'Upstream calls per hour kept back: from early reads for final checks and bookings (final), and for bookings alone (booking).',
    labels: ['share'],
    labelDoc: '`share` (`final`, `booking`)',
    tells: 'the calls kept back for final checks and bookings, and for bookings alone',
  },
  refusals_total: {
    type: 'counter',
    help: 'Requests refused by the proxy itself, by reason (a guard, a wrong or throttled operator token, a per-client limit, the upstream budget).',
    labels: ['reason'],
    labelDoc:
      '`reason`: guards `uri_too_long`, `invalid_path`, `method`, `method_override`, `unauthorized`, `unknown_host`, `forbidden_origin`, `body_too_large`; per-client limits `rate_limit` (the API’s and the pages’), `booking_rate_limit`, `miss_limit`; the budget `upstream_budget`, `upstream_spared`, `upstream_backoff`',
    tells: 'who is refused, and why',
  },
  cache_reads_total: {
    type: 'counter',
    help: 'Reads answered through the cache, by result: hit, miss (an upstream call), coalesced (waited for a call in flight), stale.',
    labels: ['result'],
    labelDoc: '`result` (`hit`, `miss`, `coalesced`, `stale`)',
    tells: 'how much the cache spares: only `miss` calls the upstream',
  },
  bookings_total: {
    type: 'counter',
    help: 'Bookings by outcome: confirmed, enquiry, handed_off (returned from the booking site with its hand-off id), replayed, refused, failed; unproven_return counts returns without a valid hand-off id (no booking is proven); decoy counts bots answered with a made-up booking (none made).',
    labels: ['outcome'],
    labelDoc:
      '`outcome` (`confirmed`, `enquiry`, `handed_off`: back from the booking site through the return bridge, `replayed`, `refused`, `failed`, `decoy`: a bot answered with a made-up booking)',
    tells: 'bookings',
  },
  booking_searches_total: {
    type: 'counter',
    help: 'Booking searches upstream (GET /bookings) made to tell whether a booking sent under an Idempotency-Key was made, by why and by what they found.',
    labels: ['reason', 'result'],
    labelDoc:
      '`reason` (`holder_lost`: the instance that sent it was lost, `settling`: in the background, `store_away`: a key met while the shared store is away), `result` (`found`: adopted, `none`: every result another booking, `unknown`)',
    tells: 'exactly once: how often it had to ask the upstream, and what it could tell',
  },
  guest_manage_total: {
    type: 'counter',
    help: 'What guests did with their manage links: views of a booking, cancellations, changes (a new booking that replaced one), each done, already done, or refused and why.',
    labels: ['action', 'outcome'],
    labelDoc:
      '`action` (`view`, `cancel`, `change`), `outcome` (`ok`, `already`: cancelled before, `not_found`: an unknown, altered or expired link; refused: `window`, `capability`, `status`, `venue`, `failed`: the service did not answer, `cross_site`: a cancel form sent from another site)',
    tells: 'guests managing their own bookings, and why some could not (see Guests manage their bookings)',
  },
  bot_checks_total: {
    type: 'counter',
    help: 'Booking requests judged by the bot check, by outcome: passed, or why not (the decoys and the stale proofs refused).',
    labels: ['outcome'],
    labelDoc:
      '`outcome` (`passed`; decoys: `honeypot`, `missing`, `invalid`, `replayed`, and with Turnstile `turnstile_missing`, `turnstile_failed`, `turnstile_replayed`; refused to fetch a new proof: `stale`; refused while Turnstile could not be asked: `turnstile_unavailable`)',
    tells: 'bots answered with a decoy instead of a booking, and proofs gone stale (see How it guards)',
  },
  webhook_deliveries_total: {
    type: 'counter',
    help: "Attempts to tell the venue's webhook of a guest's cancel or change, by outcome: delivered (a 2xx), retried (an attempt failed, another follows), failed (the last attempt failed; the event is dropped).",
    labels: ['outcome'],
    labelDoc: '`outcome` (`delivered`, `retried`, `failed`: given up after the last attempt)',
    tells: "whether the venue's system hears of cancels and changes (`/status` lists the last failures)",
  },
  store_state: {
    type: 'gauge',
    help: 'State of the shared store: 1 for the current state (memory, ok, degraded, down), 0 for the others.',
    labels: ['state'],
    labelDoc: '`state` (`memory`, `ok`, `degraded`, `down`)',
    tells: 'the shared store, 1 for the current state',
  },
} as const satisfies Record<string, MetricDefinition>;

/** A metric's name without the prefix. */
export type MetricName = keyof typeof METRICS;
type NamesOf<T extends MetricDefinition['type']> = {
  [N in MetricName]: (typeof METRICS)[N]['type'] extends T ? N : never;
}[MetricName];
/** The label values of a metric, every label filled. */
export type LabelsOf<N extends MetricName> = Record<(typeof METRICS)[N]['labels'][number], string>;

/** Why the proxy refused a request itself. */
export type RefusalReason =
  | 'uri_too_long'
  | 'invalid_path'
  | 'method'
  | 'method_override'
  | 'unknown_host'
  | 'forbidden_origin'
  | 'unauthorized'
  | 'bad_token'
  | 'token_throttled'
  | 'body_too_large'
  | 'rate_limit'
  | 'booking_rate_limit'
  | 'miss_limit'
  | 'upstream_budget'
  | 'upstream_spared'
  | 'upstream_backoff';

/** What became of a booking attempt. */
export type BookingOutcome =
  'confirmed' | 'enquiry' | 'handed_off' | 'unproven_return' | 'replayed' | 'refused' | 'failed' | 'decoy';

/** How an upstream call ended: `ok` (2xx), `refused` (another answer it meant), or the fault. */
export type UpstreamOutcome =
  'ok' | 'refused' | 'timeout' | 'unreachable' | 'server' | 'redirect' | 'garbage' | 'auth' | 'limited';

/** What became of a webhook attempt: delivered, retried after a failure, or failed for good. */
export type WebhookOutcome = 'delivered' | 'retried' | 'failed';

/** One series of a snapshot: its labels and value (a histogram's count, with its sum). */
export interface Sample {
  labels: Record<string, string>;
  value: number;
  /** A histogram's sum of observations. */
  sum?: number;
}

/** Every series of every metric, by name without the prefix. */
export type MetricsSnapshot = Partial<Record<MetricName, Sample[]>>;

/** The Prometheus text of a backend that renders one. */
export interface Exposition {
  contentType: string;
  text: string;
}

/** Where the numbers are kept: memory, or memory that the Node entry's prom-client registry renders. */
export interface MetricsBackend {
  inc(name: MetricName, labels: Record<string, string>, by: number): void;
  /** Sets a gauge; null removes the series (a value not known yet is absent, not 0). */
  set(name: MetricName, labels: Record<string, string>, value: number | null): void;
  observe(name: MetricName, labels: Record<string, string>, value: number): void;
  /**
   * One series' updater, looked up once (a counter's `inc`, a histogram's `observe`): what a hot
   * path keeps, such as the fast path's for a remembered answer.
   */
  series(name: MetricName, labels: Record<string, string>): (value: number) => void;
  /** Every series, for the status page. */
  read(): Promise<MetricsSnapshot>;
  /** The Prometheus text format, where this backend serves `/metrics` (the Node entry's). */
  exposition?(): Promise<Exposition>;
}

/**
 * The proxy's metrics: typed counters, gauges and histograms over a backend, and samplers that
 * set the gauges of what is read rather than counted (the upstream's quota, the store's state)
 * just before the numbers are read.
 */
export class Metrics {
  private readonly samplers: (() => void)[] = [];

  constructor(readonly backend: MetricsBackend = memoryBackend()) {}

  /** Adds `by` (default 1) to a counter. */
  count<N extends NamesOf<'counter'>>(name: N, labels: LabelsOf<N>, by = 1): void {
    this.backend.inc(name, labels, by);
  }

  /** Sets a gauge; null leaves it out (what is not known yet is absent, never a false 0). */
  set<N extends NamesOf<'gauge'>>(name: N, labels: LabelsOf<N>, value: number | null): void {
    this.backend.set(name, labels, value);
  }

  /** Records one observation of a histogram (seconds for the latencies). */
  observe<N extends NamesOf<'histogram'>>(name: N, labels: LabelsOf<N>, value: number): void {
    this.backend.observe(name, labels, value);
  }

  /** A counter's series, to add to without looking it up again (a hot path's). */
  counter<N extends NamesOf<'counter'>>(name: N, labels: LabelsOf<N>): (by: number) => void {
    return this.backend.series(name, labels);
  }

  /** A histogram's series, to observe without looking it up again (a hot path's). */
  histogram<N extends NamesOf<'histogram'>>(name: N, labels: LabelsOf<N>): (value: number) => void {
    return this.backend.series(name, labels);
  }

  /** A request refused by the proxy itself. */
  refused(reason: RefusalReason): void {
    this.backend.inc('refusals_total', { reason }, 1);
  }

  /** A booking attempt's outcome. */
  booking(outcome: BookingOutcome): void {
    this.backend.inc('bookings_total', { outcome }, 1);
  }

  /** Registers `sample`, run before every read to set the gauges of what is read, not counted. */
  sample(sample: () => void): void {
    this.samplers.push(sample);
  }

  /** Every series, gauges sampled now. */
  async snapshot(): Promise<MetricsSnapshot> {
    this.runSamplers();
    return this.backend.read();
  }

  /** The Prometheus text, gauges sampled now; null where the backend renders none (the Worker). */
  async exposition(): Promise<Exposition | null> {
    if (!this.backend.exposition) return null;
    this.runSamplers();
    return this.backend.exposition();
  }

  private runSamplers(): void {
    for (const sample of this.samplers) sample();
  }
}

/** The series key of a label set: its values in the metric's label order. */
function seriesKey(name: MetricName, labels: Record<string, string>): string {
  let key = '';
  for (const label of METRICS[name].labels) key += `${labels[label]}\u0000`;
  return key;
}

/** A series as the memory backend keeps it: a histogram's also counts its observations per bucket. */
export interface CountedSample extends Sample {
  /**
   * A histogram's observations per bucket of its definition's `buckets`, each in the first bucket
   * whose bound it does not exceed (not cumulative); one above the last bound is in `value` alone.
   */
  buckets?: Float64Array;
}

/** A backend in plain maps, whose series can also be read as they are, at once. */
export type MemoryBackend = MetricsBackend & {
  /** The series of a metric now (the live objects: read them, never change them). */
  samples(name: MetricName): Iterable<CountedSample>;
};

/** Counts one observation of a histogram series whose buckets are bounded by `bounds`. */
function observeInto(sample: CountedSample, bounds: readonly number[], value: number): void {
  sample.value += 1;
  sample.sum! += value;
  const counts = sample.buckets!;
  for (let i = 0; i < bounds.length; i++) {
    if (value <= bounds[i]!) {
      counts[i]! += 1;
      return;
    }
  }
}

/** A copy of a series for a snapshot: labels, value and a histogram's sum (its buckets stay in the backend). */
function snapshotOf({ labels, value, sum }: CountedSample): Sample {
  return sum === undefined ? { labels, value } : { labels, value, sum };
}

/**
 * A backend in plain maps: what the status page reads on every host (the Worker's, tests'), and
 * where the Node entry's prom-client registry takes every number from at a scrape
 * (node/prometheus.ts), since counting here is a map lookup and an addition, and observing a
 * histogram a short loop over its buckets.
 */
export function memoryBackend(): MemoryBackend {
  const series = new Map<MetricName, Map<string, CountedSample>>();
  const sampleOf = (name: MetricName, labels: Record<string, string>) => {
    let byKey = series.get(name);
    if (!byKey) series.set(name, (byKey = new Map()));
    const key = seriesKey(name, labels);
    let sample = byKey.get(key);
    if (!sample) {
      const definition: MetricDefinition = METRICS[name];
      sample =
        definition.type === 'histogram'
          ? { labels: { ...labels }, value: 0, sum: 0, buckets: new Float64Array(definition.buckets!.length) }
          : { labels: { ...labels }, value: 0 };
      byKey.set(key, sample);
    }
    return sample;
  };
  const boundsOf = (name: MetricName): readonly number[] => (METRICS[name] as MetricDefinition).buckets!;
  return {
    samples: (name) => series.get(name)?.values() ?? [],
    series(name, labels) {
      const sample = sampleOf(name, labels);
      if (METRICS[name].type !== 'histogram') return (by) => (sample.value += by);
      const bounds = boundsOf(name);
      return (value) => observeInto(sample, bounds, value);
    },
    inc(name, labels, by) {
      sampleOf(name, labels).value += by;
    },
    set(name, labels, value) {
      if (value === null) series.get(name)?.delete(seriesKey(name, labels));
      else sampleOf(name, labels).value = value;
    },
    observe(name, labels, value) {
      observeInto(sampleOf(name, labels), boundsOf(name), value);
    },
    async read() {
      const snapshot: MetricsSnapshot = {};
      for (const [name, byKey] of series) snapshot[name] = [...byKey.values()].map(snapshotOf);
      return snapshot;
    },
  };
}

/** A backend that keeps nothing: the proxy with its metrics turned off (`VENUE_BOOKING_METRICS=off`). */
export function offBackend(): MetricsBackend {
  const nothing = () => {};
  return { inc: nothing, set: nothing, observe: nothing, series: () => nothing, read: async () => ({}) };
}

/** The sum of a metric's series whose labels match `where` (every series when empty). */
export function total(snapshot: MetricsSnapshot, name: MetricName, where: Record<string, string> = {}): number {
  let sum = 0;
  for (const sample of snapshot[name] ?? []) {
    if (Object.entries(where).every(([label, value]) => sample.labels[label] === value)) sum += sample.value;
  }
  return sum;
}

/** The README's metrics table (between its `metrics-table` markers), rendered from `METRICS`. */
export function metricsTable(): string {
  const rows = Object.entries(METRICS).map(([name, raw]) => {
    const definition: MetricDefinition = raw;
    const labels = definition.labelDoc ?? '—';
    const where = definition.node ? ' (Node entry)' : '';
    return `| \`${METRIC_PREFIX}${name}\` | ${definition.type} | ${labels} | ${definition.tells}${where} |`;
  });
  return ['| Metric | Type | Labels | What it tells |', '|---|---|---|---|', ...rows].join('\n');
}
