// Migration 0022 (contract §16, one appointment, one UID) over databases earlier builds wrote
// (test/fixtures/before-*): every booking stored before the rule keeps the UID and SEQUENCE its
// calendar files gave it (`<id>@slotwise`; 0 while confirmed, else 1), in the guest's `.ics` and
// in its holder's feed, read back with ical.js; a chain rescheduled before the rule stays as
// calendars learnt it, and moving its confirmed booking again continues that booking's UID.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/domain/instant.js';
import type { Server } from '../../src/server.js';
import { testStoreKind } from '../support/databases.js';
import { restoreFixture, serveFixture, type RestoredFixture } from '../support/fixture-databases.js';
import { TestClock } from '../support/harness.js';

interface StoredBooking {
  id: string;
  holderId: string;
  status: string;
  start: number;
  rescheduledFromId: string | null;
}

interface ShownEvent {
  uid: string;
  start: number;
  status: string;
  sequence: number;
}

/** The events of a calendar file as ical.js reads them (it throws on what is not iCalendar). */
function eventsOf(text: string): ShownEvent[] {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().getTime(),
      status: String(vevent.getFirstPropertyValue('status')),
      sequence: event.sequence,
    };
  });
}

/** What the build before this rule showed of a booking: its own UID, SEQUENCE 0 while confirmed, else 1 and cancelled. */
function asBefore(booking: StoredBooking): ShownEvent {
  const confirmed = booking.status === 'confirmed';
  return {
    uid: `${booking.id}@slotwise`,
    start: booking.start,
    status: confirmed ? 'CONFIRMED' : 'CANCELLED',
    sequence: confirmed ? 0 : 1,
  };
}

/** Each fixture, with the label of a key that may write for a holder with a chain rescheduled before the rule. */
const FIXTURES = [
  { name: 'before-accounts', writer: 'ada' },
  { name: 'before-teams', writer: 'ben' },
];

for (const { name, writer } of FIXTURES) {
  const dir = join(import.meta.dirname, '../fixtures', name);
  const fixture = JSON.parse(readFileSync(join(dir, `answers.${testStoreKind()}.json`), 'utf8')) as {
    recordedAt: string;
    publicBaseUrl: string;
    secret?: string;
    keys: Array<{ label: string; token: string }>;
  };

  describe(`migration 0022 over a database written ${name.replace('-', ' ')} (${testStoreKind()})`, () => {
    let restored: RestoredFixture;
    let server: Server;
    let clock: TestClock;
    let bookings: StoredBooking[];

    beforeAll(async () => {
      restored = await restoreFixture(dir, fixture.secret);
      clock = new TestClock(Date.parse(fixture.recordedAt));
      server = await serveFixture(restored, clock, fixture.publicBaseUrl);
      const rows = await restored.query(
        `select id, holder_id, status, start_at, rescheduled_from_id from bookings where status <> 'held' order by start_at, id`,
      );
      bookings = rows.map((row) => ({
        id: String(row.id),
        holderId: String(row.holder_id),
        status: String(row.status),
        start: Number(row.start_at),
        rescheduledFromId: row.rescheduled_from_id === null ? null : String(row.rescheduled_from_id),
      }));
    });

    afterAll(async () => {
      await server?.close();
      await restored?.storage.close();
      restored?.remove();
    });

    const fetched = async (url: string) => {
      const res = await server.app.inject({ method: 'GET', url: new URL(url).pathname });
      expect(res.statusCode, res.body).toBe(200);
      return eventsOf(res.body);
    };

    it('when it has run, then every stored booking and hold is an appointment of its own, moved no times', async () => {
      const rows = await restored.query('select id, appointment_id, appointment_moves from bookings');
      expect(rows.length).toBeGreaterThan(5);
      for (const row of rows)
        expect({ appointment: row.appointment_id, moves: Number(row.appointment_moves) }, String(row.id)).toEqual({
          appointment: row.id,
          moves: 0,
        });
      const statuses = new Set(bookings.map((booking) => booking.status));
      expect([...statuses].sort()).toEqual(['cancelled', 'confirmed', 'rescheduled']);
    });

    it('when each booking’s .ics is fetched, then it shows the UID and SEQUENCE it had: its id, 0 while confirmed, else 1 and cancelled', async () => {
      for (const booking of bookings)
        expect(await fetched(server.context.links.ics(booking.id)), booking.id).toEqual([asBefore(booking)]);
    });

    it('when each holder’s feed is fetched over every stretch of its bookings, then it shows each booking as before: a moved one cancelled beside the one it moved to', async () => {
      const holders = await restored.query('select id, feed_generation from holders');
      let shown = 0;
      for (const holder of holders) {
        const feed = server.context.links.feed(String(holder.id), Number(holder.feed_generation));
        const own = bookings.filter((booking) => booking.holderId === holder.id);
        let covered = -Infinity;
        for (const first of own) {
          if (first.start < covered) continue;
          // The feed shows a month before its day to a year after it (app/calendar-files.ts).
          clock.set(first.start - DAY_MS);
          const day = Math.floor(clock.now() / DAY_MS) * DAY_MS;
          covered = day + 367 * DAY_MS;
          const inWindow = own.filter((booking) => booking.start >= day - 31 * DAY_MS && booking.start < covered);
          expect(await fetched(feed), `${String(holder.id)} from ${new Date(day).toISOString()}`).toEqual(
            inWindow.map(asBefore),
          );
          shown += inWindow.length;
        }
      }
      expect(shown).toBeGreaterThanOrEqual(bookings.length);
    });

    it('when a booking that a reschedule made before the rule is moved again, then the new booking is its appointment: its UID, SEQUENCE 1, and the bookings moved before keep theirs', async () => {
      clock.set(Date.parse(fixture.recordedAt));
      const token = fixture.keys.find((key) => key.label === writer)!.token;
      const request = (method: 'GET' | 'POST', url: string, json?: unknown) =>
        server.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${token}` },
          ...(json === undefined ? {} : { payload: json as object }),
        });
      const holderId = (await request('GET', '/api/v1/me')).json<{ holder: { id: string } }>().holder.id;
      const latest = bookings.find(
        (booking) => booking.holderId === holderId && booking.status === 'confirmed' && booking.rescheduledFromId,
      )!;
      expect(latest, 'a chain rescheduled before the rule').toBeDefined();
      const { eventTypeId } = (await request('GET', `/api/v1/bookings/${latest.id}`)).json<{ eventTypeId: string }>();
      const from = new Date(latest.start + DAY_MS).toISOString();
      const to = new Date(latest.start + 15 * DAY_MS).toISOString();
      const slots = await request('GET', `/api/v1/slots?eventTypeId=${eventTypeId}&from=${from}&to=${to}`);
      const start = slots.json<{ data: Array<{ start: string }> }>().data[0]!.start;
      const moved = await request('POST', `/api/v1/bookings/${latest.id}/reschedule`, { start });
      expect(moved.statusCode, moved.body).toBe(201);
      const next = moved.json<{ id: string; icsUrl: string }>();

      const continued = { uid: `${latest.id}@slotwise`, start: Date.parse(start), status: 'CONFIRMED', sequence: 1 };
      expect(await fetched(next.icsUrl)).toEqual([continued]);
      expect(await fetched(server.context.links.ics(latest.id))).toEqual([continued]);
      const earlier = bookings.find((booking) => booking.id === latest.rescheduledFromId)!;
      expect(await fetched(server.context.links.ics(earlier.id))).toEqual([asBefore(earlier)]);
      const rows = await restored.query(
        `select appointment_id, appointment_moves, rescheduled_from_id from bookings where id = '${next.id}'`,
      );
      expect(rows.map((row) => [row.appointment_id, Number(row.appointment_moves), row.rescheduled_from_id])).toEqual([
        [latest.id, 1, latest.id],
      ]);
    });
  });
}
