// Contract §16, the host's own calendar, end to end on both stores against a real Radicale: a
// booking of a holder whose CalDAV source has `writeBookings` is written there (read back with
// PROPFIND and GET, parsed with ical.js), moved on reschedule under the same UID with a higher SEQUENCE,
// removed on cancellation; the written event is not busy time against its own appointment; a
// refusing server ends the write `failed` with `lastWriteError`.
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { CalendarServer } from '../support/calendar-server.js';
import { createHarness, type Harness } from '../support/harness.js';
import { Radicale, radicaleGate } from '../support/radicale.js';
import { BEFORE_MONDAY, bookingInput, createEventType, type EventTypeBody } from './helpers.js';

interface NotificationBody {
  channel: string;
  kind: string;
  recipient: string;
  status: string;
  lastError: string | null;
}

describe.skipIf(!radicaleGate('write-back against Radicale'))('write-back to a CalDAV source (Radicale)', () => {
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
    h = await createHarness({ now: BEFORE_MONDAY, retryScheduleMs: [60_000] });
    token = await h.key('alice');
    et = await createEventType(h, token, { durationMinutes: 60 });
  });

  afterEach(async () => {
    await h.close();
  });

  async function writtenSource(password = radicale.password): Promise<{ id: string; calendarUrl: string }> {
    const calendarUrl = await radicale.createCalendar(`written-${++names}`);
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token,
      json: { type: 'caldav', url: calendarUrl, username: radicale.user, password, writeBookings: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json<{ id: string }>().id, calendarUrl };
  }

  /** The calendar's events, as a calendar app reads them: its objects listed (PROPFIND), each fetched. */
  async function events(calendarUrl: string) {
    const authorization = `Basic ${Buffer.from(`${radicale.user}:${radicale.password}`).toString('base64')}`;
    const listing = await fetch(calendarUrl, { method: 'PROPFIND', headers: { authorization, depth: '1' } });
    expect(listing.status).toBe(207);
    const hrefs = [...(await listing.text()).matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map(
      (m) => m[1]!,
    );
    const objects = await Promise.all(
      hrefs.map(async (href) => (await fetch(new URL(href, calendarUrl), { headers: { authorization } })).text()),
    );
    return objects.map((data) => {
      const vevents = new ICAL.Component(ICAL.parse(data)).getAllSubcomponents('vevent');
      expect(vevents).toHaveLength(1);
      const event = new ICAL.Event(vevents[0]!);
      return {
        uid: event.uid,
        sequence: event.sequence,
        start: event.startDate.toJSDate().toISOString(),
        summary: event.summary,
      };
    });
  }

  /** The booking's `calendar` notifications once none is pending (the writer runs in the background). */
  async function settledWrites(bookingId: string): Promise<NotificationBody[]> {
    for (let i = 0; i < 200; i++) {
      const res = await h.request({ method: 'GET', url: `/api/v1/bookings/${bookingId}/notifications`, token });
      const rows = res.json<{ data: NotificationBody[] }>().data.filter((row) => row.channel === 'calendar');
      if (rows.length > 0 && rows.every((row) => row.status !== 'pending')) return rows;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`the calendar writes of ${bookingId} did not settle`);
  }

  it('when a booking is made, moved and cancelled, then its one event is written, moved under the same UID with a higher SEQUENCE, and removed', async () => {
    h.server.calendarWriter.start();
    const { id: sourceId, calendarUrl } = await writtenSource();
    const made = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T10:00:00Z'),
    });
    expect(made.statusCode, made.body).toBe(201);
    const booking = made.json<{ id: string }>();
    expect(await settledWrites(booking.id)).toEqual([
      expect.objectContaining({ kind: 'created', recipient: sourceId, status: 'sent', lastError: null }),
    ]);
    const [first, ...others] = await events(calendarUrl);
    expect(others).toEqual([]);
    expect(first).toMatchObject({ start: '2026-01-05T10:00:00.000Z', sequence: 0 });
    expect(first!.summary).toContain('Ada Lovelace');

    // Synced back, the event is not busy time against its own appointment's slots.
    const synced = await h.request({ method: 'POST', url: `/api/v1/calendar-sources/${sourceId}/sync`, token });
    expect(synced.json()).toMatchObject({ status: 'ok', lastError: null });
    const busy = await h.request({
      method: 'GET',
      url: '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
      token,
    });
    expect(busy.json<{ data: unknown[] }>().data).toEqual([]);

    h.clock.current += 60_000;
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${booking.id}/reschedule`,
      token,
      json: { start: '2026-01-05T13:00:00Z' },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    const newBooking = moved.json<{ id: string }>();
    expect((await settledWrites(newBooking.id)).map((row) => [row.kind, row.status])).toEqual([
      ['rescheduled', 'sent'],
    ]);
    const afterMove = await events(calendarUrl);
    expect(afterMove).toEqual([expect.objectContaining({ uid: first!.uid, start: '2026-01-05T13:00:00.000Z' })]);
    expect(afterMove[0]!.sequence).toBeGreaterThan(first!.sequence);

    h.clock.current += 60_000;
    const cancelled = await h.request({ method: 'POST', url: `/api/v1/bookings/${newBooking.id}/cancel`, token });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await settledWrites(newBooking.id)).map((row) => [row.kind, row.status])).toEqual([
      ['rescheduled', 'sent'],
      ['cancelled', 'sent'],
    ]);
    expect(await events(calendarUrl)).toEqual([]);
    const source = await h.request({ method: 'GET', url: `/api/v1/calendar-sources/${sourceId}`, token });
    expect(source.json()).toMatchObject({ writeBookings: true, lastWriteError: null });
  });

  it('when a booking is made, moved and cancelled before the writer runs, then its writes land in order and the calendar ends empty', async () => {
    const { calendarUrl } = await writtenSource();
    const made = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T10:00:00Z'),
    });
    h.clock.current += 1;
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${made.json<{ id: string }>().id}/reschedule`,
      token,
      json: { start: '2026-01-05T13:00:00Z' },
    });
    const newBooking = moved.json<{ id: string }>();
    h.clock.current += 1;
    await h.request({ method: 'POST', url: `/api/v1/bookings/${newBooking.id}/cancel`, token });
    h.server.calendarWriter.start();
    expect((await settledWrites(newBooking.id)).map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(await events(calendarUrl)).toEqual([]);
  });

  it('when a round-robin reschedule changes the host, then the event leaves the old host calendar and is written to the new one', async () => {
    const account = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['*'],
      expiresAt: null,
    });
    const hosts: Record<string, { id: string; token: string; calendarUrl: string }> = {};
    for (const name of ['ann', 'ben']) {
      const made = await createApiKey(h.context, {
        accountName: 'acme',
        holderName: name,
        scopes: ['*'],
        expiresAt: null,
      });
      const calendarUrl = await radicale.createCalendar(`${name}-${++names}`);
      const source = await h.request({
        method: 'POST',
        url: '/api/v1/calendar-sources',
        token: made.token,
        json: {
          type: 'caldav',
          url: calendarUrl,
          username: radicale.user,
          password: radicale.password,
          writeBookings: true,
        },
      });
      expect(source.statusCode, source.body).toBe(201);
      hosts[name] = { id: made.key.holderId!, token: made.token, calendarUrl };
    }
    const type = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token: account.token,
      json: {
        title: 'Team call',
        durationMinutes: 30,
        assignment: 'round-robin',
        hosts: [{ holderId: hosts.ann!.id }, { holderId: hosts.ben!.id }],
      },
    });
    expect(type.statusCode, type.body).toBe(201);
    h.server.calendarWriter.start();
    const made = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token: account.token,
      json: { ...bookingInput(type.json<{ id: string }>().id, '2026-01-05T10:00:00Z'), hostId: hosts.ann!.id },
    });
    expect(made.statusCode, made.body).toBe(201);
    token = account.token;
    await settledWrites(made.json<{ id: string }>().id);
    const [annsEvent] = await events(hosts.ann!.calendarUrl);
    expect(annsEvent).toMatchObject({ start: '2026-01-05T10:00:00.000Z' });
    h.clock.current += 60_000;
    const moved = await h.request({
      method: 'POST',
      url: `/api/v1/bookings/${made.json<{ id: string }>().id}/reschedule`,
      token: account.token,
      json: { start: '2026-01-05T14:00:00Z', hostId: hosts.ben!.id },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    const writes = await settledWrites(moved.json<{ id: string }>().id);
    expect(writes.map((row) => [row.kind, row.status]).sort()).toEqual([
      ['cancelled', 'sent'],
      ['created', 'sent'],
    ]);
    expect(await events(hosts.ann!.calendarUrl)).toEqual([]);
    const bensEvents = await events(hosts.ben!.calendarUrl);
    expect(bensEvents).toEqual([expect.objectContaining({ uid: annsEvent!.uid, start: '2026-01-05T14:00:00.000Z' })]);
  });

  it('when the calendar server refuses the write (a 4xx), then it ends failed and the source shows lastWriteError', async () => {
    h.server.calendarWriter.start();
    const { id: sourceId } = await writtenSource('not-the-password');
    const made = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T10:00:00Z'),
    });
    const [write] = await settledWrites(made.json<{ id: string }>().id);
    expect(write).toMatchObject({
      kind: 'created',
      status: 'failed',
      lastError: 'the calendar server answered 401 Unauthorized',
    });
    const source = await h.request({ method: 'GET', url: `/api/v1/calendar-sources/${sourceId}`, token });
    expect(source.json()).toMatchObject({ lastWriteError: 'the calendar server answered 401 Unauthorized' });
    expect(source.body).not.toContain('not-the-password');
  });

  it('when writeBookings is switched on, then the future confirmed bookings of the holder are written, and neither past nor cancelled ones', async () => {
    const book = async (start: string) => {
      const res = await h.request({ method: 'POST', url: '/api/v1/bookings', token, json: bookingInput(et.id, start) });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const past = await book('2026-01-05T09:00:00Z');
    const kept = await book('2026-01-05T11:00:00Z');
    const dropped = await book('2026-01-05T12:00:00Z');
    await h.request({ method: 'POST', url: `/api/v1/bookings/${dropped}/cancel`, token });
    h.clock.current = Date.parse('2026-01-05T10:00:00Z');
    const calendarUrl = await radicale.createCalendar(`later-${++names}`);
    const created = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token,
      json: { type: 'caldav', url: calendarUrl, username: radicale.user, password: radicale.password },
    });
    const sourceId = created.json<{ id: string }>().id;
    const on = await h.request({
      method: 'PATCH',
      url: `/api/v1/calendar-sources/${sourceId}`,
      token,
      json: { writeBookings: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    h.server.calendarWriter.start();
    expect(await settledWrites(kept)).toEqual([
      expect.objectContaining({ kind: 'created', recipient: sourceId, status: 'sent' }),
    ]);
    const written = await events(calendarUrl);
    expect(written.map((event) => event.start)).toEqual(['2026-01-05T11:00:00.000Z']);
    for (const id of [past, dropped]) {
      const log = await h.request({ method: 'GET', url: `/api/v1/bookings/${id}/notifications`, token });
      expect(log.json<{ data: NotificationBody[] }>().data.filter((row) => row.channel === 'calendar')).toEqual([]);
    }

    // Switched off, what was written stays.
    await h.request({
      method: 'PATCH',
      url: `/api/v1/calendar-sources/${sourceId}`,
      token,
      json: { writeBookings: false },
    });
    expect(await events(calendarUrl)).toHaveLength(1);
  });

  it('when the calendar server answers 503, then the write is retried on the schedule and lands on a 201', async () => {
    const server = await CalendarServer.start();
    try {
      const res = await h.request({
        method: 'POST',
        url: '/api/v1/calendar-sources',
        token,
        json: {
          type: 'caldav',
          url: server.url('/dav/alice/work/'),
          username: 'alice',
          password: 'secret',
          writeBookings: true,
        },
      });
      const sourceId = res.json<{ id: string }>().id;
      const made = await h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token,
        json: bookingInput(et.id, '2026-01-05T10:00:00Z'),
      });
      const bookingId = made.json<{ id: string }>().id;
      const resource = `/dav/alice/work/${encodeURIComponent(`${bookingId}@slotwise`)}.ics`;
      server.serve(resource, { kind: 'status', status: 503 });
      h.server.calendarWriter.start();
      const log = async () =>
        (await h.request({ method: 'GET', url: `/api/v1/bookings/${bookingId}/notifications`, token }))
          .json<{ data: Array<NotificationBody & { attempts: number }> }>()
          .data.filter((row) => row.channel === 'calendar');
      for (let i = 0; i < 200 && (await log())[0]?.attempts !== 1; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await log()).toEqual([
        expect.objectContaining({
          status: 'pending',
          attempts: 1,
          lastError: 'the calendar server answered 503 Service Unavailable',
        }),
      ]);
      const failing = await h.request({ method: 'GET', url: `/api/v1/calendar-sources/${sourceId}`, token });
      expect(failing.json()).toMatchObject({ lastWriteError: 'the calendar server answered 503 Service Unavailable' });

      server.serve(resource, { kind: 'status', status: 201 });
      h.clock.current += 2 * 60_000;
      h.server.calendarWriter.wake();
      expect(await settledWrites(bookingId)).toEqual([expect.objectContaining({ status: 'sent', lastError: null })]);
      expect(server.requestsTo(resource).map((request) => request.method)).toEqual(['PUT', 'PUT']);
      const recovered = await h.request({ method: 'GET', url: `/api/v1/calendar-sources/${sourceId}`, token });
      expect(recovered.json()).toMatchObject({ lastWriteError: null });
    } finally {
      await server.close();
    }
  });

  it('when the holder has no source with writeBookings, then a booking writes no calendar notification', async () => {
    const made = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T10:00:00Z'),
    });
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/bookings/${made.json<{ id: string }>().id}/notifications`,
      token,
    });
    expect(res.json<{ data: NotificationBody[] }>().data.filter((row) => row.channel === 'calendar')).toEqual([]);
  });
});
