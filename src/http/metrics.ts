import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from '../storage/store.js';

export type DeliveryMetricOutcome = 'succeeded' | 'retrying' | 'failed' | 'gone';

const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The process's Prometheus metrics, in a registry of its own (not prom-client's global one), so
 * several apps in one test process do not share counters.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestMetrics();
  private readonly bookings: Counter<'operation' | 'status'>;
  private readonly deliveries: Counter<'outcome'>;

  constructor(store: Store) {
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
    new Gauge({
      name: 'slotwise_webhook_queue_depth',
      help: 'Webhook deliveries pending (due or scheduled for a retry)',
      registers: [this.registry],
      async collect() {
        this.set(await store.countPendingDeliveries());
      },
    });
  }

  /** Prometheus text of every metric. */
  async text(): Promise<string> {
    return (await this.registry.metrics()) + this.requests.text();
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
}

interface RequestTally {
  labels: string;
  count: number;
  sum: number;
  /** Per bucket of LATENCY_BUCKETS_SECONDS, the requests that fell in it (not yet cumulative). */
  buckets: Float64Array;
}

/**
 * `slotwise_http_requests_total` and `slotwise_http_request_duration_seconds`, tallied by hand:
 * they are counted on every request, and prom-client's label handling (checking and hashing the
 * label object on each call, twice) was a twentieth of a cached slot query. Here a request costs
 * one map lookup; the text is built when /metrics is read.
 */
class RequestMetrics {
  private readonly tallies = new Map<string, RequestTally>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      const labels = `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`;
      tally = { labels, count: 0, sum: 0, buckets: new Float64Array(LATENCY_BUCKETS_SECONDS.length) };
      this.tallies.set(key, tally);
    }
    tally.count += 1;
    tally.sum += seconds;
    const bucket = LATENCY_BUCKETS_SECONDS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) tally.buckets[bucket]! += 1;
  }

  text(): string {
    const counter = 'slotwise_http_requests_total';
    const histogram = 'slotwise_http_request_duration_seconds';
    const lines = [
      `\n# HELP ${counter} HTTP requests answered, by route pattern and status`,
      `# TYPE ${counter} counter`,
    ];
    for (const tally of this.tallies.values()) lines.push(`${counter}{${tally.labels}} ${tally.count}`);
    lines.push(`\n# HELP ${histogram} Time to answer an HTTP request, by route pattern and status`);
    lines.push(`# TYPE ${histogram} histogram`);
    for (const tally of this.tallies.values()) {
      let cumulative = 0;
      LATENCY_BUCKETS_SECONDS.forEach((bound, i) => {
        cumulative += tally.buckets[i]!;
        lines.push(`${histogram}_bucket{le="${bound}",${tally.labels}} ${cumulative}`);
      });
      lines.push(`${histogram}_bucket{le="+Inf",${tally.labels}} ${tally.count}`);
      lines.push(`${histogram}_sum{${tally.labels}} ${tally.sum}`);
      lines.push(`${histogram}_count{${tally.labels}} ${tally.count}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

/** Prometheus text format: a label value escapes backslash, double quote and line feed. */
function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
}
