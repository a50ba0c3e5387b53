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
  type BookingBody,
  type EventTypeBody,
  type ListBody,
} from './helpers.js';

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

const create = (json: unknown) => h.request({ method: 'POST', url: '/api/v1/bookings', token, json });
const get = (id: string) => h.request({ method: 'GET', url: `/api/v1/bookings/${id}`, token });
const cancel = (id: string, json?: unknown) =>
  h.request({ method: 'POST', url: `/api/v1/bookings/${id}/cancel`, token, json });
const reschedule = (id: string, json: unknown) =>
  h.request({ method: 'POST', url: `/api/v1/bookings/${id}/reschedule`, token, json });
const list = (query = '') => h.request({ method: 'GET', url: `/api/v1/bookings${query ? `?${query}` : ''}`, token });

describe('POST /api/v1/bookings', () => {
  it('when start has an explicit offset, then 201 with Location, status confirmed and end = start + duration in UTC', async () => {
    const res = await create(
      bookingInput(et.id, '2026-01-05T10:00:00+01:00', { notes: 'hi', guestTimeZone: 'Europe/Berlin' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<BookingBody>();
    expect(body.id).toMatch(/^bkg_/);
    expect(res.headers.location).toBe(`/api/v1/bookings/${body.id}`);
    expect(body).toMatchObject({
      holderId: expect.stringMatching(/^hdr_/),
      hostIds: [(body as { holderId?: string }).holderId],
      eventTypeId: et.id,
      start: '2026-01-05T09:00:00.000Z',
      end: '2026-01-05T09:30:00.000Z',
      status: 'confirmed',
      guestName: 'Ada Lovelace',
      guestEmail: 'ada@example.com',
      guestTimeZone: 'Europe/Berlin',
      notes: 'hi',
      cancellationReason: null,
      cancelledAt: null,
      rescheduledFromId: null,
      rescheduledToId: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    const fetched = await h.request({ method: 'GET', url: res.headers.location as string, token });
    expect(fetched.json()).toEqual(body);
  });

  it('when start is epoch milliseconds, then it is accepted', async () => {
    const res = await create(bookingInput(et.id, Date.parse('2026-01-05T11:30:00Z')));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<BookingBody>()).toMatchObject({
      start: '2026-01-05T11:30:00.000Z',
      end: '2026-01-05T12:00:00.000Z',
      status: 'confirmed',
    });
    expect(res.headers.location).toMatch(/^\/api\/v1\/bookings\/bkg_/);
  });

  it('when the optional fields are omitted, then they are null', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    expect(booking).toMatchObject({ guestTimeZone: null, notes: null });
  });

  it('when start is a string without an offset, then 400 on start and it is never read as UTC', async () => {
    const body = expectInvalid(await create(bookingInput(et.id, '2026-01-05T09:00:00')), ['start']);
    expect(body.errors?.[0]?.message).toMatch(/offset/);
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T09:30:00Z',
    });
    expect(slots).toHaveLength(1);
  });

  it.each([
    ['a date only', '2026-01-05'],
    ['a non-date', 'soon'],
    ['a fractional number', 1767603600000.5],
    ['a negative number', -1],
    ['a boolean', true],
    ['null', null],
    ['an impossible date', '2026-02-30T09:00:00Z'],
  ])('when start is %s, then 400 on start', async (_label, start) => {
    expectInvalid(await create(bookingInput(et.id, start as string)), ['start']);
  });

  it('when required fields are missing, then each has its own entry', async () => {
    expectInvalid(await create({}), ['eventTypeId', 'start', 'guestName', 'guestEmail']);
  });

  it('when guestEmail is not an e-mail address and an unknown field is sent, then both are reported', async () => {
    expectInvalid(
      await create(bookingInput(et.id, '2026-01-05T09:00:00Z', { guestEmail: 'not-an-email', status: 'cancelled' })),
      ['guestEmail', 'status'],
    );
  });

  it('when guestTimeZone is not an IANA zone or notes exceed 2000 characters, then 400 on each', async () => {
    expectInvalid(
      await create(
        bookingInput(et.id, '2026-01-05T09:00:00Z', { guestTimeZone: 'Mars/Base', notes: 'x'.repeat(2001) }),
      ),
      ['guestTimeZone', 'notes'],
    );
  });

  it('when eventTypeId is unknown, then 400 on eventTypeId', async () => {
    expectInvalid(await create(bookingInput('evt_unknown', '2026-01-05T09:00:00Z')), ['eventTypeId']);
  });

  it('when eventTypeId belongs to another holder, then 400 on eventTypeId and nothing is booked for them', async () => {
    const bob = await h.key('bob');
    const bobs = await createEventType(h, bob);
    expectInvalid(await create(bookingInput(bobs.id, '2026-01-05T09:00:00Z')), ['eventTypeId']);
    const bobsList = await h.request({ method: 'GET', url: '/api/v1/bookings?from=2026-01-01T00:00:00Z', token: bob });
    expect(bobsList.json<ListBody<BookingBody>>().data).toEqual([]);
  });

  it.each([
    ['outside the open hours', '2026-01-05T17:00:00Z', /availability|open hours/i],
    ['off the slot grid', '2026-01-05T09:10:00Z', /grid|availability/i],
    ['on a Saturday', '2026-01-10T10:00:00Z', /availability|open hours/i],
    ['in the past', '2025-12-31T10:00:00Z', /past|notice/i],
    ['running past the end of the day', '2026-01-05T16:45:00Z', /availability|open hours|grid/i],
  ])('when start is %s, then 409 slot-unavailable with a detail', async (_label, start, detail) => {
    const problem = expectProblem(await create(bookingInput(et.id, start)), 409, 'slot-unavailable');
    expect(problem.detail).toMatch(detail);
  });

  it('when the time is already booked, then 409 slot-unavailable says it overlaps', async () => {
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const problem = expectProblem(await create(bookingInput(et.id, '2026-01-05T09:00:00Z')), 409, 'slot-unavailable');
    expect(problem.detail).toMatch(/overlap/i);
  });

  it('when the start is before the minimum notice, then 409 slot-unavailable mentions the notice', async () => {
    const noticed = await createEventType(h, token, { title: 'Noticed', minimumNoticeMinutes: 60 });
    h.clock.set('2026-01-05T09:10:00Z');
    const problem = expectProblem(
      await create(bookingInput(noticed.id, '2026-01-05T10:00:00Z')),
      409,
      'slot-unavailable',
    );
    expect(problem.detail).toMatch(/notice/i);
    expect((await create(bookingInput(noticed.id, '2026-01-05T10:30:00Z'))).statusCode).toBe(201);
  });

  it('when the daily maximum is reached, then 409 slot-unavailable', async () => {
    const capped = await createEventType(h, token, { title: 'Capped', maxBookingsPerDay: 1 });
    await book(h, token, capped.id, '2026-01-05T09:00:00Z');
    const problem = expectProblem(
      await create(bookingInput(capped.id, '2026-01-05T11:00:00Z')),
      409,
      'slot-unavailable',
    );
    expect(problem.detail).toMatch(/maximum|limit/i);
  });

  it('when two requests race for the same start, then exactly one wins and the other gets 409 slot-unavailable', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        create(bookingInput(et.id, '2026-01-05T09:00:00Z', { guestName: `Guest ${i}` })),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expectProblem(r, 409, 'slot-unavailable');
    const listed = await list('from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z');
    expect(listed.json<ListBody<BookingBody>>().data).toHaveLength(1);
  });

  it('when the event type’s buffers change after booking, then the booking keeps blocking with the buffers it was booked with', async () => {
    const buffered = await createEventType(h, token, {
      title: 'Buffered',
      durationMinutes: 30,
      bufferAfterMinutes: 30,
    });
    await book(h, token, buffered.id, '2026-01-05T09:00:00Z'); // occupies 09:00–10:00
    await h.request({
      method: 'PATCH',
      url: `/api/v1/event-types/${buffered.id}`,
      token,
      json: { bufferAfterMinutes: 0 },
    });
    expectProblem(await create(bookingInput(et.id, '2026-01-05T09:30:00Z')), 409, 'slot-unavailable');
    expect((await create(bookingInput(et.id, '2026-01-05T10:00:00Z'))).statusCode).toBe(201);
  });

  it('when the start has fractional seconds on the grid, then it is accepted; off the grid by 1 ms, then 409', async () => {
    expect((await create(bookingInput(et.id, '2026-01-05T09:00:00.000Z'))).statusCode).toBe(201);
    expectProblem(await create(bookingInput(et.id, '2026-01-05T10:00:00.001Z')), 409, 'slot-unavailable');
  });

  it('when a start is listed by /slots, then booking it succeeds, and afterwards /slots no longer lists it', async () => {
    const before = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T10:00:00Z',
    });
    expect(before).toHaveLength(2);
    await book(h, token, et.id, before[1]!.start);
    const after = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T10:00:00Z',
    });
    expect(after).toEqual([before[0]]);
  });
});

describe('GET /api/v1/bookings/:id', () => {
  it('when the booking is cancelled or rescheduled, then it is still readable with its status', async () => {
    const a = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const b = await book(h, token, et.id, '2026-01-05T10:00:00Z');
    await cancel(a.id);
    await reschedule(b.id, { start: '2026-01-05T11:00:00Z' });
    expect((await get(a.id)).json<BookingBody>().status).toBe('cancelled');
    expect((await get(b.id)).json<BookingBody>().status).toBe('rescheduled');
  });

  it('when the id is unknown, then 404 not-found', async () => {
    expectProblem(await get('bkg_unknown'), 404, 'not-found');
  });
});

describe('GET /api/v1/bookings (list)', () => {
  it('when bookings of every status exist, then only confirmed ones in [from, to) are listed, ascending by start', async () => {
    const late = await book(h, token, et.id, '2026-01-05T15:00:00Z');
    const early = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const cancelled = await book(h, token, et.id, '2026-01-05T10:00:00Z');
    const moved = await book(h, token, et.id, '2026-01-05T11:00:00Z');
    const nextDay = await book(h, token, et.id, '2026-01-06T09:00:00Z');
    await cancel(cancelled.id);
    const replacement = (await reschedule(moved.id, { start: '2026-01-05T12:00:00Z' })).json<BookingBody>();

    const res = await list('from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z');
    expect(res.statusCode).toBe(200);
    const page = res.json<ListBody<BookingBody>>();
    expect(page.data.map((b) => b.id)).toEqual([early.id, replacement.id, late.id]);
    expect(page.data.every((b) => b.status === 'confirmed')).toBe(true);
    expect(page.nextCursor).toBeNull();

    // `to` is exclusive, `from` inclusive.
    const edge = await list('from=2026-01-05T09:00:00Z&to=2026-01-06T09:00:00Z');
    expect(edge.json<ListBody<BookingBody>>().data.map((b) => b.id)).toEqual([early.id, replacement.id, late.id]);
    const withNextDay = await list('from=2026-01-05T09:00:01Z&to=2026-01-06T09:00:01Z');
    expect(withNextDay.json<ListBody<BookingBody>>().data.map((b) => b.id)).toEqual([
      replacement.id,
      late.id,
      nextDay.id,
    ]);
  });

  it('when eventTypeId is given, then only that event type’s bookings are listed', async () => {
    const other = await createEventType(h, token, { title: 'Other' });
    const mine = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await book(h, token, other.id, '2026-01-05T10:00:00Z');
    const res = await list(`from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z&eventTypeId=${et.id}`);
    expect(res.json<ListBody<BookingBody>>().data.map((b) => b.id)).toEqual([mine.id]);
  });

  it('when paging with limit and cursor, then pages are ascending by start with no repeats and the last has nextCursor null', async () => {
    const starts = [
      '2026-01-06T09:00:00Z',
      '2026-01-05T09:00:00Z',
      '2026-01-05T12:00:00Z',
      '2026-01-07T09:00:00Z',
      '2026-01-05T10:00:00Z',
    ];
    for (const start of starts) await book(h, token, et.id, start);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const res = await list(
        `from=2026-01-05T00:00:00Z&to=2026-01-08T00:00:00Z&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<ListBody<BookingBody>>();
      sizes.push(page.data.length);
      seen.push(...page.data.map((b) => b.start));
      cursor = page.nextCursor;
      if (cursor === null) break;
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual([...starts].sort().map((s) => new Date(s).toISOString()));
  });

  it('when from is omitted, then it defaults to now (the clock), and to to 62 days later', async () => {
    const past = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const soon = await book(h, token, et.id, '2026-01-05T11:00:00Z');
    const within = await book(h, token, et.id, '2026-03-06T09:00:00Z'); // Friday, < 62 days after 2026-01-05T10:00Z
    const beyond = await book(h, token, et.id, '2026-03-09T09:00:00Z'); // Monday, > 62 days after
    h.clock.set('2026-01-05T10:00:00Z');
    const res = await list();
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json<ListBody<BookingBody>>().data.map((b) => b.id);
    expect(ids).toEqual([soon.id, within.id]);
    expect(ids).not.toContain(past.id);
    expect(ids).not.toContain(beyond.id);
  });

  it('when from carries a + offset unencoded in the query, then it is read as that offset', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    // 10:00+01:00 = 09:00Z (inclusive); 09:59+01:00 would also include it, 10:01+01:00 would not.
    const at = await list('from=2026-01-05T10:00:00+01:00&to=2026-01-05T11:00:00+01:00');
    expect(at.statusCode, at.body).toBe(200);
    expect(at.json<ListBody<BookingBody>>().data.map((b) => b.id)).toEqual([booking.id]);
    const after = await list('from=2026-01-05T10:01:00+01:00&to=2026-01-05T11:00:00+01:00');
    expect(after.json<ListBody<BookingBody>>().data).toEqual([]);
  });

  it('when the range is longer than 62 days, then 400 on to', async () => {
    expectInvalid(await list('from=2026-01-01T00:00:00Z&to=2026-03-05T00:00:00Z'), ['to']);
  });

  it('when from is after to, then 400 on to', async () => {
    expectInvalid(await list('from=2026-01-05T00:00:00Z&to=2026-01-04T00:00:00Z'), ['to']);
  });

  it('when from has no offset, then 400 on from', async () => {
    expectInvalid(await list('from=2026-01-05T00:00:00'), ['from']);
  });

  it('when from and to are epoch milliseconds, then they are accepted', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const res = await list(`from=${Date.parse('2026-01-05T00:00:00Z')}&to=${Date.parse('2026-01-06T00:00:00Z')}`);
    expect(res.json<ListBody<BookingBody>>().data.map((b) => b.id)).toEqual([booking.id]);
  });

  it('when the cursor is not one this list returned, then 400 on cursor', async () => {
    expectInvalid(await list('cursor=garbage'), ['cursor']);
  });
});

describe('POST /api/v1/bookings/:id/cancel', () => {
  it('when sent with no body at all, then 200 with status cancelled, cancelledAt and a null reason', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    h.clock.set('2026-01-02T08:00:00Z');
    const res = await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BookingBody>()).toEqual({
      ...booking,
      status: 'cancelled',
      cancelledAt: '2026-01-02T08:00:00.000Z',
      cancellationReason: null,
      updatedAt: '2026-01-02T08:00:00.000Z',
    });
    expect((await get(booking.id)).json()).toEqual(res.json());
  });

  it('when sent with Content-Type application/json and an empty body, then 200 cancelled', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const res = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/cancel`,
      token,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BookingBody>().status).toBe('cancelled');
  });

  it('when sent with an empty JSON object, then 200 cancelled', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const res = await cancel(booking.id, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BookingBody>()).toMatchObject({ status: 'cancelled', cancellationReason: null });
    expect(res.json<BookingBody>().cancelledAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('when sent with a reason, then it is stored as cancellationReason', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const res = await cancel(booking.id, { reason: 'Guest is ill' });
    expect(res.json<BookingBody>()).toMatchObject({ status: 'cancelled', cancellationReason: 'Guest is ill' });
  });

  it('when the body has an unknown field or a non-string reason, then 400 and the booking stays confirmed', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    expectInvalid(await cancel(booking.id, { reason: 5, why: 'x' }), ['reason', 'why']);
    expect((await get(booking.id)).json<BookingBody>().status).toBe('confirmed');
  });

  it('when the booking is already cancelled, then 409 invalid-state', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await cancel(booking.id);
    const problem = expectProblem(await cancel(booking.id), 409, 'invalid-state');
    expect(problem.detail).toMatch(/cancelled/);
  });

  it('when the booking was rescheduled, then cancelling it is 409 invalid-state', async () => {
    const booking = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await reschedule(booking.id, { start: '2026-01-05T10:00:00Z' });
    expectProblem(await cancel(booking.id), 409, 'invalid-state');
  });

  it('when the id is unknown, then 404 not-found', async () => {
    expectProblem(await cancel('bkg_unknown'), 404, 'not-found');
  });
});

describe('POST /api/v1/bookings/:id/reschedule', () => {
  it('when moved to a free time, then 201 + Location to a new confirmed booking and the old one is rescheduled and linked', async () => {
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z', {
      notes: 'agenda',
      guestTimeZone: 'Europe/Berlin',
    });
    h.clock.set('2026-01-02T00:00:00Z');
    const res = await reschedule(old.id, { start: '2026-01-06T14:00:00+01:00', reason: 'clash' });
    expect(res.statusCode, res.body).toBe(201);
    const moved = res.json<BookingBody>();
    expect(moved.id).not.toBe(old.id);
    expect(res.headers.location).toBe(`/api/v1/bookings/${moved.id}`);
    expect(moved).toMatchObject({
      eventTypeId: et.id,
      start: '2026-01-06T13:00:00.000Z',
      end: '2026-01-06T13:30:00.000Z',
      status: 'confirmed',
      guestName: old.guestName,
      guestEmail: old.guestEmail,
      guestTimeZone: 'Europe/Berlin',
      notes: 'agenda',
      rescheduledFromId: old.id,
      rescheduledToId: null,
      createdAt: '2026-01-02T00:00:00.000Z',
    });
    const previous = (await get(old.id)).json<BookingBody>();
    expect(previous).toMatchObject({
      status: 'rescheduled',
      rescheduledToId: moved.id,
      start: old.start,
      end: old.end,
    });
    expect(previous.updatedAt).toBe('2026-01-02T00:00:00.000Z');
  });

  it('when start is epoch milliseconds, then it is accepted', async () => {
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const res = await reschedule(old.id, { start: Date.parse('2026-01-05T13:00:00Z') });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<BookingBody>().start).toBe('2026-01-05T13:00:00.000Z');
  });

  it('when moved by 15 minutes into its own time, then it succeeds', async () => {
    const quarter = await createEventType(h, token, { title: 'Hour', durationMinutes: 60, slotIntervalMinutes: 15 });
    const old = await book(h, token, quarter.id, '2026-01-05T10:00:00Z');
    const res = await reschedule(old.id, { start: '2026-01-05T10:15:00Z' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<BookingBody>()).toMatchObject({
      start: '2026-01-05T10:15:00.000Z',
      end: '2026-01-05T11:15:00.000Z',
    });
    // The old time is free again, apart from what the new booking covers.
    const slots = await getSlots(h, token, {
      eventTypeId: quarter.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T12:00:00Z',
    });
    expect(slots.map((s) => s.start)).toEqual([
      '2026-01-05T09:00:00.000Z',
      '2026-01-05T09:15:00.000Z',
      '2026-01-05T11:15:00.000Z',
      '2026-01-05T11:30:00.000Z',
      '2026-01-05T11:45:00.000Z',
    ]);
  });

  it('when the daily maximum is 1 and the booking moves within its day, then it succeeds (the old booking does not count)', async () => {
    const capped = await createEventType(h, token, { title: 'Capped', maxBookingsPerDay: 1 });
    const old = await book(h, token, capped.id, '2026-01-05T09:00:00Z');
    const res = await reschedule(old.id, { start: '2026-01-05T14:00:00Z' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('when the reschedule succeeds, then the old time is free again for others', async () => {
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await reschedule(old.id, { start: '2026-01-05T10:00:00Z' });
    expect((await create(bookingInput(et.id, '2026-01-05T09:00:00Z'))).statusCode).toBe(201);
    expectProblem(await create(bookingInput(et.id, '2026-01-05T10:00:00Z')), 409, 'slot-unavailable');
  });

  it('when the booking is cancelled, then 409 invalid-state', async () => {
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await cancel(old.id);
    expectProblem(await reschedule(old.id, { start: '2026-01-05T10:00:00Z' }), 409, 'invalid-state');
  });

  it('when the booking was already rescheduled, then 409 invalid-state (even to an unbookable time)', async () => {
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await reschedule(old.id, { start: '2026-01-05T10:00:00Z' });
    expectProblem(await reschedule(old.id, { start: '2026-01-05T11:00:00Z' }), 409, 'invalid-state');
    expectProblem(await reschedule(old.id, { start: '2026-01-10T11:00:00Z' }), 409, 'invalid-state');
  });

  it('when the new time is not bookable, then 409 slot-unavailable and nothing changes', async () => {
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const blocker = await book(h, token, et.id, '2026-01-05T11:00:00Z');
    const problem = expectProblem(await reschedule(old.id, { start: '2026-01-05T11:00:00Z' }), 409, 'slot-unavailable');
    expect(problem.detail.length).toBeGreaterThan(0);
    expectProblem(await reschedule(old.id, { start: '2026-01-10T11:00:00Z' }), 409, 'slot-unavailable');
    expect((await get(old.id)).json()).toEqual(old);
    expect((await get(blocker.id)).json()).toEqual(blocker);
    const listed = await list('from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z');
    expect(listed.json<ListBody<BookingBody>>().data.map((b) => b.id)).toEqual([old.id, blocker.id]);
  });

  it('when start has no offset or is missing, then 400 on start', async () => {
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    expectInvalid(await reschedule(old.id, { start: '2026-01-05T10:00:00' }), ['start']);
    expectInvalid(await reschedule(old.id, {}), ['start']);
    // No body at all: the body itself is what is missing.
    expectProblem(
      await h.request({ method: 'POST', url: `/api/v1/bookings/${old.id}/reschedule`, token }),
      400,
      'invalid-request',
    );
    expect((await get(old.id)).json<BookingBody>().status).toBe('confirmed');
  });

  it('when the event type was deleted, then rescheduling is 409 slot-unavailable and the booking stays confirmed', async () => {
    const old = await book(h, token, et.id, '2026-01-05T09:00:00Z');
    await h.request({ method: 'DELETE', url: `/api/v1/event-types/${et.id}`, token });
    expectProblem(await reschedule(old.id, { start: '2026-01-05T10:00:00Z' }), 409, 'slot-unavailable');
    expect((await get(old.id)).json<BookingBody>().status).toBe('confirmed');
  });

  it('when the id is unknown, then 404 not-found', async () => {
    expectProblem(await reschedule('bkg_unknown', { start: '2026-01-05T10:00:00Z' }), 404, 'not-found');
  });
});
