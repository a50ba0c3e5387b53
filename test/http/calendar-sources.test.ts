// Contract §11 over HTTP, on both stores: the calendar-sources resource and GET /busy, with a real
// calendar host on 127.0.0.1 (test/support/calendar-server.ts). A source's busy time leaves
// exactly the overlapping slots out (buffers included) and refuses bookings into it; a sync that
// reads nothing new changes nothing the slot path sees; a failing source keeps its busy time and
// tells its webhooks once; nothing the API answers, stores in plain text or sends holds the secret
// address or a password. (Radicale and the sync worker across instances: test/e2e/calendar-sources.test.ts.)
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestOf } from '../../src/app/key-cache.js';
import { MANUAL_SYNC_INTERVAL_MS } from '../../src/app/sync-limits.js';
import { busyFromCalendars } from '../../src/domain/busy-time.js';
import { composeServer } from '../../src/server.js';
import { CalendarServer } from '../support/calendar-server.js';
import { testStoreKind } from '../support/databases.js';
import { createHarness, type Harness } from '../support/harness.js';
import { NEXT_TEST_SECRET, TEST_SECRET, testKeyring } from '../support/secrets.js';
import {
  BEFORE_MONDAY,
  bookingInput,
  createEventType,
  expectInvalid,
  expectProblem,
  type EventTypeBody,
} from './helpers.js';

/** A secret ICS address, as Google publishes them: the path is the credential. */
const SECRET_PATH = '/calendar/ical/alice%40example.com/private-5ecret0123456789abcdef/basic.ics';

/** Monday 5 January 2026, 10:00–11:00 UTC, and a weekly 14:00–14:30 from that Monday, four times. */
function calendar(events: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
    ...events,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
const MEETING = [
  'BEGIN:VEVENT',
  'UID:meeting@google.com',
  'DTSTAMP:20251220T120000Z',
  'DTSTART:20260105T100000Z',
  'DTEND:20260105T110000Z',
  'SUMMARY:Board meeting',
  'END:VEVENT',
].join('\r\n');
const WEEKLY = [
  'BEGIN:VEVENT',
  'UID:weekly@google.com',
  'DTSTAMP:20251220T120000Z',
  'DTSTART:20260105T140000Z',
  'DTEND:20260105T143000Z',
  'RRULE:FREQ=WEEKLY;COUNT=4',
  'SUMMARY:1:1',
  'END:VEVENT',
].join('\r\n');
const FREE = [
  'BEGIN:VEVENT',
  'UID:free@google.com',
  'DTSTAMP:20251220T120000Z',
  'DTSTART:20260105T150000Z',
  'DTEND:20260105T160000Z',
  'TRANSP:TRANSPARENT',
  'SUMMARY:Focus (free)',
  'END:VEVENT',
].join('\r\n');

let h: Harness;
let token: string;
let calendars: CalendarServer;
let et: EventTypeBody;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY, calendarSources: { limitPerHolder: 3 } });
  token = await h.key('alice');
  calendars = await CalendarServer.start();
  et = await createEventType(h, token, { durationMinutes: 30, bufferAfterMinutes: 15 });
});

afterEach(async () => {
  await h.close();
  await calendars.close();
});

interface SourceBody {
  id: string;
  type: string;
  name: string | null;
  url: string;
  status: string;
  lastSyncedAt: string | null;
  lastError: string | null;
}

async function addSource(body: Record<string, unknown> = {}): Promise<SourceBody> {
  const res = await h.request({
    method: 'POST',
    url: '/api/v1/calendar-sources',
    token,
    json: { type: 'ics', url: calendars.url(SECRET_PATH), name: 'Work', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<SourceBody>();
}

/** Syncs on request, then lets the interval between such syncs of a source pass. */
async function sync(id: string): Promise<SourceBody> {
  const res = await h.request({ method: 'POST', url: `/api/v1/calendar-sources/${id}/sync`, token });
  expect(res.statusCode, res.body).toBe(200);
  h.clock.current += MANUAL_SYNC_INTERVAL_MS;
  return res.json<SourceBody>();
}

async function mondaySlots(): Promise<string[]> {
  const res = await h.request({
    method: 'GET',
    url: `/api/v1/slots?eventTypeId=${et.id}&from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z`,
    token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Array<{ start: string }> }>().data.map((slot) => slot.start.slice(11, 16));
}

/** Every start of Monday without busy time: 09:00 to 16:30 (the buffer may reach past the open hours). */
const ALL_MONDAY = Array.from({ length: 16 }, (_, i) => {
  const minutes = 9 * 60 + i * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

describe('the calendar-sources resource', () => {
  it('when an ICS source is added, then 201 shows only its origin, pending, and the stored row holds no part of the secret address', async () => {
    const source = await addSource();
    expect(source).toMatchObject({
      type: 'ics',
      name: 'Work',
      url: `http://127.0.0.1:${calendars.port}/…`,
      status: 'pending',
      lastSyncedAt: null,
      lastError: null,
    });
    expect(source.id).toMatch(/^cal_[a-z0-9]{20}$/);
    const listed = await h.request({ method: 'GET', url: '/api/v1/calendar-sources', token });
    expect(listed.json<{ data: SourceBody[] }>().data).toEqual([source]);
    expect((await h.request({ method: 'GET', url: `/api/v1/calendar-sources/${source.id}`, token })).json()).toEqual(
      source,
    );
    const [row] = await h.database.rows('calendar_sources');
    expect(JSON.stringify(row)).not.toContain('5ecret0123456789abcdef');
  });

  it('when a CalDAV source is added, then its URL is shown and its password never is, nor stored in plain text', async () => {
    const source = await addSource({
      type: 'caldav',
      url: calendars.url('/dav/alice/work/'),
      username: 'alice',
      password: 'hunter2-calendar',
    });
    expect(source.url).toBe(calendars.url('/dav/alice/work/'));
    expect(JSON.stringify(source)).not.toContain('hunter2');
    const [row] = await h.database.rows('calendar_sources');
    expect(JSON.stringify(row)).not.toContain('hunter2');
  });

  it('when the body is wrong, then 400 names every field, and nothing is stored', async () => {
    const bad = async (json: Record<string, unknown>, fields: string[]) => {
      const res = await h.request({ method: 'POST', url: '/api/v1/calendar-sources', token, json });
      expectInvalid(res, fields);
    };
    await bad({ type: 'google', url: 'https://calendar.google.com/x.ics' }, ['type']);
    await bad({ type: 'ics', url: 'ftp://calendar.example.com/x.ics' }, ['url']);
    await bad({ type: 'ics', url: 'https://bob:pw@calendar.example.com/x.ics' }, ['url']);
    await bad({ type: 'ics', url: 'https://calendar.example.com/x.ics', password: 'x' }, ['password']);
    await bad({ type: 'caldav', url: 'https://dav.example.com/alice/' }, ['username', 'password']);
    await bad({ type: 'ics' }, ['url']);
    expect(await h.database.rows('calendar_sources')).toEqual([]);
  });

  it('when a webcal:// address is added, then it is read over https', async () => {
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token,
      json: { type: 'ics', url: 'webcal://p01-caldav.icloud.com/published/2/secret' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<SourceBody>().url).toBe('https://p01-caldav.icloud.com/…');
  });

  it('when the holder has as many sources as allowed, then the next is 409 limit-reached', async () => {
    for (let i = 0; i < 3; i++) await addSource({ name: `Source ${i}` });
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/calendar-sources',
      token,
      json: { type: 'ics', url: calendars.url('/another.ics') },
    });
    expectProblem(res, 409, 'limit-reached');
  });

  it('when a source is renamed, or readdressed, then only what was sent changes, and a new address starts over as pending', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]) });
    const source = await addSource();
    expect((await sync(source.id)).status).toBe('ok');
    const renamed = await h.request({
      method: 'PATCH',
      url: `/api/v1/calendar-sources/${source.id}`,
      token,
      json: { name: 'Personal' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Personal', status: 'ok', url: source.url });
    const moved = await h.request({
      method: 'PATCH',
      url: `/api/v1/calendar-sources/${source.id}`,
      token,
      json: { url: 'https://outlook.office365.com/owa/calendar/abc/def/calendar.ics' },
    });
    expect(moved.json()).toMatchObject({ name: 'Personal', status: 'pending', url: 'https://outlook.office365.com/…' });
  });

  it('when a source is deleted, then 204, it is gone, and its busy time no longer keeps slots out', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]) });
    const source = await addSource();
    await sync(source.id);
    expect(await mondaySlots()).not.toContain('10:00');
    const res = await h.request({ method: 'DELETE', url: `/api/v1/calendar-sources/${source.id}`, token });
    expect(res.statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: `/api/v1/calendar-sources/${source.id}`, token })).statusCode).toBe(
      404,
    );
    expect(await mondaySlots()).toEqual(ALL_MONDAY);
    expect(await h.database.rows('busy_intervals')).toEqual([]);
  });

  it('when another holder asks for a source, then 404 as for one that does not exist', async () => {
    const source = await addSource();
    const bob = await h.key('bob');
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await h.request({
        method,
        url: `/api/v1/calendar-sources/${source.id}`,
        token: bob,
        ...(method === 'PATCH' ? { json: { name: 'x' } } : {}),
      });
      expectProblem(res, 404, 'not-found');
    }
    const synced = await h.request({ method: 'POST', url: `/api/v1/calendar-sources/${source.id}/sync`, token: bob });
    expectProblem(synced, 404, 'not-found');
  });
});

describe('where a source may be, and its sealed address', () => {
  it('when private targets are not allowed, then a source on a loopback or private address is 400 on url', async () => {
    const strict = await createHarness({ now: BEFORE_MONDAY, calendarSources: { allowPrivateTargets: false } });
    try {
      const strictToken = await strict.key('alice');
      for (const url of [calendars.url(SECRET_PATH), 'http://10.1.2.3/cal.ics', 'http://[::1]:5232/alice/']) {
        const res = await strict.request({
          method: 'POST',
          url: '/api/v1/calendar-sources',
          token: strictToken,
          json: { type: 'ics', url },
        });
        const problem = expectInvalid(res, ['url']);
        expect(problem.errors![0]!.message).toContain('must reach a public address');
      }
    } finally {
      await strict.close();
    }
  });

  it('when a source’s host name resolves to a private address, then the 400 names the rule that refused it, never the address it resolved to', async () => {
    const strict = await createHarness({ now: BEFORE_MONDAY, calendarSources: { allowPrivateTargets: false } });
    try {
      const strictToken = await strict.key('alice');
      // localhost resolves to 127.0.0.1 (and ::1): what DNS says about a name stays inside.
      const res = await strict.request({
        method: 'POST',
        url: '/api/v1/calendar-sources',
        token: strictToken,
        json: { type: 'caldav', url: 'http://localhost:5232/alice/', username: 'alice', password: 'x' },
      });
      const { message } = expectInvalid(res, ['url']).errors![0]!;
      expect(message).toBe('must reach a public address; localhost resolves to a loopback address');
      const literal = await strict.request({
        method: 'POST',
        url: '/api/v1/calendar-sources',
        token: strictToken,
        json: { type: 'ics', url: 'http://10.1.2.3/cal.ics' },
      });
      expect(expectInvalid(literal, ['url']).errors![0]!.message).toBe(
        'must reach a public address; 10.1.2.3 is a private address',
      );
    } finally {
      await strict.close();
    }
  });

  it('when SLOTWISE_SECRET gets a new key in front, then the next sync seals the address with it, and the old key can go', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]) });
    const source = await addSource();
    const sealedBefore = (await h.database.rows('calendar_sources'))[0]!.address;
    const rotated = await composeServer(h.storage, {
      ...h.settings,
      keyring: testKeyring([NEXT_TEST_SECRET, TEST_SECRET]),
    });
    try {
      const synced = await rotated.app.inject({
        method: 'POST',
        url: `/api/v1/calendar-sources/${source.id}/sync`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(synced.json()).toMatchObject({ status: 'ok' });
    } finally {
      await rotated.close();
    }
    expect((await h.database.rows('calendar_sources'))[0]!.address).not.toBe(sealedBefore);
    const newKeyOnly = await composeServer(h.storage, { ...h.settings, keyring: testKeyring([NEXT_TEST_SECRET]) });
    try {
      calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING, WEEKLY]) });
      const synced = await newKeyOnly.app.inject({
        method: 'POST',
        url: `/api/v1/calendar-sources/${source.id}/sync`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(synced.json()).toMatchObject({ status: 'ok', lastError: null });
    } finally {
      await newKeyOnly.close();
    }
  });

  it('when the key that sealed an address is gone, then the source fails with a message saying to set it again', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]) });
    const source = await addSource();
    const other = await composeServer(h.storage, { ...h.settings, keyring: testKeyring([NEXT_TEST_SECRET]) });
    try {
      const synced = await other.app.inject({
        method: 'POST',
        url: `/api/v1/calendar-sources/${source.id}/sync`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(synced.json()).toMatchObject({
        status: 'error',
        lastError: 'the stored address cannot be read with the current SLOTWISE_SECRET: set it again (PATCH url)',
      });
      const patch = (json: Record<string, unknown>) =>
        other.app.inject({
          method: 'PATCH',
          url: `/api/v1/calendar-sources/${source.id}`,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify(json),
        });
      // A rename needs no address; a new name alone is not enough to open it again.
      expect((await patch({ name: 'Renamed' })).statusCode).toBe(200);
      const problem = expectInvalid(await patch({ username: 'someone' }), ['url']);
      expect(problem.errors![0]!.message).toContain('must be sent again');
      const readdressed = await patch({ url: calendars.url(SECRET_PATH) });
      expect(readdressed.json()).toMatchObject({ status: 'pending', name: 'Renamed' });
    } finally {
      await other.close();
    }
  });

  it('when an Outlook export with Windows zone names is subscribed, then its busy time is where Outlook shows it', async () => {
    const outlook = readFileSync(new URL('../fixtures/calendars/outlook-exchange.ics', import.meta.url), 'utf8');
    calendars.serve('/owa/calendar/abc/reachcalendar.ics', { kind: 'calendar', body: outlook });
    const source = await addSource({ url: calendars.url('/owa/calendar/abc/reachcalendar.ics') });
    expect((await sync(source.id)).status).toBe('ok');
    const busy = await h.request({
      method: 'GET',
      url: '/api/v1/busy?from=2026-03-30T00:00:00Z&to=2026-04-03T00:00:00Z',
      token,
    });
    const starts = busy.json<{ data: Array<{ start: string }> }>().data.map((b) => b.start);
    // W. Europe Standard Time after Europe moved its clocks (10:00 is 08:00 UTC), and AUS Eastern
    // Standard Time (09:00 on 2 April is 23:00 UTC the day before).
    expect(starts).toEqual(
      expect.arrayContaining(['2026-03-31T08:00:00.000Z', '2026-04-01T22:00:00.000Z', '2026-04-02T08:00:00.000Z']),
    );
  });
});

describe('busy time in slots and bookings', () => {
  it('when a source is synced, then its events are busy time: listed by GET /busy, and exactly the overlapping slots (with the buffer) are left out', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING, WEEKLY, FREE]) });
    const source = await addSource();
    const synced = await sync(source.id);
    expect(synced).toMatchObject({ status: 'ok', lastError: null, lastSyncedAt: '2026-01-01T00:00:00.000Z' });
    const busy = await h.request({
      method: 'GET',
      url: '/api/v1/busy?from=2026-01-05T00:00:00Z&to=2026-01-27T00:00:00Z',
      token,
    });
    expect(busy.statusCode, busy.body).toBe(200);
    expect(busy.json()).toEqual({
      data: [
        { start: '2026-01-05T10:00:00.000Z', end: '2026-01-05T11:00:00.000Z', sourceId: source.id },
        { start: '2026-01-05T14:00:00.000Z', end: '2026-01-05T14:30:00.000Z', sourceId: source.id },
        { start: '2026-01-12T14:00:00.000Z', end: '2026-01-12T14:30:00.000Z', sourceId: source.id },
        { start: '2026-01-19T14:00:00.000Z', end: '2026-01-19T14:30:00.000Z', sourceId: source.id },
        { start: '2026-01-26T14:00:00.000Z', end: '2026-01-26T14:30:00.000Z', sourceId: source.id },
      ],
      nextCursor: null,
    });
    // A 30-minute slot with 15 minutes after it: 09:30 ends its buffer at 10:15, inside the
    // meeting; 13:30 reaches 14:15, inside the 1:1. The free event blocks nothing.
    expect(await mondaySlots()).toEqual(
      ALL_MONDAY.filter((time) => !['09:30', '10:00', '10:30', '13:30', '14:00'].includes(time)),
    );
  });

  it('when a booking or hold asks for busy time, then 409 slot-unavailable says so, and nothing is written', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]) });
    await sync((await addSource()).id);
    const booking = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T09:30:00Z'),
    });
    const problem = expectProblem(booking, 409, 'slot-unavailable');
    expect(problem.detail).toContain('busy time');
    const hold = await h.request({
      method: 'POST',
      url: '/api/v1/holds',
      token,
      json: { eventTypeId: et.id, start: '2026-01-05T10:30:00Z' },
    });
    expectProblem(hold, 409, 'slot-unavailable');
    expect(await h.database.rows('bookings')).toEqual([]);
    const fine = await h.request({
      method: 'POST',
      url: '/api/v1/bookings',
      token,
      json: bookingInput(et.id, '2026-01-05T11:00:00Z'),
    });
    expect(fine.statusCode, fine.body).toBe(201);
  });

  it('when a sync is writing busy time while a booking is decided, then the booking waits for it and is judged against it', async () => {
    const source = await addSource();
    const [holderId] = await holderAndSource(source.id);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    // What recordSuccess does, held open: the source locked, its busy time replaced, not yet committed.
    const syncing = h.store.transaction(async (tx) => {
      await tx.calendarSources.stored(holderId, source.id);
      await tx.busyTime.replace(holderId, source.id, [
        { start: Date.parse('2026-01-05T10:00:00Z'), end: Date.parse('2026-01-05T11:00:00Z') },
      ]);
      await tx.holders.bumpCalendarVersion(holderId);
      written();
      await held;
    });
    await wrote;
    let decided = false;
    const booking = h
      .request({ method: 'POST', url: '/api/v1/bookings', token, json: bookingInput(et.id, '2026-01-05T10:00:00Z') })
      .finally(() => (decided = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(decided, 'the booking waited for the sync').toBe(false);
    release();
    await syncing;
    expectProblem(await booking, 409, 'slot-unavailable');
  });

  it('when an event is deleted at the source, then the next sync frees its time', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING, WEEKLY]) });
    const source = await addSource();
    await sync(source.id);
    expect(await mondaySlots()).not.toContain('10:00');
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([WEEKLY]) });
    await sync(source.id);
    expect(await mondaySlots()).toEqual(ALL_MONDAY.filter((time) => !['13:30', '14:00'].includes(time)));
  });

  it('when the source has not changed (304), then the sync writes nothing the slot path sees: the calendar version stays, and other holders’ cached keys stay valid', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]) });
    const source = await addSource();
    await sync(source.id);
    const [holderId] = await holderAndSource(source.id);
    const version = await h.store.holders.calendarVersion(holderId);
    // Another holder's cached key outlives the sync's commits: they concern the source's holder only.
    const bob = (await h.store.apiKeys.findByDigest(digestOf(await h.key('bob'))))!.holderId!;
    h.clock.current += 60_000;
    // PostgreSQL: bob's making comes back through the change poll; heard after the mark, it would
    // count as a change to bob that the sync made.
    await expect.poll(() => h.storage.changes.mark(), { timeout: 5_000, interval: 5 }).not.toBeNull();
    await h.storage.changesHeard();
    const mark = h.storage.changes.mark()!;
    const before = h.storage.queriesSent();
    const again = await sync(source.id);
    const sent = h.storage.queriesSent() - before;
    expect(h.storage.changes.unchangedSince(mark, bob)).toBe(true);
    expect(again).toMatchObject({ status: 'ok', lastSyncedAt: '2026-01-01T00:01:30.000Z' });
    expect(calendars.requestsTo(SECRET_PATH).at(-1)!.ifNoneMatch).not.toBeNull();
    expect(await h.store.holders.calendarVersion(holderId)).toBe(version);
    // Two write transactions, each a durable commit: the lease taken, and what the sync found
    // recorded with the lease given back in the same one. The lease given back on its own, a
    // third, made it 14 statements on PostgreSQL and 20 on SQLite (group commit adds its own).
    expect(sent).toBe(testStoreKind() === 'postgres' ? 12 : 16);
  });

  it('when the source sends the same busy time in a new text, then the calendar version stays too', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]), etag: '"v1"' });
    const source = await addSource();
    await sync(source.id);
    const [holderId] = await holderAndSource(source.id);
    const version = await h.store.holders.calendarVersion(holderId);
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING, FREE]), etag: '"v2"' });
    await sync(source.id);
    expect(await h.store.holders.calendarVersion(holderId)).toBe(version);
  });
});

describe('a failing source', () => {
  it('when a source fails, then it shows error and keeps its busy time, tells its webhooks once per streak, and recovered when it syncs again', async () => {
    const hook = await h.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      token,
      json: { url: 'https://hooks.example.com/x', events: ['calendar_source.failed', 'calendar_source.recovered'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]) });
    const source = await addSource();
    await sync(source.id);
    calendars.serve(SECRET_PATH, { kind: 'status', status: 500 });
    const failed = await sync(source.id);
    expect(failed).toMatchObject({
      status: 'error',
      lastError: 'the calendar server answered 500 Internal Server Error',
      lastSyncedAt: '2026-01-01T00:00:00.000Z',
    });
    calendars.serve(SECRET_PATH, { kind: 'status', status: 404 });
    expect((await sync(source.id)).lastError).toBe('the calendar server answered 404 Not Found');
    // The last good busy time stays.
    expect(await mondaySlots()).not.toContain('10:00');
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([]) });
    expect(await sync(source.id)).toMatchObject({ status: 'ok', lastError: null });
    expect(await mondaySlots()).toContain('10:00');

    // Two failures, one recovery: one event each (rows come in id order, not in time order).
    const events = (await h.database.rows('webhook_events')).map((row) => JSON.parse(String(row.payload)));
    expect(events.map((event) => event.type).sort()).toEqual(['calendar_source.failed', 'calendar_source.recovered']);
    const failedEvent = events.find((event) => event.type === 'calendar_source.failed');
    expect(failedEvent.data.calendarSource).toMatchObject({
      id: source.id,
      status: 'error',
      url: source.url,
      lastError: 'the calendar server answered 500 Internal Server Error',
    });
    for (const event of events) expect(JSON.stringify(event)).not.toContain('5ecret');
  });
});

describe('what syncs share: POST …/sync per source, fetches at once, room for parsing (issue 25)', () => {
  const syncNow = (id: string, as = token) =>
    h.request({ method: 'POST', url: `/api/v1/calendar-sources/${id}/sync`, token: as });

  it('when a source is synced on request again within 30 s, then 429 rate-limited with Retry-After and nothing is read; after that, it is read again', async () => {
    calendars.serve(SECRET_PATH, { kind: 'calendar', body: calendar([MEETING]) });
    const source = await addSource();
    expect((await syncNow(source.id)).statusCode).toBe(200);
    const reads = calendars.requestsTo(SECRET_PATH).length;
    h.clock.current += 20_000;
    const again = await syncNow(source.id);
    expectProblem(again, 429, 'rate-limited');
    expect(again.headers['retry-after']).toBe('10');
    expect(again.json<{ detail: string }>().detail).toBe(
      'This calendar source was synced on request less than 30 s ago; retry in 10 s.',
    );
    expect(calendars.requestsTo(SECRET_PATH)).toHaveLength(reads);
    h.clock.current += 10_000;
    expect((await syncNow(source.id)).statusCode).toBe(200);
    expect(calendars.requestsTo(SECRET_PATH)).toHaveLength(reads + 1);
  });

  it('when two syncs of one source are asked at once, then it is read once and both answer with that sync', async () => {
    calendars.serve(SECRET_PATH, {
      kind: 'slow',
      body: calendar([MEETING]),
      chunkBytes: 64,
      intervalMs: 5,
    });
    const source = await addSource();
    const [first, second] = await Promise.all([syncNow(source.id), syncNow(source.id)]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ status: 'ok' });
    expect(calendars.requestsTo(SECRET_PATH)).toHaveLength(1);
  });

  it('when many sources of two holders are synced at once, then no more than CALENDAR_SYNC_CONCURRENCY are read at a time, and each is synced', async () => {
    const limited = await composeServer(h.storage, {
      ...h.settings,
      calendarSources: { ...h.settings.calendarSources!, syncConcurrency: 2, limitPerHolder: 10 },
    });
    const bob = await h.key('bob');
    try {
      const sources: Array<{ id: string; as: string }> = [];
      for (const [i, as] of [token, token, token, token, bob, bob, bob, bob].entries()) {
        calendars.serve(`/slow-${i}.ics`, { kind: 'slow', body: calendar([MEETING]), chunkBytes: 40, intervalMs: 10 });
        const created = await limited.app.inject({
          method: 'POST',
          url: '/api/v1/calendar-sources',
          headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ type: 'ics', url: calendars.url(`/slow-${i}.ics`) }),
        });
        sources.push({ id: created.json<{ id: string }>().id, as });
      }
      calendars.peakOpen = 0;
      const synced = await Promise.all(
        sources.map(({ id, as }) =>
          limited.app.inject({
            method: 'POST',
            url: `/api/v1/calendar-sources/${id}/sync`,
            headers: { authorization: `Bearer ${as}` },
          }),
        ),
      );
      for (const res of synced) expect(res.json(), res.body).toMatchObject({ status: 'ok', lastError: null });
      expect(calendars.peakOpen).toBe(2);
    } finally {
      await limited.close();
    }
  });

  it('when fetched calendars wait for a slow parser, then what they hold together stays within CALENDAR_PARSE_QUEUE_MB, and a calendar larger than that alone fails with a message', async () => {
    // About 300 KB each: 2,000 events.
    const big = (tag: string) =>
      calendar(
        Array.from({ length: 2_000 }, (_, i) =>
          [
            'BEGIN:VEVENT',
            `UID:${tag}-${i}@example.com`,
            'DTSTAMP:20251220T120000Z',
            'DTSTART:20260105T100000Z',
            'DTEND:20260105T110000Z',
            `SUMMARY:A meeting that fills its line ${'x'.repeat(60)}`,
            'END:VEVENT',
          ].join('\r\n'),
        ),
      );
    const size = big('0').length;
    let held = 0;
    let peakHeld = 0;
    const limited = await composeServer(h.storage, {
      ...h.settings,
      calendarSources: { ...h.settings.calendarSources!, parseQueueBytes: Math.floor(size * 2.5), limitPerHolder: 10 },
      // A parser that takes its time, as a busy parser thread does.
      busyParser: {
        async parse(_holderId, texts, ...rest) {
          const chars = texts.reduce((sum, text) => sum + text.length, 0);
          held += chars;
          peakHeld = Math.max(peakHeld, held);
          await new Promise((resolve) => setTimeout(resolve, 100));
          held -= chars;
          return busyFromCalendars(texts, ...rest);
        },
      },
    });
    const ids: string[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        calendars.serve(`/big-${i}.ics`, { kind: 'calendar', body: big(String(i)) });
        const created = await limited.app.inject({
          method: 'POST',
          url: '/api/v1/calendar-sources',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ type: 'ics', url: calendars.url(`/big-${i}.ics`) }),
        });
        ids.push(created.json<{ id: string }>().id);
      }
      const synced = await Promise.all(
        ids.map((id) =>
          limited.app.inject({
            method: 'POST',
            url: `/api/v1/calendar-sources/${id}/sync`,
            headers: { authorization: `Bearer ${token}` },
          }),
        ),
      );
      for (const res of synced) expect(res.json(), res.body).toMatchObject({ status: 'ok', lastError: null });
      expect(peakHeld).toBe(2 * size);
    } finally {
      await limited.close();
    }
    const tight = await composeServer(h.storage, {
      ...h.settings,
      calendarSources: { ...h.settings.calendarSources!, parseQueueBytes: 100 * 1024, limitPerHolder: 10 },
    });
    try {
      calendars.serve('/big-0.ics', { kind: 'calendar', body: big('changed') });
      const synced = await tight.app.inject({
        method: 'POST',
        url: `/api/v1/calendar-sources/${ids[0]}/sync`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(synced.json()).toMatchObject({
        status: 'error',
        lastError: `the calendar (${Number((big('changed').length / 1_048_576).toFixed(2))} MB) is larger than this server parses at once (0.1 MB)`,
      });
    } finally {
      await tight.close();
    }
  });
});

describe('GET /busy', () => {
  it('when the range is missing, reversed or longer than 62 days, then 400 on the field', async () => {
    const busy = (query: string) => h.request({ method: 'GET', url: `/api/v1/busy${query}`, token });
    expectInvalid(await busy(''), ['from', 'to']);
    expectInvalid(await busy('?from=2026-01-05T00:00:00Z&to=2026-01-01T00:00:00Z'), ['to']);
    expectInvalid(await busy('?from=2026-01-01T00:00:00Z&to=2026-03-05T00:00:00Z'), ['to']);
  });

  it('when there is more busy time than a page, then pages follow each other without gaps or repeats, across sources', async () => {
    const daily = (uid: string, hour: string) =>
      [
        'BEGIN:VEVENT',
        `UID:${uid}`,
        'DTSTAMP:20251220T120000Z',
        `DTSTART:20260105T${hour}0000Z`,
        `DTEND:20260105T${hour}3000Z`,
        'RRULE:FREQ=DAILY;COUNT=20',
        'END:VEVENT',
      ].join('\r\n');
    calendars.serve('/a.ics', { kind: 'calendar', body: calendar([daily('a', '09')]) });
    calendars.serve('/b.ics', { kind: 'calendar', body: calendar([daily('b', '09'), daily('c', '12')]) });
    await sync((await addSource({ url: calendars.url('/a.ics') })).id);
    await sync((await addSource({ url: calendars.url('/b.ics') })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await h.request({
        method: 'GET',
        url: `/api/v1/busy?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        token,
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<{ data: Array<{ start: string; sourceId: string }>; nextCursor: string | null }>();
      seen.push(...page.data.map((b) => `${b.start} ${b.sourceId}`));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
    expect([...seen].sort()).toEqual(seen.slice().sort());
  });
});

/** The holder id and source id of a source (for the store's own reads). */
async function holderAndSource(sourceId: string): Promise<[string, string]> {
  const [row] = (await h.database.rows('calendar_sources')).filter((r) => r.id === sourceId);
  return [String(row!.holder_id), sourceId];
}
