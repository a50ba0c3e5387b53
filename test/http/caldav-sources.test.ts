// A CalDAV calendar as a source, end to end, on both stores: a real Radicale on 127.0.0.1 (the
// Debian package; skipped with a message when it is missing, a failure with
// SLOTWISE_REQUIRE_RADICALE=1), events written to it over CalDAV, the sync worker reading them as
// busy time, and the slots and bookings that follow. Without Radicale: see test/support/radicale.ts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';
import { Radicale, radicaleGate } from '../support/radicale.js';
import { BEFORE_MONDAY, bookingInput, createEventType, expectProblem, type EventTypeBody } from './helpers.js';

function event(uid: string, lines: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Nextcloud calendar v4//EN',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:STANDARD',
    'DTSTART:19701025T030000',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:19700329T020000',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20251220T120000Z',
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

describe.skipIf(!radicaleGate('CalDAV sources against Radicale'))('a CalDAV source (Radicale)', () => {
  let radicale: Radicale;
  let h: Harness;
  let token: string;
  let et: EventTypeBody;
  let names = 0;

  beforeAll(async () => {
    radicale = await Radicale.start();
  });

  afterAll(async () => {
    await radicale?.stop();
  });

  beforeEach(async () => {
    h = await createHarness({ now: BEFORE_MONDAY });
    token = await h.key('alice');
    et = await createEventType(h, token, { durationMinutes: 60 });
  });

  afterEach(async () => {
    await h.close();
  });

  async function mondaySlots(): Promise<string[]> {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/slots?eventTypeId=${et.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
      token,
    });
    return res.json<{ data: Array<{ start: string }> }>().data.map((slot) => slot.start.slice(11, 16));
  }

  /** The sync worker's round, as `slotwise serve` runs it: lease what is due, sync it. */
  async function workerRound(): Promise<void> {
    await h.server.calendarSync.poll();
    await h.server.calendarSync.idle();
  }

  it('when events are written to the calendar, then the worker reads them as busy time; a deleted one frees its time at the next sync', async () => {
    const calendarUrl = await radicale.createCalendar(`work-${++names}`);
    // 10:00–11:00 in Berlin is 09:00–10:00 UTC; a daily 15:00 Berlin (14:00 UTC) that skips Tuesday.
    await radicale.putEvent(
      calendarUrl,
      'review',
      event('review@nextcloud', [
        'DTSTART;TZID=Europe/Berlin:20260105T100000',
        'DTEND;TZID=Europe/Berlin:20260105T110000',
      ]),
    );
    await radicale.putEvent(
      calendarUrl,
      'standup',
      event('standup@nextcloud', [
        'DTSTART;TZID=Europe/Berlin:20260105T150000',
        'DTEND;TZID=Europe/Berlin:20260105T153000',
        'RRULE:FREQ=DAILY;COUNT=5',
        'EXDATE;TZID=Europe/Berlin:20260106T150000',
      ]),
    );
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token,
      json: { type: 'caldav', url: calendarUrl, username: radicale.user, password: radicale.password, name: 'Work' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const source = created.json<{ id: string }>();

    await workerRound();
    const synced = await h.request({ method: 'GET', url: `/api/v1/calendar-sources/${source.id}`, token });
    expect(synced.json()).toMatchObject({ status: 'ok', lastError: null, url: calendarUrl });
    const busy = await h.request({
      method: 'GET',
      url: '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-10T00:00:00Z',
      token,
    });
    expect(busy.json<{ data: Array<{ start: string; end: string }> }>().data.map((b) => `${b.start}/${b.end}`)).toEqual(
      [
        '2026-01-05T09:00:00.000Z/2026-01-05T10:00:00.000Z',
        '2026-01-05T14:00:00.000Z/2026-01-05T14:30:00.000Z',
        '2026-01-07T14:00:00.000Z/2026-01-07T14:30:00.000Z',
        '2026-01-08T14:00:00.000Z/2026-01-08T14:30:00.000Z',
        '2026-01-09T14:00:00.000Z/2026-01-09T14:30:00.000Z',
      ],
    );
    // Hourly slots from 09:00 UTC (availability in UTC): 09:00 and 14:00 meet busy time.
    expect(await mondaySlots()).toEqual(['10:00', '11:00', '12:00', '13:00', '15:00', '16:00']);
    expectProblem(
      await h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token,
        json: bookingInput(et.id, '2026-01-05T14:00:00Z'),
      }),
      409,
      'slot-unavailable',
    );

    // Not due again until the interval has passed: a round reads nothing.
    await radicale.deleteEvent(calendarUrl, 'review');
    await workerRound();
    expect(await mondaySlots()).not.toContain('09:00');
    h.clock.current += 5 * 60_000;
    await workerRound();
    expect(await mondaySlots()).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '15:00', '16:00']);
  });

  it('when the password is wrong, then the source shows error with a message that holds no secret', async () => {
    const calendarUrl = await radicale.createCalendar(`private-${++names}`);
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token,
      json: { type: 'caldav', url: calendarUrl, username: radicale.user, password: 'not-the-password-42' },
    });
    const source = created.json<{ id: string }>();
    const synced = await h.request({ method: 'POST', url: `/api/v1/calendar-sources/${source.id}/sync`, token });
    expect(synced.json()).toMatchObject({
      status: 'error',
      lastError: 'the CalDAV server refused the user name or password',
    });
    expect(synced.body).not.toContain('not-the-password-42');
  });
});
