// Contract §15, seats, on both stores: an event type with `seats` takes that many guests at one
// time, each seat its own booking; the occurrence occupies its holder once, so other event types
// stay out of its time until its last seat goes; live holds count as seats; `/slots` carries
// `seatsLeft`; the daily cap counts occurrences; a seat joins whatever the hours say now (only the
// clock rules still apply) and takes the occurrence's time; cancelling or moving one seat changes
// that guest's booking only. Collective team types take seats too; round robin does not.
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { Browser, hiddenFields, timeForms } from './page-browser.js';
import {
  BEFORE_MONDAY,
  bookingInput,
  createEventType,
  expectInvalid,
  expectProblem,
  putAvailability,
  type BookingBody,
} from './helpers.js';

interface SeatSlot {
  start: string;
  end: string;
  seatsLeft?: number;
}

let h: Harness;
let key: string;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  key = (await createApiKey(h.context, { accountName: 'acme', holderName: 'ada', scopes: ['*'], expiresAt: null }))
    .token;
});

afterEach(async () => {
  await h.close();
});

function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, json?: unknown, token = key) {
  return h.request({ method, url: `/api/v1${url}`, token, ...(json === undefined ? {} : { json }) });
}

const MONDAY_10 = '2026-01-05T10:00:00.000Z';
const MONDAY_1030 = '2026-01-05T10:30:00.000Z';
const MONDAY_11 = '2026-01-05T11:00:00.000Z';

async function seatsAt(eventTypeId: string, token = key): Promise<Map<string, number | undefined>> {
  const res = await call(
    'GET',
    `/slots?eventTypeId=${eventTypeId}&from=2026-01-05T09:00:00Z&to=2026-01-05T13:00:00Z`,
    undefined,
    token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return new Map(res.json<{ data: SeatSlot[] }>().data.map((slot) => [slot.start, slot.seatsLeft]));
}

function bookSeat(eventTypeId: string, start: string, guest: string) {
  return call(
    'POST',
    '/bookings',
    bookingInput(eventTypeId, start, { guestName: guest, guestEmail: `${guest}@example.com` }),
  );
}

async function seat(eventTypeId: string, start: string, guest: string): Promise<BookingBody> {
  const res = await bookSeat(eventTypeId, start, guest);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<BookingBody>();
}

async function written(): Promise<unknown> {
  return {
    bookings: (await h.database.rows('bookings')).length,
    occupancies: (await h.database.rows('occupancies')).length,
  };
}

describe('seats on event types', () => {
  it('when an event type is made with seats, then it shows them; without, seats is null; outside 2–1000 is a 400 on seats', async () => {
    expect((await createEventType(h, key, { seats: 12 })).seats).toBe(12);
    expect((await createEventType(h, key)).seats).toBeNull();
    for (const seats of [1, 0, 1001, 2.5, '3'])
      expectInvalid(await call('POST', '/event-types', { title: 'Class', durationMinutes: 60, seats }), ['seats']);
    const type = await createEventType(h, key, { seats: 3 });
    const patched = await call('PATCH', `/event-types/${type.id}`, { seats: null });
    expect(patched.json<{ seats: number | null }>().seats).toBeNull();
  });

  it('when a workshop has 3 seats, then three guests each get their own booking at one time, slots count down the seats left, and the fourth is 409 with nothing written', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 3 });
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(3);
    const first = await seat(workshop.id, MONDAY_10, 'grace');
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(2);
    const second = await seat(workshop.id, MONDAY_10, 'alan');
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(1);
    const third = await seat(workshop.id, MONDAY_10, 'edsger');
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
    expect([first, second, third].map((b) => b.guestName)).toEqual(['grace', 'alan', 'edsger']);
    expect([first, second, third].every((b) => b.manageUrl !== first.manageUrl || b === first)).toBe(true);
    const slots = await seatsAt(workshop.id);
    expect(slots.has(MONDAY_10)).toBe(false);
    // The occurrence's own time keeps the workshop's other starts that overlap it out, as any booking does.
    expect(slots.get(MONDAY_11)).toBe(3);
    const before = await written();
    const refused = expectProblem(await bookSeat(workshop.id, MONDAY_10, 'barbara'), 409, 'slot-unavailable');
    expect(refused.detail).toMatch(/seat/);
    expect(await written()).toEqual(before);
  });

  it('when 16 guests book seats of one occurrence at once, then each seat is written at its first try: no two of this process choose one number', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 20 });
    // Every write of a booking's row, first tries and second ones alike.
    let inserts = 0;
    const store = h.context.store;
    const transaction = store.transaction.bind(store);
    store.transaction = (work, scope) =>
      transaction((tx) => {
        const insert = tx.bookings.insert.bind(tx.bookings);
        tx.bookings.insert = (...args) => {
          inserts++;
          return insert(...args);
        };
        // Bookings of one start that arrive together are written together.
        const insertEach = tx.bookings.insertEach.bind(tx.bookings);
        tx.bookings.insertEach = (writes) => {
          inserts += writes.length;
          return insertEach(writes);
        };
        return work(tx);
      }, scope);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => bookSeat(workshop.id, MONDAY_10, `guest${i}`)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(16).fill(201));
    // Random numbers alike would clash (on PostgreSQL, 16 picks of 20 free numbers nearly always
    // do), each clash written twice; SQLite's one writer never clashes.
    expect(inserts).toBe(16);
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(4);
  });

  it('when an occurrence has seats taken, then another event type of the holder cannot book its time, and it is free again only once its last seat is cancelled', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 5 });
    const call1 = await createEventType(h, key, { title: 'One to one' });
    const seats = [await seat(workshop.id, MONDAY_10, 'grace'), await seat(workshop.id, MONDAY_10, 'alan')];
    expectProblem(await bookSeat(call1.id, MONDAY_10, 'intruder'), 409, 'slot-unavailable');
    const cancel = (id: string) => call('POST', `/bookings/${id}/cancel`, {});
    expect((await cancel(seats[0]!.id)).statusCode).toBe(200);
    // Only that guest's booking changed; the other seat still holds the time.
    const other = await call('GET', `/bookings/${seats[1]!.id}`);
    expect(other.json<BookingBody>().status).toBe('confirmed');
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(4);
    expectProblem(await bookSeat(call1.id, MONDAY_10, 'intruder'), 409, 'slot-unavailable');
    expect((await cancel(seats[1]!.id)).statusCode).toBe(200);
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(5);
    expect((await bookSeat(call1.id, MONDAY_10, 'finally')).statusCode).toBe(201);
  });

  it('when a seat is moved, then only that guest’s booking moves; the others keep the occurrence', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 4 });
    const grace = await seat(workshop.id, MONDAY_10, 'grace');
    const alan = await seat(workshop.id, MONDAY_10, 'alan');
    const moved = await call('POST', `/bookings/${grace.id}/reschedule`, { start: MONDAY_11 });
    expect(moved.statusCode, moved.body).toBe(201);
    const slots = await seatsAt(workshop.id);
    expect(slots.get(MONDAY_10)).toBe(3);
    expect(slots.get(MONDAY_11)).toBe(3);
    expect((await call('GET', `/bookings/${alan.id}`)).json<BookingBody>().status).toBe('confirmed');
    // Moving a seat into an occurrence joins it.
    const back = await call('POST', `/bookings/${moved.json<{ id: string }>().id}/reschedule`, { start: MONDAY_10 });
    expect(back.statusCode, back.body).toBe(201);
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(2);
  });

  it('when live holds take seats, then they count as taken until they end, and a hold converts into its seat', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 2 });
    const hold = await call('POST', '/holds', { eventTypeId: workshop.id, start: MONDAY_10 });
    expect(hold.statusCode, hold.body).toBe(201);
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(1);
    await seat(workshop.id, MONDAY_10, 'grace');
    expectProblem(await bookSeat(workshop.id, MONDAY_10, 'alan'), 409, 'slot-unavailable');
    const converted = await call('POST', '/bookings', {
      holdId: hold.json<{ id: string }>().id,
      guestName: 'held',
      guestEmail: 'held@example.com',
    });
    expect(converted.statusCode, converted.body).toBe(201);
    expect((await seatsAt(workshop.id)).has(MONDAY_10)).toBe(false);
    const occupancies = await h.database.rows('occupancies');
    expect(occupancies).toHaveLength(2);
  });

  it('when the event type caps bookings per day, then it counts occurrences, not seats', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 3, maxBookingsPerDay: 1 });
    for (const guest of ['grace', 'alan', 'edsger']) await seat(workshop.id, MONDAY_10, guest);
    const refused = expectProblem(
      await bookSeat(workshop.id, '2026-01-05T14:00:00.000Z', 'late'),
      409,
      'slot-unavailable',
    );
    expect(refused.detail).toMatch(/maximum number of bookings/);
  });

  it('when the hours change after an occurrence was booked, then guests still join it (only the clock rules apply), and the seat takes its time even if the duration changed', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 3, durationMinutes: 60 });
    await seat(workshop.id, MONDAY_10, 'grace');
    const put = await putAvailability(h, key, {
      timeZone: 'UTC',
      weekly: { monday: [{ start: '13:00', end: '17:00' }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(
      (await call('PATCH', `/event-types/${workshop.id}`, { durationMinutes: 30, bufferAfterMinutes: 15 })).statusCode,
    ).toBe(200);
    const slots = await seatsAt(workshop.id);
    expect(slots.get(MONDAY_10)).toBe(2);
    expect(slots.has(MONDAY_1030)).toBe(false);
    const joined = await seat(workshop.id, MONDAY_10, 'alan');
    expect(joined.end).toBe('2026-01-05T11:00:00.000Z');
    // Its rows occupy exactly the occurrence's time: the seats share it.
    const rows = await h.database.rows('occupancies');
    expect(new Set(rows.map((row) => `${row.occupied_start}-${row.occupied_end}`)).size).toBe(1);
  });

  it('when seats are lowered below those an occurrence has, then its guests stay and no one joins until it is below', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 3 });
    const seats = [];
    for (const guest of ['grace', 'alan', 'edsger']) seats.push(await seat(workshop.id, MONDAY_10, guest));
    expect((await call('PATCH', `/event-types/${workshop.id}`, { seats: 2 })).statusCode).toBe(200);
    for (const booked of seats)
      expect((await call('GET', `/bookings/${booked.id}`)).json<BookingBody>().status).toBe('confirmed');
    expectProblem(await bookSeat(workshop.id, MONDAY_10, 'barbara'), 409, 'slot-unavailable');
    await call('POST', `/bookings/${seats[0]!.id}/cancel`, {});
    expectProblem(await bookSeat(workshop.id, MONDAY_10, 'barbara'), 409, 'slot-unavailable');
    await call('POST', `/bookings/${seats[1]!.id}/cancel`, {});
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(1);
    expect((await bookSeat(workshop.id, MONDAY_10, 'barbara')).statusCode).toBe(201);
  });

  // Found by the model-based property (seats.property.test.ts).
  it('when a held seat is converted after seats was set to null, then its booking is that seat of the occurrence, sharing its time with the others', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 2 });
    const hold = await call('POST', '/holds', { eventTypeId: workshop.id, start: MONDAY_10 });
    expect(hold.statusCode, hold.body).toBe(201);
    await seat(workshop.id, MONDAY_10, 'grace');
    expect((await call('PATCH', `/event-types/${workshop.id}`, { seats: null })).statusCode).toBe(200);
    const converted = await call('POST', '/bookings', {
      holdId: hold.json<{ id: string }>().id,
      guestName: 'held',
      guestEmail: 'held@example.com',
    });
    expect(converted.statusCode, converted.body).toBe(201);
    const occurrences = (await h.database.rows('occupancies')).map((row) => row.occurrence);
    expect(occurrences).toHaveLength(2);
    expect(occurrences[0]).not.toBeNull();
    expect(occurrences[1]).toBe(occurrences[0]);
  });

  it('when the daily cap is lowered below the occurrences a day has, then seats still join them, and no new occurrence is made', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 3, maxBookingsPerDay: 2 });
    await seat(workshop.id, MONDAY_10, 'grace');
    await seat(workshop.id, MONDAY_11, 'alan');
    expect((await call('PATCH', `/event-types/${workshop.id}`, { maxBookingsPerDay: 1 })).statusCode).toBe(200);
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(2);
    expect((await bookSeat(workshop.id, MONDAY_10, 'edsger')).statusCode).toBe(201);
    expect((await seatsAt(workshop.id)).get(MONDAY_10)).toBe(1);
    const refused = expectProblem(
      await bookSeat(workshop.id, '2026-01-05T14:00:00.000Z', 'late'),
      409,
      'slot-unavailable',
    );
    expect(refused.detail).toMatch(/maximum number of bookings/);
  });

  it('when every held seat of an occurrence has expired, then a booking of a time it overlaps removes them all, and no expired seat is left overlapping it', async () => {
    const workshop = await createEventType(h, key, {
      title: 'Workshop',
      seats: 2,
      durationMinutes: 60,
      slotIntervalMinutes: 30,
    });
    for (let i = 0; i < 2; i++) {
      const hold = await call('POST', '/holds', { eventTypeId: workshop.id, start: MONDAY_1030, expiresInSeconds: 60 });
      expect(hold.statusCode, hold.body).toBe(201);
    }
    h.clock.set(Date.parse(BEFORE_MONDAY) + 60_000);
    const booked = await seat(workshop.id, MONDAY_11, 'grace');
    const rows = await h.database.rows('occupancies');
    expect(rows.map((row) => row.booking_id)).toEqual([booked.id]);
  });

  it('when one seat of an occurrence is moved to a start its occurrence overlaps, then the other seat keeps that time: 409, whichever seat moves', async () => {
    const workshop = await createEventType(h, key, {
      title: 'Workshop',
      seats: 2,
      durationMinutes: 60,
      slotIntervalMinutes: 30,
    });
    const seats = [await seat(workshop.id, MONDAY_1030, 'grace'), await seat(workshop.id, MONDAY_1030, 'alan')];
    for (const moving of seats)
      expectProblem(
        await call('POST', `/bookings/${moving.id}/reschedule`, { start: MONDAY_11 }),
        409,
        'slot-unavailable',
      );
    const rows = await h.database.rows('occupancies');
    expect(rows.map((row) => Number(row.start_at))).toEqual([Date.parse(MONDAY_1030), Date.parse(MONDAY_1030)]);
  });
});

describe('seats on booking pages', () => {
  const PAGE = '/book/ada/workshop';

  /** A guest books the start from the page, with JavaScript off (forms only); returns the manage page's path. */
  async function bookOnPage(guest: string): Promise<string> {
    const browser = new Browser(h);
    const page = await browser.get(`${PAGE}?date=2026-01-05&tz=UTC`);
    const picked = await browser.post(`${PAGE}/hold`, timeForms(page.body).get(MONDAY_10)!);
    expect(picked.statusCode, picked.body).toBe(303);
    const form = await browser.get(String(picked.headers.location));
    const booked = await browser.post(`${PAGE}/book`, {
      ...hiddenFields(form.body),
      name: guest,
      email: `${guest}@example.com`,
    });
    expect(booked.statusCode, booked.body).toBe(303);
    return String(booked.headers.location);
  }

  it('when a seated type is public, then its page shows the seats left at each time, guests book seats there, and the manage page cancels only that guest’s seat', async () => {
    await createEventType(h, key, { title: 'Workshop', slug: 'workshop', seats: 3, public: true });
    const page = await new Browser(h).get(`${PAGE}?date=2026-01-05&tz=UTC`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('3 seats left');
    const grace = await bookOnPage('grace');
    await bookOnPage('alan');
    const after = await new Browser(h).get(`${PAGE}?date=2026-01-05&tz=UTC&lang=de`);
    expect(after.body).toContain('1 Platz frei');
    expect(after.body).toMatch(/aria-label="[^"]*10:00 1 Platz frei/);

    const browser = new Browser(h);
    const manage = await browser.get(grace);
    const cancelled = await browser.post(`${grace.split('?')[0]}/cancel`, hiddenFields(manage.body));
    expect(cancelled.statusCode, cancelled.body).toBe(303);
    const bookings = await h.database.rows('bookings');
    expect(bookings.map((row) => [row.guest_name, row.status]).sort()).toEqual([
      ['alan', 'confirmed'],
      ['grace', 'cancelled'],
    ]);
    expect((await new Browser(h).get(`${PAGE}?date=2026-01-05&tz=UTC`)).body).toContain('2 seats left');
  });
});

describe('seats in calendar files', () => {
  const eventsOf = (text: string) =>
    new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((vevent) => ({
      uid: String(vevent.getFirstPropertyValue('uid')),
      status: String(vevent.getFirstPropertyValue('status')),
      summary: String(vevent.getFirstPropertyValue('summary')),
      sequence: Number(vevent.getFirstPropertyValue('sequence')),
      attendees: vevent.getAllProperties('attendee').map((attendee) => String(attendee.getFirstValue()).toLowerCase()),
    }));
  const fetched = async (url: string) => {
    const res = await h.request({ method: 'GET', url: new URL(url).pathname });
    expect(res.statusCode, res.body).toBe(200);
    return eventsOf(res.body);
  };

  it('when an occurrence has seats, then the holder’s feed shows it once with every seat’s guest, under the occurrence’s UID, and each guest’s .ics shows only their own booking', async () => {
    const workshop = await createEventType(h, key, { title: 'Workshop', seats: 3 });
    // Booked a minute apart: the first seat is grace's.
    const guests: BookingBody[] = [];
    for (const guest of ['grace', 'alan', 'edsger']) {
      guests.push(await seat(workshop.id, MONDAY_10, guest));
      h.clock.set(h.clock.now() + 60_000);
    }
    const [grace, alan, edsger] = guests as [BookingBody, BookingBody, BookingBody];
    const me = await call('GET', '/me');
    const feedUrl = me.json<{ holder: { calendarFeedUrl: string } }>().holder.calendarFeedUrl;
    const feed = await fetched(feedUrl);
    const occurrence = (start: string) => `${workshop.id}.${Date.parse(start)}@slotwise`;
    expect(feed).toEqual([
      {
        uid: occurrence(MONDAY_10),
        status: 'CONFIRMED',
        summary: 'Workshop: 3 guests',
        sequence: 0,
        attendees: ['mailto:grace@example.com', 'mailto:alan@example.com', 'mailto:edsger@example.com'],
      },
    ]);
    const own = await fetched(alan.icsUrl!);
    expect(own.map((event) => [event.uid, event.attendees])).toEqual([
      [`${alan.id}@slotwise`, ['mailto:alan@example.com']],
    ]);
    // A seat cancelled while the occurrence takes place is no event of the holder's: the
    // occurrence's SEQUENCE rises by two with each seat that left.
    await call('POST', `/bookings/${edsger.id}/cancel`, {});
    expect((await fetched(feedUrl)).map((event) => [event.uid, event.attendees.length, event.sequence])).toEqual([
      [occurrence(MONDAY_10), 2, 2],
    ]);

    // A seat moved to another time leaves its occurrence and joins (here: makes) the one there.
    const moved = await call('POST', `/bookings/${alan.id}/reschedule`, { start: MONDAY_11 });
    expect(moved.statusCode, moved.body).toBe(201);
    expect((await fetched(feedUrl)).map((event) => [event.uid, event.status, event.attendees, event.sequence])).toEqual(
      [
        [occurrence(MONDAY_10), 'CONFIRMED', ['mailto:grace@example.com'], 4],
        [occurrence(MONDAY_11), 'CONFIRMED', ['mailto:alan@example.com'], 0],
      ],
    );
    // Once its last seat is cancelled, the occurrence is cancelled, one SEQUENCE below what it
    // would be with a seat again.
    await call('POST', `/bookings/${grace.id}/cancel`, {});
    expect((await fetched(feedUrl)).map((event) => [event.uid, event.status, event.sequence])).toEqual([
      [occurrence(MONDAY_10), 'CANCELLED', 5],
      [occurrence(MONDAY_11), 'CONFIRMED', 0],
    ]);
    expect((await fetched(alan.icsUrl!)).map((event) => [event.uid, event.status, event.sequence])).toEqual([
      [`${alan.id}@slotwise`, 'CONFIRMED', 1],
    ]);
  });
});

describe('seats of team event types', () => {
  let account: string;
  let hosts: string[];

  beforeEach(async () => {
    account = (await createApiKey(h.context, { accountName: 'acme', holderName: null, scopes: ['*'], expiresAt: null }))
      .token;
    hosts = [];
    for (const name of ['bob', 'cy']) {
      const made = await createApiKey(h.context, {
        accountName: 'acme',
        holderName: name,
        scopes: ['*'],
        expiresAt: null,
      });
      hosts.push(made.key.holderId!);
    }
  });

  it('when a round-robin type is given seats, or a seated type becomes round robin, then it is a 400 on seats', async () => {
    const body = { title: 'Demo', durationMinutes: 30, hosts: hosts.map((holderId) => ({ holderId })) };
    expectInvalid(await call('POST', '/event-types', { ...body, assignment: 'round-robin', seats: 5 }, account), [
      'seats',
    ]);
    const made = await call('POST', '/event-types', { ...body, assignment: 'collective', seats: 5 }, account);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json<{ seats: number }>().seats).toBe(5);
    const id = made.json<{ id: string }>().id;
    expectInvalid(await call('PATCH', `/event-types/${id}`, { assignment: 'round-robin' }, account), ['seats']);
  });

  it('when a collective type has seats, then its guests share one occurrence of every host, and a host’s own booking cannot take that time', async () => {
    const made = await call(
      'POST',
      '/event-types',
      {
        title: 'Panel',
        durationMinutes: 30,
        assignment: 'collective',
        seats: 2,
        hosts: hosts.map((holderId) => ({ holderId })),
      },
      account,
    );
    const panel = made.json<{ id: string }>().id;
    const book = (guest: string) =>
      call(
        'POST',
        '/bookings',
        bookingInput(panel, MONDAY_10, { guestName: guest, guestEmail: `${guest}@example.com` }),
        account,
      );
    const first = await book('grace');
    expect(first.statusCode, first.body).toBe(201);
    expect((await seatsAt(panel, account)).get(MONDAY_10)).toBe(1);
    expect((await book('alan')).statusCode).toBe(201);
    expectProblem(await book('edsger'), 409, 'slot-unavailable');
    expect((await seatsAt(panel, account)).has(MONDAY_10)).toBe(false);
    const occupancies = await h.database.rows('occupancies');
    expect(occupancies).toHaveLength(4);
  });
});
