import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  bookingInput,
  createEventType,
  expectProblem,
  type BookingBody,
  type EventTypeBody,
} from './helpers.js';

interface EventRow {
  id: string;
  holder_id: string;
  type: string;
  payload: string;
  created_at: number;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  webhook_id: string;
  status: string;
}

interface Payload {
  type: string;
  timestamp: string;
  data: { booking: BookingBody; previousBooking?: BookingBody };
}

let h: Harness;
let token: string;
let et: EventTypeBody;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
  et = await createEventType(h, token, { durationMinutes: 30 });
});

afterEach(async () => {
  await h.close();
});

/**
 * Reads the outbox as stored, through a connection of its own, the way an operator would inspect
 * it (SQLite file or PostgreSQL alike). A raw pg client returns int8 columns (instants) as strings:
 * they are turned into numbers here. Rows come in creation order (created_at, then id): tests that
 * compare order move the clock between the changes (`later()`), so created_at alone decides it.
 */
async function outbox(): Promise<{ events: EventRow[]; deliveries: DeliveryRow[] }> {
  const byCreation = (a: { created_at: number; id: string }, b: { created_at: number; id: string }) =>
    a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const events = (await h.database.rows('webhook_events'))
    .map((r): EventRow => ({
      id: String(r.id),
      holder_id: String(r.holder_id),
      type: String(r.type),
      payload: String(r.payload),
      created_at: Number(r.created_at),
    }))
    .sort(byCreation);
  const deliveries = (await h.database.rows('webhook_deliveries'))
    .map((r): DeliveryRow & { created_at: number } => ({
      id: String(r.id),
      event_id: String(r.event_id),
      webhook_id: String(r.webhook_id),
      status: String(r.status),
      created_at: Number(r.created_at),
    }))
    .sort(byCreation)
    .map(({ created_at: _createdAt, ...row }) => row);
  return { events, deliveries };
}

/** Moves the clock one minute on, so the next change is recorded strictly after the last. */
function later(): void {
  h.clock.set(h.clock.current + 60_000);
}

async function registerWebhook(events?: string[]): Promise<string> {
  const res = await h.request({
    method: 'POST',
    url: '/api/v1/webhooks',
    token,
    json: { url: 'https://hooks.example.com/slotwise', ...(events ? { events } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

function payloadOf(row: EventRow): Payload {
  return JSON.parse(row.payload) as Payload;
}

describe('webhook outbox', () => {
  it('when a booking is created, then a booking.created event with the booking and a pending delivery are recorded', async () => {
    const webhookId = await registerWebhook();
    h.clock.set('2026-01-02T03:04:05Z');
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');

    const { events, deliveries } = await outbox();
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.type).toBe('booking.created');
    expect(event.created_at).toBe(Date.parse('2026-01-02T03:04:05Z'));
    expect(payloadOf(event)).toEqual({
      type: 'booking.created',
      timestamp: '2026-01-02T03:04:05.000Z',
      data: { booking: stored(booking), actor: 'api' },
    });
    expect(deliveries).toEqual([
      expect.objectContaining({ event_id: event.id, webhook_id: webhookId, status: 'pending' }),
    ]);
    // The store's own view of the same delivery.
    expect(await h.store.deliveries.list(webhookId, { limit: 10, after: null })).toEqual([
      expect.objectContaining({
        eventId: event.id,
        webhookId,
        status: 'pending',
        eventType: 'booking.created',
        attempts: 0,
      }),
    ]);
  });

  it('when a booking is cancelled, then a booking.cancelled event carries the cancelled booking', async () => {
    const webhookId = await registerWebhook();
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    later();
    const cancelled = (
      await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token, json: { reason: 'ill' } })
    ).json<BookingBody>();

    const { events, deliveries } = await outbox();
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.cancelled']);
    const payload = payloadOf(events[1]!);
    expect(payload.type).toBe('booking.cancelled');
    expect(payload.data).toEqual({ booking: stored(cancelled), actor: 'api' });
    expect(payload.data.booking).toMatchObject({ status: 'cancelled', cancellationReason: 'ill' });
    expect(deliveries.filter((d) => d.event_id === events[1]!.id)).toEqual([
      expect.objectContaining({ webhook_id: webhookId, status: 'pending' }),
    ]);
  });

  it('when a booking is rescheduled, then a booking.rescheduled event carries the new booking and previousBooking', async () => {
    await registerWebhook();
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    later();
    const res = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${old.id}/reschedule`,
      token,
      json: { start: '2026-01-05T10:00:00Z' },
    });
    const moved = res.json<BookingBody>();
    const previous = (await h.request({ method: 'GET', url: `/api/v1/bookings/${old.id}`, token })).json<BookingBody>();

    const { events, deliveries } = await outbox();
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.rescheduled']);
    const payload = payloadOf(events[1]!);
    expect(payload).toMatchObject({ type: 'booking.rescheduled', timestamp: expect.any(String) });
    expect(payload.data).toEqual({ booking: stored(moved), previousBooking: stored(previous), actor: 'api' });
    expect(payload.data.previousBooking).toMatchObject({ status: 'rescheduled', rescheduledToId: moved.id });
    expect(payload.data.booking).toMatchObject({ status: 'confirmed', rescheduledFromId: old.id });
    expect(deliveries.filter((d) => d.event_id === events[1]!.id)).toHaveLength(1);
  });

  it('when the webhook subscribes to other events only, then only the events it subscribes to are recorded, each with its delivery', async () => {
    const cancelHook = await registerWebhook(['booking.cancelled']);
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    let { events, deliveries } = await outbox();
    // An event is kept for its deliveries: with none, nothing is written.
    expect(events).toEqual([]);
    expect(deliveries).toEqual([]);

    later();
    await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token });
    ({ events, deliveries } = await outbox());
    expect(events.map((e) => e.type)).toEqual(['booking.cancelled']);
    expect(deliveries).toEqual([expect.objectContaining({ event_id: events[0]!.id, webhook_id: cancelHook })]);
  });

  it('when two webhooks subscribe, then each gets its own pending delivery', async () => {
    const first = await registerWebhook();
    const second = await registerWebhook(['booking.created']);
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const { deliveries } = await outbox();
    expect(deliveries.map((d) => d.webhook_id).sort()).toEqual([first, second].sort());
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(2);
  });

  it('when another holder changes a booking, then no delivery goes to this holder’s webhook', async () => {
    await registerWebhook();
    const bob = await h.key('bob');
    const bobs = await createEventType(h, bob);
    await book(h, bob, bobs.id, '2026-01-05T09:00:00Z');
    expect((await outbox()).deliveries).toEqual([]);
  });

  it('when a booking, cancel or reschedule fails (409/400/404), then no event is written', async () => {
    await registerWebhook();
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    later();
    const blocker = await book(h, token, et.id, '2026-01-05T11:00:00Z');
    const before = await outbox();
    expect(before.events).toHaveLength(2);

    expectProblem(
      await h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token,
        json: bookingInput(et.id, '2026-01-05T09:00:00Z'),
      }),
      409,
      'slot-unavailable',
    );
    expectProblem(
      await h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token,
        json: bookingInput('evt_unknown', '2026-01-05T13:00:00Z'),
      }),
      400,
      'invalid-request',
    );
    expectProblem(
      await h.request({
        method: 'POST',
        url: `/api/v1/bookings/${booking.id}/reschedule`,
        token,
        json: { start: blocker.start },
      }),
      409,
      'slot-unavailable',
    );
    later();
    await h.request({ method: 'POST', url: `/api/v1/bookings/${blocker.id}/cancel`, token });
    later();
    expectProblem(
      await h.request({ method: 'POST', url: `/api/v1/bookings/${blocker.id}/cancel`, token }),
      409,
      'invalid-state',
    );
    expectProblem(
      await h.request({ method: 'POST', url: '/api/v1/bookings/bkg_nope/cancel', token }),
      404,
      'not-found',
    );

    const after = await outbox();
    expect(after.events.map((e) => e.type)).toEqual(['booking.created', 'booking.created', 'booking.cancelled']);
    expect(after.deliveries).toHaveLength(3);
  });

  it('when a webhook is deleted, then later changes create no delivery for it', async () => {
    const webhookId = await registerWebhook();
    expect((await h.request({ method: 'DELETE', url: `/api/v1/webhooks/${webhookId}`, token })).statusCode).toBe(204);
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const { events, deliveries } = await outbox();
    expect(events).toEqual([]);
    expect(deliveries).toEqual([]);
  });

  it('when a webhook with pending deliveries is deleted, then 204 and its deliveries are gone', async () => {
    const webhookId = await registerWebhook();
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    expect((await outbox()).deliveries).toHaveLength(1);
    const res = await h.request({ method: 'DELETE', url: `/api/v1/webhooks/${webhookId}`, token });
    expect(res.statusCode, res.body).toBe(204);
    expect((await outbox()).deliveries).toEqual([]);
  });
});

/**
 * A booking as its event stores it: the API's view without the guest's links, which are made
 * when the event is sent and never stored (contract §10).
 */
function stored(booking: BookingBody): Omit<BookingBody, 'manageUrl' | 'icsUrl'> {
  const { manageUrl, icsUrl, ...rest } = booking;
  expect(manageUrl, 'a write key sees the manage link').toMatch(/\/manage\//);
  expect(icsUrl, 'a write key sees the calendar file link').toMatch(/\/ics\//);
  return rest;
}
