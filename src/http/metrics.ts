import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { ConnectionCut } from './connection-limits.js';

export type DeliveryMetricOutcome = 'succeeded' | 'retrying' | 'failed' | 'gone';
export type EmailMetricOutcome = 'sent' | 'retrying' | 'failed';

const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** What /metrics reads from the rest of the process when it is asked. */
export interface MetricSources {
  /** Webhook deliveries pending. */
  queueDepth(): Promise<number>;
  /** E-mails pending (due, or waiting for a retry). */
  emailQueueDepth(): Promise<number>;
  /** Statements sent to the database so far. */
  databaseQueries(): number;
  /** Whether the process hears other processes' commits, so that its caches may reuse what they read. */
  hearingChanges(): boolean;
  /** Slot tracks the calendar cache computed so far: in full, and derived from older ones. */
  slotTracks(): { full: number; derived: number };
}

/**
 * The process's Prometheus metrics, in a registry of its own (not prom-client's global one), so
 * several apps in one test process do not share counters.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestMetrics();
  private readonly bookings: Counter<'operation' | 'status'>;
  private readonly deliveries: Counter<'outcome'>;
  private readonly emails: Counter<'outcome'>;
  private readonly connectionCuts: Counter<'reason'>;

  constructor(sources: MetricSources) {
    collectDefaultMetrics({ register: this.registry, prefix: 'slotwise_' });
    this.bookings = new Counter({
      name: 'slotwise_booking_requests_total',
      help: 'Booking operations (create, cancel, reschedule) by HTTP status: 201/200 done, 409 refused',
      labelNames: ['operation', 'status'],
      registers: [this.registry],
    });
    this.deliveries = new Counter({
      name: 'slotwise_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, will retry), failed (gave up), gone (410)',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    this.emails = new Counter({
      name: 'slotwise_email_attempts_total',
      help: 'E-mail sending attempts by outcome: sent, retrying (a 4xx reply or none; sent again later), failed (a 5xx reply, the retries run out, or not composable)',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'slotwise_email_queue_depth',
      help: 'E-mails pending (due or scheduled for a retry)',
      registers: [this.registry],
      async collect() {
        this.set(await sources.emailQueueDepth());
      },
    });
    this.connectionCuts = new Counter({
      name: 'slotwise_http_connections_cut_total',
      help: 'Connections closed by a limit: max-connections and per-address (refused as they arrived), request-timeout (headers or body too slow, 408)',
      labelNames: ['reason'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'slotwise_webhook_queue_depth',
      help: 'Webhook deliveries pending (due or scheduled for a retry)',
      registers: [this.registry],
      async collect() {
        this.set(await sources.queueDepth());
      },
    });
    new Gauge({
      name: 'slotwise_change_signal_hearing',
      help: "1 while the process hears other processes' commits (PostgreSQL: its change poll answered within 500 ms; SQLite: data_version), so its key and calendar caches reuse what they read; 0 while every request reads the database",
      registers: [this.registry],
      collect() {
        this.set(sources.hearingChanges() ? 1 : 0);
      },
    });
    this.registry.registerMetric(
      collected(
        'slotwise_database_queries_total',
        "Statements sent to the database by this process (a round trip each on PostgreSQL), the change poll's own questions not counted",
        'counter',
        () => [{ labels: {}, value: sources.databaseQueries() }],
        () => {},
      ) as unknown as Metric,
    );
    new Counter({
      name: 'slotwise_slot_tracks_computed_total',
      help: 'Slot tracks computed, by how: full (every day the calendar decides) or derived (from an older track, recomputing only the days a change of bookings or busy time touches)',
      labelNames: ['how'],
      registers: [this.registry],
      collect() {
        const computed = sources.slotTracks();
        this.reset();
        this.inc({ how: 'full' }, computed.full);
        this.inc({ how: 'derived' }, computed.derived);
      },
    });
    // prom-client's typings list only its own four metric classes; its registry needs no more
    // than `name`, `help`, `type` and `get()` (lib/registry.js), which these have.
    for (const metric of this.requests.metrics()) this.registry.registerMetric(metric as unknown as Metric);
  }

  /** Prometheus text of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  observeBooking(operation: 'create' | 'cancel' | 'reschedule', status: number): void {
    this.bookings.inc({ operation, status: String(status) });
  }

  observeDelivery(outcome: DeliveryMetricOutcome): void {
    this.deliveries.inc({ outcome });
  }

  observeEmail(outcome: EmailMetricOutcome): void {
    this.emails.inc({ outcome });
  }

  observeConnectionCut(reason: ConnectionCut): void {
    this.connectionCuts.inc({ reason });
  }
}

type Labels = Record<string, string | number>;

interface RequestTally {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Per bucket of LATENCY_BUCKETS_SECONDS, the requests that fell in it (not yet cumulative). */
  buckets: Float64Array;
}

/** One sample line: `metricName` (default: the metric's name), labels, value. */
interface Sample {
  metricName?: string;
  labels: Labels;
  value: number;
}

/** A metric as prom-client's `Registry` reads it (lib/registry.js): `get()` answers a `MetricObject`. */
interface CollectedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: Sample[] }>;
  reset(): void;
}

function collected(
  name: string,
  help: string,
  type: CollectedMetric['type'],
  samples: () => Sample[],
  reset: () => void,
): CollectedMetric {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: samples() }),
    reset,
  };
}

/**
 * `slotwise_http_requests_total` and `slotwise_http_request_duration_seconds`, tallied by hand:
 * they are counted on every request, and prom-client's label handling checks and hashes the label
 * object on each call, twice (measured: docs/performance.md, "Hand-written parts"). Here a request costs
 * one map lookup. When /metrics is read, the tallies are handed to prom-client as two metrics of
 * the registry (`metrics()`), which writes them, escaping included, like its own.
 */
class RequestMetrics {
  private readonly tallies = new Map<string, RequestTally>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      const labels = { method, route, status: String(status) };
      tally = { labels, count: 0, sum: 0, buckets: new Float64Array(LATENCY_BUCKETS_SECONDS.length) };
      this.tallies.set(key, tally);
    }
    tally.count += 1;
    tally.sum += seconds;
    const bucket = LATENCY_BUCKETS_SECONDS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) tally.buckets[bucket]! += 1;
  }

  /** The counter and the histogram, for `Registry.registerMetric`. */
  metrics(): CollectedMetric[] {
    const tallies = this.tallies;
    const reset = () => tallies.clear();
    const histogram = 'slotwise_http_request_duration_seconds';
    return [
      collected(
        'slotwise_http_requests_total',
        'HTTP requests answered, by route pattern and status',
        'counter',
        () => [...tallies.values()].map((tally) => ({ labels: tally.labels, value: tally.count })),
        reset,
      ),
      collected(
        histogram,
        'Time to answer an HTTP request, by route pattern and status',
        'histogram',
        () => {
          const values: Sample[] = [];
          for (const tally of tallies.values()) {
            // Cumulative, as Prometheus wants: each bucket counts the requests up to its bound.
            let cumulative = 0;
            LATENCY_BUCKETS_SECONDS.forEach((bound, i) => {
              cumulative += tally.buckets[i]!;
              values.push({
                metricName: `${histogram}_bucket`,
                labels: { le: bound, ...tally.labels },
                value: cumulative,
              });
            });
            values.push({
              metricName: `${histogram}_bucket`,
              labels: { le: '+Inf', ...tally.labels },
              value: tally.count,
            });
            values.push({ metricName: `${histogram}_sum`, labels: tally.labels, value: tally.sum });
            values.push({ metricName: `${histogram}_count`, labels: tally.labels, value: tally.count });
          }
          return values;
        },
        reset,
      ),
    ];
  }
}
