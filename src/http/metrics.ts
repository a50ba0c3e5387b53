import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from '../storage/store.js';

export type DeliveryMetricOutcome = 'succeeded' | 'retrying' | 'failed' | 'gone';

/**
 * The process's Prometheus metrics, in a registry of its own (not prom-client's global one), so
 * several apps in one test process do not share counters.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly bookings: Counter<'operation' | 'status'>;
  private readonly deliveries: Counter<'outcome'>;

  constructor(store: Store) {
    collectDefaultMetrics({ register: this.registry, prefix: 'slotwise_' });
    this.requests = new Counter({
      name: 'slotwise_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'slotwise_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
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

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  observeBooking(operation: 'create' | 'cancel' | 'reschedule', status: number): void {
    this.bookings.inc({ operation, status: String(status) });
  }

  observeDelivery(outcome: DeliveryMetricOutcome): void {
    this.deliveries.inc({ outcome });
  }
}
