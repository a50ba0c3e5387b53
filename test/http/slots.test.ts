import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  createEventType,
  expectInvalid,
  expectProblem,
  getSlots,
  putAvailability,
  startsOf,
  type SlotBody,
} from './helpers.js';

let h: Harness;
let token: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
});

afterEach(async () => {
  await h.close();
});

const MONDAY = { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' };
const raw = (query: string) => h.request({ method: 'GET', url: `/api/v1/slots?${query}`, token });

/** Every start from `first` in `stepMinutes` steps, `count` of them, as UTC `.000Z` strings. */
function grid(first: string, stepMinutes: number, count: number): string[] {
  const start = Date.parse(first);
  return Array.from({ length: count }, (_, i) => new Date(start + i * stepMinutes * 60_000).toISOString());
}

describe('long answers', () => {
  it('when a long answer is followed by a shorter one cut from the same written slots, then each is exactly its own list', async () => {
    const always = [{ start: '00:00', end: '24:00' }];
    const week = { monday: always, tuesday: always, wednesday: always, thursday: always, friday: always };
    expect(
      (await putAvailability(h, token, { timeZone: 'UTC', weekly: { ...week, saturday: always, sunday: always } }))
        .statusCode,
    ).toBe(200);
    const et = await createEventType(h, token, { durationMinutes: 5 });
    const long = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T00:00:00Z',
      to: '2026-03-08T00:00:00Z',
    });
    expect(long).toHaveLength(62 * 288);
    // About 1,000 slots from the middle of the first answer's.
    const shorter = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-02-01T00:00:00Z',
      to: '2026-02-04T12:00:00Z',
    });
    expect(startsOf(shorter)).toEqual(grid('2026-02-01T00:00:00Z', 5, 3.5 * 288));
    expect(shorter.at(-1)).toEqual({ start: '2026-02-04T11:55:00.000Z', end: '2026-02-04T12:00:00.000Z' });
  });
});

describe('GET /api/v1/slots', () => {
  it('when the default availability applies, then Monday has every 30-minute start from 09:00 to 16:30 UTC in Z form', async () => {
    const et = await createEventType(h, token, { durationMinutes: 30 });
    const res = await raw(new URLSearchParams({ eventTypeId: et.id, ...MONDAY }).toString());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const slots = res.json<{ data: SlotBody[] }>().data;
    expect(startsOf(slots)).toEqual(grid('2026-01-05T09:00:00Z', 30, 16));
    expect(slots[0]).toEqual({ start: '2026-01-05T09:00:00.000Z', end: '2026-01-05T09:30:00.000Z' });
    expect(slots.at(-1)).toEqual({ start: '2026-01-05T16:30:00.000Z', end: '2026-01-05T17:00:00.000Z' });
  });

  it('when the slot interval is shorter than the duration, then starts step by the interval and end stays within the day', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60, slotIntervalMinutes: 15 });
    const slots = await getSlots(h, token, { eventTypeId: et.id, ...MONDAY });
    expect(startsOf(slots)).toEqual(grid('2026-01-05T09:00:00Z', 15, 29));
    expect(slots.at(-1)?.end).toBe('2026-01-05T17:00:00.000Z');
  });

  it('when the range covers a weekend, then no slots fall on Saturday or Sunday', async () => {
    const et = await createEventType(h, token, { durationMinutes: 480 });
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-02T00:00:00Z',
      to: '2026-01-06T00:00:00Z',
    });
    expect(startsOf(slots)).toEqual(['2026-01-02T09:00:00.000Z', '2026-01-05T09:00:00.000Z']);
  });

  it('when from/to cut through the day, then only starts in [from, to) are listed', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T10:00:00Z',
      to: '2026-01-05T12:00:00Z',
    });
    expect(startsOf(slots)).toEqual(['2026-01-05T10:00:00.000Z', '2026-01-05T11:00:00.000Z']);
  });

  it('when to falls inside a slot, then that slot is listed because its start is before to', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T09:00:00.001Z',
    });
    expect(slots).toEqual([{ start: '2026-01-05T09:00:00.000Z', end: '2026-01-05T10:00:00.000Z' }]);
    const none = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00.001Z',
      to: '2026-01-05T10:00:00Z',
    });
    expect(none).toEqual([]);
  });

  it('when HEAD is sent, then it answers like GET without a body', async () => {
    const et = await createEventType(h, token);
    const url = `/api/v1/slots?${new URLSearchParams({ eventTypeId: et.id, ...MONDAY })}`;
    const res = await h.request({ method: 'HEAD', url, token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toBe('');
    const get = await h.request({ method: 'GET', url, token });
    expect(res.headers['content-length']).toBe(String(get.rawPayload.length));
  });

  it('when slots are answered, then the answer has its exact length, its type and the request id', async () => {
    const et = await createEventType(h, token);
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/slots?${new URLSearchParams({ eventTypeId: et.id, ...MONDAY })}`,
      token,
      headers: { 'x-request-id': 'req-slots-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.headers['x-request-id']).toBe('req-slots-1');
    expect(res.headers.connection).not.toBe('close');
    expect(JSON.parse(res.body).data).toHaveLength(16);
  });

  it('when the server is shutting down, then a slot answer closes its connection', async () => {
    const et = await createEventType(h, token);
    h.app.shutdown.closing = true;
    const res = await raw(new URLSearchParams({ eventTypeId: et.id, ...MONDAY }).toString());
    expect(res.statusCode).toBe(200);
    expect(res.headers.connection).toBe('close');
  });

  it('when timeZone is given, then start and end carry that zone’s offset', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T11:00:00Z',
      timeZone: 'Europe/Berlin',
    });
    expect(slots).toEqual([
      { start: '2026-01-05T10:00:00+01:00', end: '2026-01-05T11:00:00+01:00' },
      { start: '2026-01-05T11:00:00+01:00', end: '2026-01-05T12:00:00+01:00' },
    ]);
  });

  it('when timeZone is negative or UTC, then the offset is rendered with its sign', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const ny = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T10:00:00Z',
      timeZone: 'America/New_York',
    });
    expect(ny).toEqual([{ start: '2026-01-05T04:00:00-05:00', end: '2026-01-05T05:00:00-05:00' }]);
    const india = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T10:00:00Z',
      timeZone: 'Asia/Kolkata',
    });
    expect(india).toEqual([{ start: '2026-01-05T14:30:00+05:30', end: '2026-01-05T15:30:00+05:30' }]);
  });

  it('when timeZone is not an IANA zone, then 400 on timeZone', async () => {
    const et = await createEventType(h, token);
    expectInvalid(
      await raw(new URLSearchParams({ eventTypeId: et.id, ...MONDAY, timeZone: 'Nowhere/Land' }).toString()),
      ['timeZone'],
    );
  });

  it('when the range is longer than 62 days, then 400 on to; exactly 62 days is fine', async () => {
    const et = await createEventType(h, token);
    const tooLong = await raw(
      new URLSearchParams({ eventTypeId: et.id, from: '2026-01-01T00:00:00Z', to: '2026-03-04T00:00:01Z' }).toString(),
    );
    expectInvalid(tooLong, ['to']);
    const exact = await raw(
      new URLSearchParams({ eventTypeId: et.id, from: '2026-01-01T00:00:00Z', to: '2026-03-04T00:00:00Z' }).toString(),
    );
    expect(exact.statusCode, exact.body).toBe(200);
  });

  it.each([
    ['equal', '2026-01-05T10:00:00Z', '2026-01-05T10:00:00Z'],
    ['reversed', '2026-01-05T10:00:00Z', '2026-01-05T09:00:00Z'],
  ])('when from and to are %s, then 400 invalid-request on to', async (_label, from, to) => {
    const et = await createEventType(h, token);
    expectInvalid(await raw(new URLSearchParams({ eventTypeId: et.id, from, to }).toString()), ['to']);
  });

  it('when from, to and eventTypeId are missing, then each has its own entry', async () => {
    expectInvalid(await raw(''), ['eventTypeId', 'from', 'to']);
  });

  it('when from is missing, then 400 on from', async () => {
    const et = await createEventType(h, token);
    expectInvalid(await raw(new URLSearchParams({ eventTypeId: et.id, to: MONDAY.to }).toString()), ['from']);
  });

  it('when to is missing, then 400 on to', async () => {
    const et = await createEventType(h, token);
    expectInvalid(await raw(new URLSearchParams({ eventTypeId: et.id, from: MONDAY.from }).toString()), ['to']);
  });

  it('when from has no offset, then 400 on from (never read as UTC)', async () => {
    const et = await createEventType(h, token);
    const body = expectInvalid(
      await raw(new URLSearchParams({ eventTypeId: et.id, from: '2026-01-05T00:00:00', to: MONDAY.to }).toString()),
      ['from'],
    );
    expect(body.errors?.[0]?.message).toMatch(/offset/);
  });

  it.each(['tomorrow', '2026-01-05', '2026-13-05T00:00:00Z', '-5'])(
    'when from is %j, then 400 on from',
    async (from) => {
      const et = await createEventType(h, token);
      expectInvalid(await raw(new URLSearchParams({ eventTypeId: et.id, from, to: MONDAY.to }).toString()), ['from']);
    },
  );

  it('when the offset’s + arrives as a literal + (unencoded), then it is read as a space and still means +01:00', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    // A raw `+` in a query string is form-decoded to a space.
    const res = await raw(`eventTypeId=${et.id}&from=2026-01-05T10:00:00+01:00&to=2026-01-05T12:00:00+01:00`);
    expect(res.statusCode, res.body).toBe(200);
    expect(startsOf(res.json<{ data: SlotBody[] }>().data)).toEqual([
      '2026-01-05T09:00:00.000Z',
      '2026-01-05T10:00:00.000Z',
    ]);
  });

  it('when the offset is sent with a space, then it is read as +01:00', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T10:00:00 01:00',
      to: '2026-01-05T12:00:00 01:00',
    });
    expect(startsOf(slots)).toEqual(['2026-01-05T09:00:00.000Z', '2026-01-05T10:00:00.000Z']);
  });

  it('when the + is percent-encoded, then it is read as +01:00', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const res = await raw(`eventTypeId=${et.id}&from=2026-01-05T10:00:00%2B01:00&to=2026-01-05T12:00:00%2B01:00`);
    expect(startsOf(res.json<{ data: SlotBody[] }>().data)).toEqual([
      '2026-01-05T09:00:00.000Z',
      '2026-01-05T10:00:00.000Z',
    ]);
  });

  it('when from and to are epoch milliseconds, then they are accepted', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: String(Date.parse('2026-01-05T15:00:00Z')),
      to: String(Date.parse('2026-01-06T00:00:00Z')),
    });
    expect(startsOf(slots)).toEqual(['2026-01-05T15:00:00.000Z', '2026-01-05T16:00:00.000Z']);
  });

  it('when eventTypeId is unknown, then 400 on eventTypeId', async () => {
    expectInvalid(await raw(new URLSearchParams({ eventTypeId: 'evt_nope', ...MONDAY }).toString()), ['eventTypeId']);
  });

  it('when an unknown query parameter is sent, then 400 names it', async () => {
    const et = await createEventType(h, token);
    expectInvalid(await raw(new URLSearchParams({ eventTypeId: et.id, ...MONDAY, tz: 'UTC' }).toString()), ['tz']);
  });

  describe('in Europe/Berlin', () => {
    beforeEach(async () => {
      const res = await putAvailability(h, token, {
        timeZone: 'Europe/Berlin',
        weekly: {
          monday: [{ start: '09:00', end: '11:00' }],
          sunday: [{ start: '00:00', end: '05:00' }],
        },
        overrides: [{ date: '2026-10-25', intervals: [{ start: '01:00', end: '04:00' }] }],
      });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('when a winter Monday is asked, then local 09:00 is 08:00Z', async () => {
      const et = await createEventType(h, token, { durationMinutes: 60 });
      const slots = await getSlots(h, token, { eventTypeId: et.id, ...MONDAY });
      expect(startsOf(slots)).toEqual(['2026-01-05T08:00:00.000Z', '2026-01-05T09:00:00.000Z']);
    });

    it('when the spring-forward night is asked, then 00:00–05:00 local is four real hours and rendering jumps from +01:00 to +02:00', async () => {
      const et = await createEventType(h, token, { durationMinutes: 60 });
      const query = { eventTypeId: et.id, from: '2026-03-28T12:00:00Z', to: '2026-03-29T12:00:00Z' };
      expect(startsOf(await getSlots(h, token, query))).toEqual([
        '2026-03-28T23:00:00.000Z',
        '2026-03-29T00:00:00.000Z',
        '2026-03-29T01:00:00.000Z',
        '2026-03-29T02:00:00.000Z',
      ]);
      expect(startsOf(await getSlots(h, token, { ...query, timeZone: 'Europe/Berlin' }))).toEqual([
        '2026-03-29T00:00:00+01:00',
        '2026-03-29T01:00:00+01:00',
        '2026-03-29T03:00:00+02:00',
        '2026-03-29T04:00:00+02:00',
      ]);
    });

    it('when every slot of the spring-forward night is booked via POST, then each succeeds and a start in the gap does not', async () => {
      const et = await createEventType(h, token, { durationMinutes: 60 });
      const slots = await getSlots(h, token, {
        eventTypeId: et.id,
        from: '2026-03-28T12:00:00Z',
        to: '2026-03-29T12:00:00Z',
        timeZone: 'Europe/Berlin',
      });
      expect(slots).toHaveLength(4);
      for (const slot of slots) {
        const booked = await book(h, token, et.id, slot.start);
        expect(Date.parse(booked.start)).toBe(Date.parse(slot.start));
        expect(Date.parse(booked.end)).toBe(Date.parse(slot.end));
      }
      const res = await h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token,
        json: { eventTypeId: et.id, start: '2026-03-29T01:30:00Z', guestName: 'G', guestEmail: 'g@example.com' },
      });
      expectProblem(res, 409, 'slot-unavailable');
    });

    it('when the fall-back night is asked, then 01:00–04:00 local is four real hours and 02:00 appears with both offsets', async () => {
      const et = await createEventType(h, token, { durationMinutes: 60 });
      const slots = await getSlots(h, token, {
        eventTypeId: et.id,
        from: '2026-10-24T12:00:00Z',
        to: '2026-10-25T12:00:00Z',
        timeZone: 'Europe/Berlin',
      });
      expect(slots).toEqual([
        { start: '2026-10-25T01:00:00+02:00', end: '2026-10-25T02:00:00+02:00' },
        { start: '2026-10-25T02:00:00+02:00', end: '2026-10-25T02:00:00+01:00' },
        { start: '2026-10-25T02:00:00+01:00', end: '2026-10-25T03:00:00+01:00' },
        { start: '2026-10-25T03:00:00+01:00', end: '2026-10-25T04:00:00+01:00' },
      ]);
    });
  });

  it('when an override closes a day, then that day has no slots; an override with hours replaces the weekly ones', async () => {
    await putAvailability(h, token, {
      timeZone: 'UTC',
      weekly: { monday: [{ start: '09:00', end: '17:00' }], tuesday: [{ start: '09:00', end: '17:00' }] },
      overrides: [
        { date: '2026-01-05', intervals: [] },
        { date: '2026-01-06', intervals: [{ start: '20:00', end: '21:00' }] },
      ],
    });
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-07T00:00:00Z',
    });
    expect(startsOf(slots)).toEqual(['2026-01-06T20:00:00.000Z']);
  });

  it('when a slot is booked, then it disappears from the list for every event type of the holder', async () => {
    const a = await createEventType(h, token, { durationMinutes: 60 });
    const b = await createEventType(h, token, { durationMinutes: 30, title: 'Short' });
    await book(h, token, a.id, '2026-01-05T10:00:00Z');
    const slotsA = await getSlots(h, token, {
      eventTypeId: a.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T12:00:00Z',
    });
    expect(startsOf(slotsA)).toEqual(['2026-01-05T09:00:00.000Z', '2026-01-05T11:00:00.000Z']);
    const slotsB = await getSlots(h, token, {
      eventTypeId: b.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T12:00:00Z',
    });
    expect(startsOf(slotsB)).toEqual(grid('2026-01-05T09:00:00Z', 30, 2).concat(grid('2026-01-05T11:00:00Z', 30, 2)));
  });

  it('when a booking is cancelled, then its slot comes back', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60 });
    const booking = await book(h, token, et.id, '2026-01-05T10:00:00Z');
    await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token });
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T10:00:00Z',
      to: '2026-01-05T11:00:00Z',
    });
    expect(startsOf(slots)).toEqual(['2026-01-05T10:00:00.000Z']);
  });

  it('when bookings have buffers, then starts whose buffered window overlaps them disappear', async () => {
    const withAfter = await createEventType(h, token, { title: 'After', durationMinutes: 30, bufferAfterMinutes: 15 });
    const withBefore = await createEventType(h, token, {
      title: 'Before',
      durationMinutes: 30,
      bufferBeforeMinutes: 45,
    });
    await book(h, token, withAfter.id, '2026-01-05T09:00:00Z'); // occupies 09:00–09:45
    const range = { from: '2026-01-05T09:00:00Z', to: '2026-01-05T11:00:00Z' };
    // Own buffer after the booking: 09:30 would start inside 09:00–09:45.
    expect(startsOf(await getSlots(h, token, { eventTypeId: withAfter.id, ...range }))).toEqual(
      grid('2026-01-05T10:00:00Z', 30, 2),
    );
    // 45 minutes before 10:00 is 09:15 < 09:45: gone; 10:30 − 45 = 09:45: free.
    expect(startsOf(await getSlots(h, token, { eventTypeId: withBefore.id, ...range }))).toEqual([
      '2026-01-05T10:30:00.000Z',
    ]);
  });

  it('when a minimum notice applies, then starts before now + notice disappear, relative to the clock', async () => {
    const et = await createEventType(h, token, { durationMinutes: 30, minimumNoticeMinutes: 60 });
    h.clock.set('2026-01-05T09:10:00Z');
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T12:00:00Z',
    });
    expect(startsOf(slots)).toEqual(grid('2026-01-05T10:30:00Z', 30, 3));
    h.clock.set('2026-01-05T10:00:00Z');
    const later = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T09:00:00Z',
      to: '2026-01-05T12:00:00Z',
    });
    expect(startsOf(later)).toEqual(grid('2026-01-05T11:00:00Z', 30, 2));
  });

  it('when the range lies in the past, then there are no slots', async () => {
    const et = await createEventType(h, token);
    h.clock.set('2026-01-10T00:00:00Z');
    expect(await getSlots(h, token, { eventTypeId: et.id, ...MONDAY })).toEqual([]);
  });

  it('when a booking window is set, then starts at or after now + window disappear', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60, bookingWindowDays: 5 });
    // now = 2026-01-01T00:00Z, window ends 2026-01-06T00:00Z.
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-07T00:00:00Z',
    });
    expect(slots).toHaveLength(8);
    expect(slots.every((s) => s.start.startsWith('2026-01-05'))).toBe(true);
  });

  it('when the daily maximum is reached, then that day has no more slots for the event type', async () => {
    const et = await createEventType(h, token, { durationMinutes: 60, maxBookingsPerDay: 1 });
    await book(h, token, et.id, '2026-01-05T09:00:00Z');
    const slots = await getSlots(h, token, {
      eventTypeId: et.id,
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-07T00:00:00Z',
    });
    expect(slots.every((s) => s.start.startsWith('2026-01-06'))).toBe(true);
    expect(slots).toHaveLength(8);
  });

  it('when the event type belongs to another holder, then 400 on eventTypeId', async () => {
    const other = await h.key('bob');
    const et = await createEventType(h, other);
    expectInvalid(await raw(new URLSearchParams({ eventTypeId: et.id, ...MONDAY }).toString()), ['eventTypeId']);
  });

  it('when the request is well-formed, then the response is not a problem document', async () => {
    const et = await createEventType(h, token);
    const res = await raw(new URLSearchParams({ eventTypeId: et.id, ...MONDAY }).toString());
    expect(res.headers['content-type']).not.toMatch(/problem/);
    expect(Object.keys(res.json())).toEqual(['data']);
  });

  it('when a slot list is requested with a bad range and bad zone, then both are reported', async () => {
    const et = await createEventType(h, token);
    const res = await raw(
      new URLSearchParams({ eventTypeId: et.id, from: 'x', to: 'y', timeZone: 'Nope/Nope' }).toString(),
    );
    expectProblem(res, 400, 'invalid-request');
    expectInvalid(res, ['from', 'to', 'timeZone']);
  });
});
