// Contract §16, host-side items of a seated occurrence, end to end on both stores against a real
// SMTP server (support/smtp-sink.ts) and a real Radicale: the host is told of the occurrence once,
// under the occurrence's UID (one REQUEST when it comes into being, one CANCEL when its last seat
// leaves; nothing as guests come and go meanwhile), its calendar holds the occurrence once with
// every seat's guest, and the written event, synced back, does not block the seats still free.
// Each guest still gets their own invitation under their own appointment's UID.
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { Radicale, radicaleGate } from '../support/radicale.js';
import { SmtpSink, type Received } from '../support/smtp-sink.js';
import { BEFORE_MONDAY, bookingInput, createEventType, type BookingBody, type EventTypeBody } from './helpers.js';

const MONDAY_10 = '2026-01-05T10:00:00.000Z';
const HOST = 'ada@acme.example';

describe.skipIf(!radicaleGate('seated occurrences against Radicale'))('a seated occurrence on its host’s side', () => {
  let radicale: Radicale;
  let sink: SmtpSink;
  let h: Harness;
  let token: string;
  let workshop: EventTypeBody;
  let names = 0;

  beforeAll(async () => {
    radicale = await Radicale.start();
  });

  afterAll(async () => {
    await radicale?.stop();
  });

  beforeEach(async () => {
    sink = new SmtpSink();
    await sink.start();
    h = await createHarness({
      now: BEFORE_MONDAY,
      email: { smtpUrl: sink.url, from: 'Acme <book@acme.example>', perRecipientPerHour: 10, timeoutMs: 2_000 },
    });
    const made = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: 'ada',
      scopes: ['*'],
      expiresAt: null,
    });
    token = made.token;
    const account = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: null,
      scopes: ['*'],
      expiresAt: null,
    });
    const email = await h.request({
      method: 'PATCH',
      url: `/api/v1/holders/${made.key.holderId}`,
      token: account.token,
      json: { email: HOST },
    });
    expect(email.statusCode, email.body).toBe(200);
    workshop = await createEventType(h, token, { title: 'Workshop', durationMinutes: 60, seats: 3 });
  });

  afterEach(async () => {
    await h.close();
    await sink.stop();
  });

  const occurrenceUid = () => `${workshop.id}.${Date.parse(MONDAY_10)}@slotwise`;

  async function writtenSource(): Promise<{ id: string; calendarUrl: string }> {
    const calendarUrl = await radicale.createCalendar(`seated-${++names}`);
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token,
      json: {
        type: 'caldav',
        url: calendarUrl,
        username: radicale.user,
        password: radicale.password,
        writeBookings: true,
      },
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
      const event = new ICAL.Component(ICAL.parse(data)).getFirstSubcomponent('vevent')!;
      return {
        uid: String(event.getFirstPropertyValue('uid')),
        sequence: Number(event.getFirstPropertyValue('sequence')),
        summary: String(event.getFirstPropertyValue('summary')),
        attendees: event
          .getAllProperties('attendee')
          .map((attendee) => String(attendee.getFirstValue()).toLowerCase())
          .sort(),
      };
    });
  }

  /** Waits until no notification is pending (both workers run in the background). */
  async function settled(): Promise<void> {
    for (let i = 0; i < 400; i++) {
      // The changes first: those written out by then have their messages in the rows read after.
      const changes = await h.database.rows('email_changes');
      const rows = await h.database.rows('notifications');
      if (changes.length === 0 && rows.every((row) => row.status !== 'pending')) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the notifications did not settle');
  }

  /** The iTIP part of a message, as ical.js reads it. */
  function itip(message: Received) {
    const part = message.mail.attachments.find((attachment) => attachment.contentType === 'text/calendar');
    expect(part, 'a text/calendar part').toBeDefined();
    const calendar = new ICAL.Component(ICAL.parse(part!.content.toString('utf8')));
    const event = calendar.getFirstSubcomponent('vevent')!;
    return {
      method: String(calendar.getFirstPropertyValue('method')),
      uid: String(event.getFirstPropertyValue('uid')),
      sequence: Number(event.getFirstPropertyValue('sequence')),
      attendees: event
        .getAllProperties('attendee')
        .map((attendee) => String(attendee.getFirstValue()).toLowerCase())
        .filter((address) => address !== `mailto:${HOST}`)
        .sort(),
    };
  }

  const toHost = () => sink.received.filter((message) => message.to.includes(HOST)).map(itip);
  const toGuest = (guest: string) =>
    sink.received.filter((message) => message.to.includes(`${guest}@example.com`)).map(itip);

  async function seat(guest: string, start = MONDAY_10): Promise<BookingBody> {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(workshop.id, start, { guestName: guest, guestEmail: `${guest}@example.com` }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<BookingBody>();
  }

  async function cancel(booking: BookingBody): Promise<void> {
    h.clock.current += 60_000;
    const res = await h.request({ method: 'POST', url: `/api/v1/bookings/${booking.id}/cancel`, token, json: {} });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('when three guests take the seats and leave again, then the host gets one REQUEST and one CANCEL under the occurrence’s UID, its calendar holds the occurrence once with the seats there are, and each guest their own invitation', async () => {
    const { calendarUrl } = await writtenSource();
    // Booked while the workers wait, so the seats' changes meet pending notices, as under load.
    const guests = [];
    for (const guest of ['grace', 'alan', 'edsger']) guests.push(await seat(guest));
    const [grace, alan, edsger] = guests as [BookingBody, BookingBody, BookingBody];
    h.server.emailWorker!.start();
    h.server.calendarWriter.start();
    await settled();

    const attendees = ['mailto:alan@example.com', 'mailto:edsger@example.com', 'mailto:grace@example.com'];
    expect(toHost()).toEqual([{ method: 'REQUEST', uid: occurrenceUid(), sequence: 0, attendees }]);
    expect(await events(calendarUrl)).toEqual([
      { uid: occurrenceUid(), sequence: 0, summary: 'Workshop: 3 guests', attendees },
    ]);
    for (const [name, booking] of [
      ['grace', grace],
      ['alan', alan],
      ['edsger', edsger],
    ] as const)
      expect(toGuest(name)).toEqual([
        { method: 'REQUEST', uid: `${booking.id}@slotwise`, sequence: 0, attendees: [`mailto:${name}@example.com`] },
      ]);

    // A guest leaving changes the host's event, and tells the host nothing: the occurrence stays.
    await cancel(edsger);
    await settled();
    expect(toHost()).toHaveLength(1);
    expect(await events(calendarUrl)).toEqual([
      {
        uid: occurrenceUid(),
        sequence: 2,
        summary: 'Workshop: 2 guests',
        attendees: ['mailto:alan@example.com', 'mailto:grace@example.com'],
      },
    ]);
    expect(toGuest('edsger').map((message) => message.method)).toEqual(['REQUEST', 'CANCEL']);

    await cancel(alan);
    await cancel(grace);
    await settled();
    expect(await events(calendarUrl)).toEqual([]);
    const [request, cancellation, ...more] = toHost();
    expect(more).toEqual([]);
    expect(cancellation).toMatchObject({ method: 'CANCEL', uid: occurrenceUid() });
    expect(cancellation!.sequence).toBeGreaterThan(request!.sequence);
    // What told nobody anything is in no booking's log.
    const hostRows = (await h.database.rows('notifications'))
      .filter((row) => row.recipient === HOST)
      .sort((a, b) => Number(a.sent_at) - Number(b.sent_at));
    expect(hostRows.map((row) => [row.kind, row.status])).toEqual([
      ['created', 'sent'],
      ['cancelled', 'sent'],
    ]);
  });

  it('when the seats of a collective team type come and go, then each host gets one REQUEST and one CANCEL under the occurrence’s UID', async () => {
    const account = (
      await createApiKey(h.context, { accountName: 'acme', holderName: null, scopes: ['*'], expiresAt: null })
    ).token;
    const bob = await createApiKey(h.context, {
      accountName: 'acme',
      holderName: 'bob',
      scopes: ['*'],
      expiresAt: null,
    });
    const named = await h.request({
      method: 'PATCH',
      url: `/api/v1/holders/${bob.key.holderId}`,
      token: account,
      json: { email: 'bob@acme.example' },
    });
    expect(named.statusCode, named.body).toBe(200);
    const ada = (await h.request({ method: 'GET', url: '/api/v1/me', token })).json<{ holder: { id: string } }>();
    const made = await h.request({
      method: 'POST',
      url: '/api/v1/event-types',
      token: account,
      json: {
        title: 'Panel',
        durationMinutes: 60,
        assignment: 'collective',
        seats: 3,
        hosts: [{ holderId: ada.holder.id }, { holderId: bob.key.holderId }],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const panel = made.json<{ id: string }>().id;
    const seats: BookingBody[] = [];
    for (const guest of ['grace', 'alan']) {
      const res = await h.request({
        method: 'POST',
        url: '/api/v1/bookings',
        token: account,
        json: bookingInput(panel, MONDAY_10, { guestName: guest, guestEmail: `${guest}@example.com` }),
      });
      expect(res.statusCode, res.body).toBe(201);
      seats.push(res.json<BookingBody>());
    }
    h.server.emailWorker!.start();
    await settled();
    const uid = `${panel}.${Date.parse(MONDAY_10)}@slotwise`;
    const told = (host: string) =>
      sink.received
        .filter((message) => message.to.includes(host))
        .map((message) => [itip(message).method, itip(message).uid]);
    expect(told(HOST)).toEqual([['REQUEST', uid]]);
    expect(told('bob@acme.example')).toEqual([['REQUEST', uid]]);
    for (const seat of seats) {
      h.clock.current += 60_000;
      const res = await h.request({
        method: 'POST',
        url: `/api/v1/bookings/${seat.id}/cancel`,
        token: account,
        json: {},
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await settled();
    expect(told(HOST)).toEqual([
      ['REQUEST', uid],
      ['CANCEL', uid],
    ]);
    expect(told('bob@acme.example')).toEqual([
      ['REQUEST', uid],
      ['CANCEL', uid],
    ]);
  });

  it('when the log of what the host was sent is past retention before the last seat leaves, then the host still gets the CANCEL', async () => {
    // Booked 46 days ahead: the REQUEST's row goes after 30 (WEBHOOK_RETENTION_DAYS), before the seats leave.
    const later = '2026-02-16T10:00:00.000Z';
    const seats = [await seat('grace', later), await seat('alan', later)];
    h.server.emailWorker!.start();
    await settled();
    const uid = `${workshop.id}.${Date.parse(later)}@slotwise`;
    expect(toHost().map((message) => [message.method, message.uid])).toEqual([['REQUEST', uid]]);
    h.clock.current += 31 * 86_400_000;
    await h.server.housekeeper.runRound();
    expect((await h.database.rows('notifications')).filter((row) => row.recipient === HOST)).toEqual([]);
    for (const booking of seats) await cancel(booking);
    await settled();
    // If the worker looked between the two leaving, one seat left, the host was sent the REQUEST
    // again (the log no longer said it was): the CANCEL still comes last, once, and replaces it.
    const told = toHost();
    const cancellation = told.at(-1)!;
    expect(cancellation).toMatchObject({ method: 'CANCEL', uid });
    expect(told.filter((message) => message.method === 'CANCEL')).toHaveLength(1);
    for (const earlier of told.slice(0, -1)) expect(cancellation.sequence).toBeGreaterThan(earlier.sequence);
  });

  it('when the occurrence’s event comes back through the host’s calendar, then it does not block the seats still free', async () => {
    const { id: sourceId } = await writtenSource();
    h.server.emailWorker!.start();
    h.server.calendarWriter.start();
    await seat('grace');
    await seat('alan');
    await settled();
    const synced = await h.request({ method: 'POST', url: `/api/v1/calendar-sources/${sourceId}/sync`, token });
    expect(synced.json()).toMatchObject({ status: 'ok', lastError: null });
    const busy = await h.request({
      method: 'GET',
      url: '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z',
      token,
    });
    expect(busy.json<{ data: unknown[] }>().data).toEqual([]);
    const slots = await h.request({
      method: 'GET',
      url: `/api/v1/slots?eventTypeId=${workshop.id}&from=2026-01-05T10:00:00Z&to=2026-01-05T10:01:00Z`,
      token,
    });
    expect(slots.json<{ data: Array<{ start: string; seatsLeft: number }> }>().data).toEqual([
      expect.objectContaining({ start: MONDAY_10, seatsLeft: 1 }),
    ]);
    await seat('edsger');
  });

  it('when writeBookings is switched on after seats were booked, then the occurrence is written once with its seats', async () => {
    await seat('grace');
    await seat('alan');
    const { calendarUrl } = await writtenSource();
    h.server.emailWorker!.start();
    h.server.calendarWriter.start();
    await settled();
    expect(await events(calendarUrl)).toEqual([
      {
        uid: occurrenceUid(),
        sequence: 0,
        summary: 'Workshop: 2 guests',
        attendees: ['mailto:alan@example.com', 'mailto:grace@example.com'],
      },
    ]);
  });
});
