// Contract §8 / issue 5: /healthz, /readyz and /metrics need no key; GET /api/v1/me describes the
// caller. Metrics are labelled by route pattern (never a raw path) and status.
import { Counter, Histogram, Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Metrics, type MetricSources } from '../../src/http/metrics.js';
import { createHarness, type Harness } from '../support/harness.js';
import { parseMetrics, valueOf, type Sample } from '../support/metrics.js';
import { BEFORE_MONDAY, book, bookingInput, createEventType, expectProblem, getSlots } from './helpers.js';

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
});

afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

async function metrics(): Promise<Sample[]> {
  const res = await h.request({ method: 'GET', url: '/metrics' });
  expect(res.statusCode, res.body).toBe(200);
  return parseMetrics(res.body);
}

describe('GET /healthz and /readyz', () => {
  it('when /healthz is called without a key, then 200 {status: "ok"}', async () => {
    const res = await h.request({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('when /readyz is called without a key and the store is migrated, then 200', async () => {
    const res = await h.request({ method: 'GET', url: '/readyz' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('when the store does not answer, then /readyz is 503 unavailable (no internals) while /healthz stays 200', async () => {
    vi.spyOn(h.storage.schemaStatus, 'pendingMigrations').mockRejectedValue(
      new Error('connect ECONNREFUSED 10.1.2.3:5432 password=hunter2'),
    );
    const res = await h.request({ method: 'GET', url: '/readyz' });
    expectProblem(res, 503, 'unavailable');
    expect(res.body).not.toMatch(/ECONNREFUSED|hunter2/);
    expect((await h.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('when migrations are pending, then /readyz is 503 unavailable naming them', async () => {
    vi.spyOn(h.storage.schemaStatus, 'pendingMigrations').mockResolvedValue(['9999_future']);
    const res = await h.request({ method: 'GET', url: '/readyz' });
    const body = expectProblem(res, 503, 'unavailable');
    expect(body.detail).toContain('9999_future');
  });
});

/** For metrics made apart from a server: no database, queue or calendar cache behind them. */
const NO_SOURCES: MetricSources = {
  queueDepth: async () => 0,
  emailQueueDepth: async () => 0,
  databaseQueries: () => 0,
  hearingChanges: () => true,
  slotTracks: () => ({ full: 0, derived: 0 }),
};

describe('GET /metrics', () => {
  it('when /metrics is called without a key, then it answers Prometheus text', async () => {
    const res = await h.request({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE slotwise_http_requests_total counter');
    expect(res.body).toContain('# TYPE slotwise_http_request_duration_seconds histogram');
    expect(res.body).toContain('# TYPE slotwise_booking_requests_total counter');
    expect(res.body).toContain('# TYPE slotwise_webhook_queue_depth gauge');
    expect(res.body).toContain('# TYPE slotwise_email_queue_depth gauge');
    expect(res.body).toContain('# TYPE slotwise_email_attempts_total counter');
    expect(res.body).toContain('# TYPE slotwise_slot_tracks_computed_total counter');
    expect(() => parseMetrics(res.body)).not.toThrow();
  });

  it('when requests were answered, then slotwise_http_requests_total counts them by route pattern and status, never by raw path', async () => {
    const et = await createEventType(h, token);
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    for (let i = 0; i < 2; i++) {
      expect((await h.request({ method: 'GET', url: `/api/v1/bookings/${booking.id}`, token })).statusCode).toBe(200);
    }
    expect((await h.request({ method: 'GET', url: '/api/v1/bookings/bkg_unknown1', token })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/api/v1/bookings/bkg_unknown1' })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: '/no/such/route/xyz123' })).statusCode).toBe(404);
    const samples = await metrics();
    const route = '/api/v1/bookings/:id';
    expect(valueOf(samples, 'slotwise_http_requests_total', { method: 'GET', route, status: '200' })).toBe(2);
    expect(valueOf(samples, 'slotwise_http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
    expect(valueOf(samples, 'slotwise_http_requests_total', { method: 'GET', route, status: '401' })).toBe(1);
    expect(
      valueOf(samples, 'slotwise_http_requests_total', { method: 'POST', route: '/api/v1/bookings', status: '201' }),
    ).toBe(1);
    const labelValues = samples.flatMap((s) => Object.values(s.labels));
    expect(
      labelValues.filter((v) => v.includes(booking.id) || v.includes('bkg_unknown1') || v.includes('xyz123')),
    ).toEqual([]);
  });

  it('when requests were answered, then slotwise_http_request_duration_seconds has buckets, count and sum per route and status', async () => {
    for (let i = 0; i < 3; i++)
      expect((await h.request({ method: 'GET', url: '/api/v1/event-types', token })).statusCode).toBe(200);
    const samples = await metrics();
    const labels = { method: 'GET', route: '/api/v1/event-types', status: '200' };
    expect(valueOf(samples, 'slotwise_http_request_duration_seconds_count', labels)).toBe(3);
    const sum = valueOf(samples, 'slotwise_http_request_duration_seconds_sum', labels)!;
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(30);
    expect(valueOf(samples, 'slotwise_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(3);
    const buckets = samples.filter(
      (s) =>
        s.name === 'slotwise_http_request_duration_seconds_bucket' &&
        s.labels.route === labels.route &&
        s.labels.status === '200',
    );
    expect(buckets.length).toBeGreaterThan(5);
    // Cumulative: never decreasing with le.
    const values = buckets.map((b) => b.value);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
  });

  it('when requests took known times, then each lands in the first bucket that holds it, and sum and count add up', async () => {
    const own = new Metrics(NO_SOURCES);
    for (const seconds of [0.0003, 0.003, 3]) own.observeRequest('GET', '/api/v1/slots', 200, seconds);
    const samples = parseMetrics(await own.text());
    const labels = { method: 'GET', route: '/api/v1/slots', status: '200' };
    const bucket = (le: string) => valueOf(samples, 'slotwise_http_request_duration_seconds_bucket', { ...labels, le });
    expect([
      bucket('0.0005'),
      bucket('0.001'),
      bucket('0.0025'),
      bucket('0.005'),
      bucket('2.5'),
      bucket('+Inf'),
    ]).toEqual([1, 1, 1, 2, 2, 3]);
    expect(valueOf(samples, 'slotwise_http_request_duration_seconds_sum', labels)).toBeCloseTo(3.0033, 6);
    expect(valueOf(samples, 'slotwise_http_request_duration_seconds_count', labels)).toBe(3);
    expect(valueOf(samples, 'slotwise_http_requests_total', labels)).toBe(3);
  });

  it('when a label value holds a quote, a backslash or a line feed, then it is escaped and the text still parses', async () => {
    const own = new Metrics(NO_SOURCES);
    own.observeRequest('GET', 'a"b\\c\nd', 404, 0.001);
    const text = await own.text();
    expect(text).toContain('route="a\\"b\\\\c\\nd"');
    expect(valueOf(parseMetrics(text), 'slotwise_http_requests_total', { route: 'a\\"b\\\\c\\nd' })).toBe(1);
  });

  it("when requests are tallied, then the text is what prom-client's own Counter and Histogram write for them", async () => {
    // The tally is hand-made for speed; its names, HELP texts, buckets, labels, escaping and
    // cumulative counts must be those of prom-client's metrics, observed the slow way.
    const own = new Metrics(NO_SOURCES);
    const reference = new Registry();
    const labelNames = ['method', 'route', 'status'] as const;
    const counter = new Counter({
      name: 'slotwise_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      labelNames,
      registers: [reference],
    });
    const histogram = new Histogram({
      name: 'slotwise_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and status',
      labelNames,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [reference],
    });
    const requests: Array<[string, string, number, number]> = [
      ['GET', '/api/v1/slots', 200, 0.0003],
      ['GET', '/api/v1/slots', 200, 0.0005], // on a bound: in that bucket
      ['GET', '/api/v1/slots', 200, 3], // past the last bound: +Inf only
      ['POST', '/api/v1/bookings', 409, 0.02],
      ['GET', 'a"b\\c\nd', 404, 0.001],
    ];
    for (const [method, route, status, seconds] of requests) {
      own.observeRequest(method, route, status, seconds);
      const labels = { method, route, status: String(status) };
      counter.inc(labels);
      histogram.observe(labels, seconds);
    }
    const text = await own.text();
    expect(text).toContain(`${await reference.getSingleMetricAsString('slotwise_http_requests_total')}\n`);
    expect(text).toContain(`${await reference.getSingleMetricAsString('slotwise_http_request_duration_seconds')}\n`);
  });

  it('when a booking is made and another is refused, then slotwise_booking_requests_total has create 201 and create 409', async () => {
    const et = await createEventType(h, token);
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const refused = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T09:00:00Z'),
    });
    expectProblem(refused, 409, 'slot-unavailable');
    const samples = await metrics();
    expect(valueOf(samples, 'slotwise_booking_requests_total', { operation: 'create', status: '201' })).toBe(1);
    expect(valueOf(samples, 'slotwise_booking_requests_total', { operation: 'create', status: '409' })).toBe(1);
  });

  it('when bookings are cancelled and rescheduled, then slotwise_booking_requests_total counts those operations', async () => {
    const et = await createEventType(h, token);
    const a = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const b = await book(h, token, et.id, '2026-01-05T10:00:00Z');
    const cancel = (id: string) => h.request({ method: 'POST', url: `/api/v1/bookings/${id}/cancel`, token, json: {} });
    expect((await cancel(a.id)).statusCode).toBe(200);
    expect((await cancel(a.id)).statusCode).toBe(409);
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${b.id}/reschedule`,
      token,
      json: { start: '2026-01-05T11:00:00Z' },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    const samples = await metrics();
    expect(valueOf(samples, 'slotwise_booking_requests_total', { operation: 'cancel', status: '200' })).toBe(1);
    expect(valueOf(samples, 'slotwise_booking_requests_total', { operation: 'cancel', status: '409' })).toBe(1);
    expect(valueOf(samples, 'slotwise_booking_requests_total', { operation: 'reschedule', status: '201' })).toBe(1);
  });

  it('when slots are listed before and after a booking, then slotwise_slot_tracks_computed_total counts one track computed in full and one derived', async () => {
    const et = await createEventType(h, token);
    const monday = { eventTypeId: et.id, from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' };
    await getSlots(h, token, monday);
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await getSlots(h, token, monday);
    const samples = await metrics();
    expect(valueOf(samples, 'slotwise_slot_tracks_computed_total', { how: 'full' })).toBe(1);
    expect(valueOf(samples, 'slotwise_slot_tracks_computed_total', { how: 'derived' })).toBe(1);
  });

  it('when webhook deliveries are pending, then slotwise_webhook_queue_depth reports them', async () => {
    expect(valueOf(await metrics(), 'slotwise_webhook_queue_depth')).toBe(0);
    const webhook = await h.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      token,
      json: { url: 'https://hooks.example.com/in' },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const et = await createEventType(h, token);
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    expect(valueOf(await metrics(), 'slotwise_webhook_queue_depth')).toBe(1);
    const test = await h.request({
      method: 'POST',
      url: `/api/v1/webhooks/${webhook.json<{ id: string }>().id}/test`,
      token,
    });
    expect(test.statusCode, test.body).toBe(202);
    expect(valueOf(await metrics(), 'slotwise_webhook_queue_depth')).toBe(2);
    // Delivered: no longer pending.
    const now = h.clock.now();
    const jobs = await h.storage.deliveryQueue.claimDue({
      now,
      leaseUntil: now + 60_000,
      limit: 10,
      perWebhook: 10,
      perHolder: 100,
      perAccount: 100,
      skipWebhookIds: [],
      skipOwnerIds: [],
      skipAccountIds: [],
    });
    expect(jobs).toHaveLength(2);
    await h.storage.deliveryQueue.recordAttempt(
      jobs[0]!.deliveryId,
      { attempt: 1, startedAt: now, durationMs: 3, statusCode: 200, error: null, responseExcerpt: null },
      { status: 'succeeded' },
      now,
    );
    expect(valueOf(await metrics(), 'slotwise_webhook_queue_depth')).toBe(1);
  });
});

describe('GET /api/v1/me', () => {
  interface MeBody {
    holder: { id: string; name: string };
    key: { id: string; scopes: string[]; createdAt: string; expiresAt: string | null };
  }

  it('when called with a read key, then 200 with the holder id and name, the key id, scopes, createdAt and expiresAt', async () => {
    const reader = await h.key('carol', ['read']);
    const res = await h.request({ method: 'GET', url: '/api/v1/me', token: reader });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<MeBody>();
    const [keyRow] = (await h.database.rows('api_keys')).filter((r) => r.id === body.key.id);
    expect(keyRow, 'the key id names a stored key').toBeDefined();
    const [holderRow] = (await h.database.rows('holders')).filter((r) => r.name === 'carol');
    expect(body).toEqual({
      // A read key does not see the calendar feed link.
      holder: { id: holderRow!.id, name: 'carol', handle: 'carol', displayName: 'carol' },
      key: { id: body.key.id, scopes: ['read'], createdAt: '2026-01-01T00:00:00.000Z', expiresAt: null },
    });
    expect(body.key.id).toMatch(/^key_/);
    expect(keyRow!.holder_id).toBe(holderRow!.id);
    // Never the key itself.
    expect(res.body).not.toContain(reader);
  });

  it('when two keys of one holder call it, then each sees its own key id and the same holder', async () => {
    const other = await h.key('alice', ['*']);
    const a = (await h.request({ method: 'GET', url: '/api/v1/me', token })).json<MeBody>();
    const b = (await h.request({ method: 'GET', url: '/api/v1/me', token: other })).json<MeBody>();
    expect(a.holder).toEqual(b.holder);
    expect(a.holder.name).toBe('alice');
    expect(a.key.id).not.toBe(b.key.id);
    expect(a.key.scopes).toEqual(['read', 'write']);
    expect(b.key.scopes).toEqual(['*']);
  });

  it('when the key expires, then expiresAt is its expiry in UTC', async () => {
    const { createApiKey } = await import('../../src/app/api-keys.js');
    const { token: expiring } = await createApiKey(h.context, {
      accountName: 'dave',
      holderName: 'dave',
      scopes: ['read'],
      expiresAt: Date.parse('2026-04-01T12:00:00Z'),
    });
    const res = await h.request({ method: 'GET', url: '/api/v1/me', token: expiring });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MeBody>().key.expiresAt).toBe('2026-04-01T12:00:00.000Z');
  });

  it('when called without a key, then 401 unauthorized', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/me' });
    expectProblem(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('when called with a write-only key, then 403 forbidden naming the read scope', async () => {
    const writer = await h.key('erin', ['write']);
    const res = await h.request({ method: 'GET', url: '/api/v1/me', token: writer });
    expectProblem(res, 403, 'forbidden');
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="read"');
  });
});
