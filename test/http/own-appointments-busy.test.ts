// Contract §16, own events are not busy, end to end on both stores: a booking that comes back
// through its holder's own calendar (its `.ics` served by an ICS source, or put into a real
// Radicale read over CalDAV) is no busy time against itself or its moves, and is not listed by
// `/busy`; an event with the UID of another holder's appointment (the holder is its guest) still
// blocks, as does any other event.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { MANUAL_SYNC_INTERVAL_MS } from '../../src/app/sync-limits.js';
import { CalendarServer } from '../support/calendar-server.js';
import { createHarness, type Harness } from '../support/harness.js';
import { Radicale, radicaleGate } from '../support/radicale.js';
import {
  BEFORE_MONDAY,
  book,
  bookingInput,
  createEventType,
  expectProblem,
  type BookingBody,
  type EventTypeBody,
} from './helpers.js';

let h: Harness;
let alice: string;
let bob: string;
let et: EventTypeBody;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  alice = await h.key('alice');
  bob = await h.key('bob');
  // 30 minutes every 15, so a booking can move into its own time.
  et = await createEventType(h, alice, { durationMinutes: 30, slotIntervalMinutes: 15 });
});

afterEach(async () => {
  await h.close();
});

/** The text of a booking's `.ics`, as a calendar app that imported it or accepted its invitation has the event. */
async function icsOf(booking: BookingBody): Promise<string> {
  const res = await h.request({ method: 'GET', url: new URL(booking.icsUrl!).pathname });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

/** The VEVENT blocks of calendar texts, in one calendar (as a holder's calendar app publishes them). */
function calendarOf(...texts: string[]): string {
  const events = texts.flatMap((text) => text.match(/BEGIN:VEVENT\r\n[\s\S]*?END:VEVENT\r\n/g) ?? []);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example//Calendar//EN',
    ...events.map((e) => e.trimEnd()),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

const OTHER_EVENT = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Example//Calendar//EN',
  'BEGIN:VEVENT',
  'UID:dentist@example.com',
  'DTSTAMP:20251220T120000Z',
  'DTSTART:20260105T150000Z',
  'DTEND:20260105T160000Z',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

async function busyTimes(): Promise<string[]> {
  const res = await h.request({
    method: 'GET',
    url: '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
    token: alice,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json<{ data: Array<{ start: string; end: string }> }>()
    .data.map((b) => `${b.start.slice(11, 16)}–${b.end.slice(11, 16)}`);
}

async function slotsBetween(from: string, to: string): Promise<string[]> {
  const res = await h.request({
    method: 'GET',
    url: `/api/v1/slots?eventTypeId=${et.id}&from=2026-01-05T${from}:00Z&to=2026-01-05T${to}:00Z`,
    token: alice,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Array<{ start: string }> }>().data.map((slot) => slot.start.slice(11, 16));
}

async function reschedule(booking: BookingBody, start: string) {
  return h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/reschedule`, token: alice, json: { start } });
}

/**
 * Alice's own booking at 10:00 and bob's at 13:00 whose guest is alice: both come back through
 * alice's calendar, with an event of her own at 15:00.
 */
async function bookBoth(): Promise<{ own: BookingBody; othersAppointment: BookingBody }> {
  const own = await book(h, alice, et.id, '2026-01-05T10:00:00Z');
  const bobs = await createEventType(h, bob, { durationMinutes: 30 });
  const othersAppointment = await book(h, bob, bobs.id, '2026-01-05T13:00:00Z', {
    guestName: 'Alice',
    guestEmail: 'alice@example.com',
  });
  return { own, othersAppointment };
}

/** After a sync of alice's calendar holding `own` at 10:00, bob's appointment at 13:00 and her 15:00. */
async function expectOwnFreeOthersBusy(own: BookingBody): Promise<BookingBody> {
  expect(await busyTimes()).toEqual(['13:00–13:30', '15:00–16:00']);
  // Bob's appointment blocks alice as any event does.
  expect(await slotsBetween('12:00', '16:00')).toEqual([
    '12:00',
    '12:15',
    '12:30',
    '13:30',
    '13:45',
    '14:00',
    '14:15',
    '14:30',
  ]);
  expectProblem(
    await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: alice,
      json: bookingInput(et.id, '2026-01-05T13:00:00Z'),
    }),
    409,
    'slot-unavailable',
  );
  // Her own does not block its move into its own time.
  const moved = await reschedule(own, '2026-01-05T10:15:00Z');
  expect(moved.statusCode, moved.body).toBe(201);
  const next = moved.json<BookingBody>();
  // Nor, cancelled, its own time: nothing there is busy.
  expect(
    (await h.request({ method: 'POST', url: `/api/v1/bookings/${next.id}/cancel`, token: alice })).statusCode,
  ).toBe(200);
  expect(await slotsBetween('09:30', '11:00')).toEqual(['09:30', '09:45', '10:00', '10:15', '10:30', '10:45']);
  return next;
}

describe('an ICS source that serves the holder’s own appointments', () => {
  let calendars: CalendarServer;

  beforeEach(async () => {
    calendars = await CalendarServer.start();
  });

  afterEach(async () => {
    await calendars.close();
  });

  async function sync(id: string): Promise<void> {
    const res = await h.request({ method: 'POST', url: `/api/v1/calendar-sources/${id}/sync`, token: alice });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', lastError: null });
    h.clock.current += MANUAL_SYNC_INTERVAL_MS;
  }

  it('when a booking’s own .ics comes back through its holder’s calendar, then it blocks neither its time nor a move into it, and /busy leaves it out; another holder’s appointment and other events still block', async () => {
    const { own, othersAppointment } = await bookBoth();
    calendars.serve('/alice.ics', {
      kind: 'calendar',
      body: calendarOf(await icsOf(own), await icsOf(othersAppointment), OTHER_EVENT),
    });
    const source = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token: alice,
      json: { type: 'ics', url: calendars.url('/alice.ics') },
    });
    expect(source.statusCode, source.body).toBe(201);
    const sourceId = source.json<{ id: string }>().id;
    await sync(sourceId);
    expect(await slotsBetween('09:30', '11:00')).toEqual(['09:30', '10:30', '10:45']);

    const moved = await reschedule(own, '2026-01-05T10:15:00Z');
    expect(moved.statusCode, moved.body).toBe(201);
    // The calendar learns the move (the same UID, a higher SEQUENCE) and is read again: the
    // appointment at its new time blocks neither its next move into it.
    calendars.serve('/alice.ics', {
      kind: 'calendar',
      body: calendarOf(await icsOf(moved.json<BookingBody>()), await icsOf(othersAppointment), OTHER_EVENT),
    });
    await sync(sourceId);
    await expectOwnFreeOthersBusy(moved.json<BookingBody>());
  });

  it('when the host of that other appointment reads the same event from its own calendar, then there it is its own: no busy time, and its time is booked again once it is cancelled', async () => {
    const { othersAppointment } = await bookBoth();
    // Bob's own calendar: the same event is his appointment there, and blocks nothing of his.
    const bobsType = (await h.request({ method: 'GET', url: '/api/v1/event-types', token: bob })).json<{
      data: Array<{ id: string }>;
    }>().data[0]!;
    calendars.serve('/bob.ics', { kind: 'calendar', body: await icsOf(othersAppointment) });
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token: bob,
      json: { type: 'ics', url: calendars.url('/bob.ics') },
    });
    const synced = await h.request({
      method: 'POST',
      url: `/api/v1/calendar-sources/${created.json<{ id: string }>().id}/sync`,
      token: bob,
    });
    expect(synced.json()).toMatchObject({ status: 'ok' });
    const bobsBusy = await h.request({
      method: 'GET',
      url: '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
      token: bob,
    });
    expect(bobsBusy.json<{ data: unknown[] }>().data).toEqual([]);
    const cancelled = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${othersAppointment.id}/cancel`,
      token: bob,
    });
    expect(cancelled.statusCode).toBe(200);
    const rebooked = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: bob,
      json: bookingInput(bobsType.id, '2026-01-05T13:00:00Z'),
    });
    expect(rebooked.statusCode, rebooked.body).toBe(201);
  });
});

describe('a team booking in its hosts’ calendars', () => {
  let calendars: CalendarServer;

  beforeEach(async () => {
    calendars = await CalendarServer.start();
  });

  afterEach(async () => {
    await calendars.close();
  });

  it('when a collective booking comes back through each host’s calendar, then it is no busy time of either host, and busy time of a holder of the account that does not host it', async () => {
    const holderIn = async (name: string) => {
      const { key, token } = await createApiKey(h.context, {
        accountName: 'acme',
        holderName: name,
        scopes: ['*'],
        expiresAt: null,
      });
      return { id: key.holderId!, token };
    };
    const ada = await holderIn('ada');
    const grace = await holderIn('grace');
    const cy = await holderIn('cy');
    const { token: acme } = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['*'],
      expiresAt: null,
    });
    const type = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token: acme,
      json: {
        title: 'Panel',
        durationMinutes: 30,
        assignment: 'collective',
        hosts: [{ holderId: ada.id }, { holderId: grace.id }],
      },
    });
    expect(type.statusCode, type.body).toBe(201);
    const booked = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: acme,
      json: bookingInput(type.json<{ id: string }>().id, '2026-01-05T10:00:00Z'),
    });
    expect(booked.statusCode, booked.body).toBe(201);
    calendars.serve('/team.ics', { kind: 'calendar', body: await icsOf(booked.json<BookingBody>()) });
    const busyOf = async (token: string) => {
      const source = await h.request({
        method: 'POST',
        url: '/api/v1/calendar-sources',
        token,
        json: { type: 'ics', url: calendars.url('/team.ics') },
      });
      expect(source.statusCode, source.body).toBe(201);
      const synced = await h.request({
        method: 'POST',
        url: `/api/v1/calendar-sources/${source.json<{ id: string }>().id}/sync`,
        token,
      });
      expect(synced.json()).toMatchObject({ status: 'ok' });
      const busy = await h.request({
        method: 'GET',
        url: '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
        token,
      });
      return busy.json<{ data: Array<{ start: string }> }>().data.map((b) => b.start);
    };
    expect(await busyOf(ada.token)).toEqual([]);
    expect(await busyOf(grace.token)).toEqual([]);
    expect(await busyOf(cy.token)).toEqual(['2026-01-05T10:00:00.000Z']);
  });
});

describe.skipIf(!radicaleGate('own appointments in a CalDAV calendar'))(
  'a CalDAV calendar (Radicale) that holds the holder’s own appointments',
  () => {
    let radicale: Radicale;
    let names = 0;

    beforeAll(async () => {
      radicale = await Radicale.start();
    });

    afterAll(async () => {
      await radicale?.stop();
    });

    /** An event as a calendar app stores it: the `.ics`'s VEVENT in a calendar object of its own (no METHOD). */
    const objectOf = (text: string) => text.replace(/^METHOD:.*\r\n/m, '');

    /** The sync worker's round, as `slotwise serve` runs it: lease what is due, sync it. */
    async function workerRound(): Promise<void> {
      await h.server.calendarSync.poll();
      await h.server.calendarSync.idle();
    }

    it('when the holder’s calendar app has accepted its own booking and is read over CalDAV, then the booking blocks neither its time nor a move into it; another holder’s appointment and other events still block', async () => {
      const { own, othersAppointment } = await bookBoth();
      const calendarUrl = await radicale.createCalendar(`own-${++names}`);
      await radicale.putEvent(calendarUrl, own.id, objectOf(await icsOf(own)));
      await radicale.putEvent(calendarUrl, othersAppointment.id, objectOf(await icsOf(othersAppointment)));
      await radicale.putEvent(calendarUrl, 'dentist', OTHER_EVENT);
      const created = await h.request({
        method: 'POST',
        url: '/api/v1/calendar-sources',
        token: alice,
        json: { type: 'caldav', url: calendarUrl, username: radicale.user, password: radicale.password },
      });
      expect(created.statusCode, created.body).toBe(201);
      await workerRound();
      const source = await h.request({
        method: 'GET',
        url: `/api/v1/calendar-sources/${created.json<{ id: string }>().id}`,
        token: alice,
      });
      expect(source.json()).toMatchObject({ status: 'ok', lastError: null });
      await expectOwnFreeOthersBusy(own);
    });
  },
);
