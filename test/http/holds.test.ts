// Contract §9 / issue 13: holds through the API, on both stores, with the injected clock: a hold
// occupies its time exactly like a confirmed booking until `expiresAt` (not a millisecond longer),
// and converting it books that time and ends the hold in one step.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  bookingInput,
  createEventType,
  expectInvalid,
  expectProblem,
  getSlots,
  startsOf,
  type BookingBody,
  type EventTypeBody,
} from './helpers.js';

interface HoldBody {
  id: string;
  eventTypeId: string;
  start: string;
  end: string;
  expiresAt: string;
  createdAt: string;
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

const hold = (json: unknown, key = token) => h.request({ method: 'POST', url: '/api/v1/holds', token: key, json });
const getHold = (id: string, key = token) => h.request({ method: 'GET', url: `/api/v1/holds/${id}`, token: key });
const release = (id: string, key = token) => h.request({ method: 'DELETE', url: `/api/v1/holds/${id}`, token: key });
const createBooking = (json: unknown, headers: Record<string, string> = {}) =>
  h.request({ method: 'POST', url: '/api/v1/bookings', token, json, headers });
const guest = { guestName: 'Ada Lovelace', guestEmail: 'ada@example.com' };

async function held(start: string, extra: Record<string, unknown> = {}, eventTypeId = et.id): Promise<HoldBody> {
  const res = await hold({ eventTypeId, start, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<HoldBody>();
}

/** The slot starts of Monday 5 January 2026 (open 09:00–17:00 UTC by default). */
async function mondayStarts(eventTypeId = et.id): Promise<string[]> {
  return startsOf(await getSlots(h, token, { eventTypeId, from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' }));
}

describe('POST /api/v1/holds', () => {
  it('when the start is bookable, then 201 with Location, the held time and expiresAt 300 s from now', async () => {
    const res = await hold({ eventTypeId: et.id, start: '2026-01-05T10:00:00+01:00' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<HoldBody>();
    expect(body.id).toMatch(/^hld_/);
    expect(res.headers.location).toBe(`/api/v1/holds/${body.id}`);
    expect(body).toEqual({
      id: body.id,
      holderId: expect.stringMatching(/^hdr_/),
      hostIds: [(body as { holderId?: string }).holderId],
      eventTypeId: et.id,
      start: '2026-01-05T09:00:00.000Z',
      end: '2026-01-05T09:30:00.000Z',
      expiresAt: '2026-01-01T00:05:00.000Z',
      source: 'api',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect((await getHold(body.id)).json()).toEqual(body);
  });

  it('when expiresInSeconds is given, then the hold lives that long (30 to 1800)', async () => {
    expect((await held('2026-01-05T09:00:00Z', { expiresInSeconds: 30 })).expiresAt).toBe('2026-01-01T00:00:30.000Z');
    expect((await held('2026-01-05T10:00:00Z', { expiresInSeconds: 1800 })).expiresAt).toBe('2026-01-01T00:30:00.000Z');
  });

  it('when the body does not validate, then 400 names each field and nothing is held', async () => {
    expectInvalid(await hold({ eventTypeId: et.id, start: '2026-01-05T09:00:00Z', expiresInSeconds: 29 }), [
      'expiresInSeconds',
    ]);
    expectInvalid(await hold({ eventTypeId: et.id, start: '2026-01-05T09:00:00Z', expiresInSeconds: 1801 }), [
      'expiresInSeconds',
    ]);
    expectInvalid(await hold({ eventTypeId: et.id, start: '2026-01-05T09:00:00Z', expiresInSeconds: 60.5 }), [
      'expiresInSeconds',
    ]);
    expectInvalid(await hold({ start: '2026-01-05T09:00:00' }), ['eventTypeId', 'start']);
    expectInvalid(await hold({ eventTypeId: et.id, start: '2026-01-05T09:00:00Z', guestName: 'x' }), ['guestName']);
    expectInvalid(await hold({ eventTypeId: 'evt_nope', start: '2026-01-05T09:00:00Z' }), ['eventTypeId']);
    expect(await mondayStarts()).toContain('2026-01-05T09:00:00.000Z');
  });

  it('when the start is not bookable, then 409 slot-unavailable says why', async () => {
    const offGrid = expectProblem(
      await hold({ eventTypeId: et.id, start: '2026-01-05T09:10:00Z' }),
      409,
      'slot-unavailable',
    );
    expect(offGrid.detail).toMatch(/grid/);
    h.clock.set('2026-01-06T00:00:00Z');
    const past = expectProblem(
      await hold({ eventTypeId: et.id, start: '2026-01-05T09:00:00Z' }),
      409,
      'slot-unavailable',
    );
    expect(past.detail).toMatch(/past/);
  });

  it('when the key has only the read scope, then 403, and it can still read a hold', async () => {
    const reader = await h.key('alice', ['read']);
    const made = await held('2026-01-05T09:00:00Z');
    expectProblem(await hold({ eventTypeId: et.id, start: '2026-01-05T10:00:00Z' }, reader), 403, 'forbidden');
    expectProblem(await release(made.id, reader), 403, 'forbidden');
    expect((await getHold(made.id, reader)).statusCode).toBe(200);
  });

  it('when another holder asks for the hold, then 404, and it cannot release or book it', async () => {
    const made = await held('2026-01-05T09:00:00Z');
    const bob = await h.key('bob');
    expectProblem(await getHold(made.id, bob), 404, 'not-found');
    expectProblem(await release(made.id, bob), 404, 'not-found');
    const bobs = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: bob,
      json: { holdId: made.id, ...guest },
    });
    expectProblem(bobs, 409, 'hold-expired');
    expect((await getHold(made.id)).statusCode).toBe(200);
  });
});

describe('a live hold occupies its time like a confirmed booking', () => {
  it('when a time is held, then /slots leaves it out at once and an overlapping booking or hold gets 409', async () => {
    expect(await mondayStarts()).toContain('2026-01-05T09:30:00.000Z');
    await held('2026-01-05T09:30:00Z');
    expect(await mondayStarts()).not.toContain('2026-01-05T09:30:00.000Z');
    const hourLong = await createEventType(h, token, { title: 'Hour', durationMinutes: 60, slotIntervalMinutes: 30 });
    const overlapping = expectProblem(
      await createBooking(bookingInput(hourLong.id, '2026-01-05T09:00:00Z')),
      409,
      'slot-unavailable',
    );
    expect(overlapping.detail).toMatch(/overlaps/);
    expectProblem(await hold({ eventTypeId: et.id, start: '2026-01-05T09:30:00Z' }), 409, 'slot-unavailable');
    expectProblem(await hold({ eventTypeId: hourLong.id, start: '2026-01-05T09:00:00Z' }), 409, 'slot-unavailable');
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await book(h, token, et.id, '2026-01-05T10:00:00Z');
  });

  it('when the event type has buffers, then the hold blocks them too, as a booking would', async () => {
    const buffered = await createEventType(h, token, {
      title: 'Buffered',
      durationMinutes: 30,
      bufferAfterMinutes: 30,
    });
    await held('2026-01-05T09:00:00Z', {}, buffered.id);
    const starts = await mondayStarts();
    expect(starts).not.toContain('2026-01-05T09:30:00.000Z');
    expect(starts).toContain('2026-01-05T10:00:00.000Z');
    expectProblem(await createBooking(bookingInput(et.id, '2026-01-05T09:30:00Z')), 409, 'slot-unavailable');
  });

  it('when the event type has a daily maximum, then a hold counts toward it until released', async () => {
    const once = await createEventType(h, token, { title: 'Once a day', durationMinutes: 30, maxBookingsPerDay: 1 });
    const made = await held('2026-01-05T09:00:00Z', {}, once.id);
    expect(await mondayStarts(once.id)).toEqual([]);
    const full = expectProblem(
      await createBooking(bookingInput(once.id, '2026-01-05T13:00:00Z')),
      409,
      'slot-unavailable',
    );
    expect(full.detail).toMatch(/maximum/);
    expect((await release(made.id)).statusCode).toBe(204);
    await book(h, token, once.id, '2026-01-05T13:00:00Z');
  });

  it('when a hold is made, then it is not a booking: not listed, not found under /bookings', async () => {
    const made = await held('2026-01-05T09:00:00Z');
    const listed = await h.request({
      method: 'GET',
      url: '/api/v1/bookings?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
      token,
    });
    expect(listed.json<{ data: unknown[] }>().data).toEqual([]);
    expectProblem(await h.request({ method: 'GET', url: `/api/v1/bookings/${made.id}`, token }), 404, 'not-found');
    expectProblem(
      await h.request({ method: 'POST', url: `/api/v1/bookings/${made.id}/cancel`, token }),
      404,
      'not-found',
    );
  });
});

describe('expiry', () => {
  it('when the clock is one millisecond before expiresAt, then the time is held; at expiresAt it is free, with no sweeper', async () => {
    const made = await held('2026-01-05T09:00:00Z', { expiresInSeconds: 60 });
    const expiresAt = Date.parse(made.expiresAt);
    // The slot track is cached until the calendar changes: it must not outlive the hold either.
    expect(await mondayStarts()).not.toContain('2026-01-05T09:00:00.000Z');

    h.clock.set(expiresAt - 1);
    expect((await getHold(made.id)).statusCode).toBe(200);
    expect(await mondayStarts()).not.toContain('2026-01-05T09:00:00.000Z');
    expectProblem(await createBooking(bookingInput(et.id, '2026-01-05T09:00:00Z')), 409, 'slot-unavailable');
    expectProblem(await hold({ eventTypeId: et.id, start: '2026-01-05T09:00:00Z' }), 409, 'slot-unavailable');

    h.clock.set(expiresAt);
    expectProblem(await getHold(made.id), 404, 'not-found');
    expect(await mondayStarts()).toContain('2026-01-05T09:00:00.000Z');
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    expect(booking.start).toBe('2026-01-05T09:00:00.000Z');
    expect(await mondayStarts()).not.toContain('2026-01-05T09:00:00.000Z');
  });

  it('when an expired hold’s time is held again, then the new hold gets it', async () => {
    const first = await held('2026-01-05T09:00:00Z', { expiresInSeconds: 30 });
    h.clock.set(Date.parse(first.expiresAt));
    const second = await held('2026-01-05T09:00:00Z');
    expect(second.id).not.toBe(first.id);
    expectProblem(await createBooking({ holdId: first.id, ...guest }), 409, 'hold-expired');
    expect((await createBooking({ holdId: second.id, ...guest })).statusCode).toBe(201);
  });
});

describe('DELETE /api/v1/holds/:id', () => {
  it('when a live hold is released, then 204 and its time is free at once; again, 404', async () => {
    const made = await held('2026-01-05T09:00:00Z');
    expect(await mondayStarts()).not.toContain('2026-01-05T09:00:00.000Z');
    const res = await release(made.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await mondayStarts()).toContain('2026-01-05T09:00:00.000Z');
    expectProblem(await release(made.id), 404, 'not-found');
    expectProblem(await getHold(made.id), 404, 'not-found');
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
  });

  it('when the hold expired, then 404', async () => {
    const made = await held('2026-01-05T09:00:00Z', { expiresInSeconds: 30 });
    h.clock.set(Date.parse(made.expiresAt));
    expectProblem(await release(made.id), 404, 'not-found');
  });

  it('when its event type is deleted, then the hold goes with it', async () => {
    const other = await createEventType(h, token, { title: 'Other', durationMinutes: 30 });
    const made = await held('2026-01-05T09:00:00Z', {}, other.id);
    expect((await h.request({ method: 'DELETE', url: `/api/v1/event-types/${other.id}`, token })).statusCode).toBe(204);
    expectProblem(await getHold(made.id), 404, 'not-found');
    expect(await mondayStarts()).toContain('2026-01-05T09:00:00.000Z');
    expectProblem(await createBooking({ holdId: made.id, ...guest }), 409, 'hold-expired');
  });
});

describe('POST /api/v1/bookings with holdId', () => {
  it('when the hold is live, then 201 books exactly the held time, the hold is gone and booking.created is written', async () => {
    const webhook = await h.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      token,
      json: { url: 'https://hooks.example.com/slotwise' },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const made = await held('2026-01-05T09:00:00Z');
    h.clock.set('2026-01-01T00:04:00Z');
    const res = await createBooking({ holdId: made.id, ...guest, notes: 'paid' });
    expect(res.statusCode, res.body).toBe(201);
    const booking = res.json<BookingBody>();
    expect(booking).toMatchObject({
      eventTypeId: et.id,
      start: '2026-01-05T09:00:00.000Z',
      end: '2026-01-05T09:30:00.000Z',
      status: 'confirmed',
      notes: 'paid',
      createdAt: '2026-01-01T00:04:00.000Z',
    });
    expect(booking.id).toMatch(/^bkg_/);
    expect(res.headers.location).toBe(`/api/v1/bookings/${booking.id}`);
    expectProblem(await getHold(made.id), 404, 'not-found');
    expect(await mondayStarts()).not.toContain('2026-01-05T09:00:00.000Z');
    const events = await h.database.rows('webhook_events');
    expect(events.map((e) => JSON.parse(String(e.payload)).data.booking.id)).toEqual([booking.id]);
    // Once converted, the hold is no more.
    expectProblem(await createBooking({ holdId: made.id, ...guest }), 409, 'hold-expired');
  });

  it('when the conversion is retried with the same Idempotency-Key, then the same 201 is replayed and one booking exists', async () => {
    const made = await held('2026-01-05T09:00:00Z');
    const headers = { 'idempotency-key': 'checkout-42' };
    const first = await createBooking({ holdId: made.id, ...guest }, headers);
    expect(first.statusCode, first.body).toBe(201);
    const again = await createBooking({ holdId: made.id, ...guest }, headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await h.database.rows('bookings')).filter((b) => b.status === 'confirmed')).toHaveLength(1);
  });

  it('when the minimum notice has passed since the hold was made, then the held time is still booked', async () => {
    const noticed = await createEventType(h, token, {
      title: 'Noticed',
      durationMinutes: 30,
      minimumNoticeMinutes: 60,
    });
    // Thursday 1 January, open 09:00–17:00 UTC: 09:00 is bookable at 07:45 with an hour's notice.
    h.clock.set('2026-01-01T07:45:00Z');
    const made = await held('2026-01-01T09:00:00Z', { expiresInSeconds: 1800 }, noticed.id);
    // At 08:10 09:00 is inside the notice: no longer bookable, but held as reserved.
    h.clock.set('2026-01-01T08:10:00Z');
    expect(
      await getSlots(h, token, { eventTypeId: noticed.id, from: '2026-01-01T09:00:00Z', to: '2026-01-01T09:30:00Z' }),
    ).toEqual([]);
    const res = await createBooking({ holdId: made.id, ...guest });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<BookingBody>().start).toBe('2026-01-01T09:00:00.000Z');
  });

  it('when eventTypeId or start is sent, then it must be the hold’s: else 400 and the hold stays', async () => {
    const made = await held('2026-01-05T09:00:00Z');
    expectInvalid(await createBooking({ holdId: made.id, start: '2026-01-05T09:30:00Z', ...guest }), ['start']);
    const other = await createEventType(h, token, { title: 'Other', durationMinutes: 30 });
    expectInvalid(await createBooking({ holdId: made.id, eventTypeId: other.id, ...guest }), ['eventTypeId']);
    expect((await getHold(made.id)).statusCode).toBe(200);
    const res = await createBooking({
      holdId: made.id,
      eventTypeId: et.id,
      start: '2026-01-05T10:00:00+01:00',
      ...guest,
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('when the hold expired, was released or never existed, then 409 hold-expired; the guest fields are validated first', async () => {
    const made = await held('2026-01-05T09:00:00Z', { expiresInSeconds: 30 });
    expectInvalid(await createBooking({ holdId: made.id, guestName: 'Ada', guestEmail: 'not-an-address' }), [
      'guestEmail',
    ]);
    h.clock.set(Date.parse(made.expiresAt));
    expectInvalid(await createBooking({ holdId: made.id, guestName: 'Ada', guestEmail: 'not-an-address' }), [
      'guestEmail',
    ]);
    const expired = expectProblem(await createBooking({ holdId: made.id, ...guest }), 409, 'hold-expired');
    expect(expired.detail).toContain(made.id);
    expectProblem(await createBooking({ holdId: 'hld_unknown', ...guest }), 409, 'hold-expired');
    expect((await h.database.rows('bookings')).filter((b) => b.status === 'confirmed')).toHaveLength(0);
  });

  it('when neither holdId nor the time is sent, then 400 names eventTypeId and start with the other missing fields', async () => {
    expectInvalid(await createBooking({ guestName: 'Ada' }), ['eventTypeId', 'start', 'guestEmail']);
  });
});
