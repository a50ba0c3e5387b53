// Issue 28: a database written by the build before teams (eed5f54) is opened by this one. Its
// availability documents, bookings and holds move into the new model, and nothing is lost: every
// answer that build gave (recorded with the fixture, test/fixtures/before-teams) is given again,
// with only the fields added since (`addedSince`). And no double booking slips through: every
// migrated confirmed booking and live hold still occupies its holder's time, buffers included, the
// daily cap still counts migrated bookings, and cancelled, rescheduled and expired ones free it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../src/server.js';
import { migrations } from '../../src/storage/migrations/index.js';
import { testStoreKind } from '../support/databases.js';
import { bodyOf, restoreFixture, routeOf, serveFixture, type RestoredFixture } from '../support/fixture-databases.js';
import { TestClock } from '../support/harness.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/before-teams');

/** A booking body; a hold is asked for with its `eventTypeId` and `start`. */
interface Probe {
  eventTypeId: string;
  start: string;
  guestName: string;
  guestEmail: string;
  answers?: Record<string, unknown>;
}

interface Fixture {
  writtenBy: string;
  recordedAt: string;
  publicBaseUrl: string;
  /** SLOTWISE_SECRET the PostgreSQL fixture was written with; SQLite's is the key file beside it. */
  secret?: string;
  keys: Array<{ label: string; account: string | null; holder: string | null; token: string }>;
  holders: Record<string, string>;
  /** `holder`: the `Slotwise-Holder` header the account key sent. */
  answers: Array<{ key: string; holder: string | null; path: string; status: number; body: unknown }>;
  pages: Array<{ path: string; status: number }>;
  /** Confirmed bookings and live holds; starts that overlap each (buffers included) and free starts next to it. */
  occupied: Array<{ id: string; what: string; key: string; overlapping: Probe[]; free: Probe[] }>;
  /** Cancelled and rescheduled bookings and an expired hold, each with a start of its time. */
  released: Array<{ id: string; what: string; key: string; probe: Probe }>;
  /** A day at its event type's cap: the bookings that count, a cancelled one that does not, a free start. */
  dailyCap: { what: string; key: string; counted: string[]; notCounted: string[]; probe: Probe };
}

type Resource = Record<string, unknown>;
type ResourceKind = 'event type' | 'booking' | 'hold' | 'webhook';

/**
 * The fields this build adds to what the old build answered: the one difference the replay
 * accepts. Each is a resource kind, a field and its value for a resource migrated from the old
 * database, computed from the old answer; one line per field, e.g.
 * `{ kind: 'booking', field: 'hostIds', value: (booking) => [booking.holderId] }`.
 */
const ADDED_SINCE: Array<{ kind: ResourceKind; field: string; value: (old: Resource) => unknown }> = [
  // Migration 0015: a personal booking or hold occupies its holder's time alone.
  { kind: 'booking', field: 'hostIds', value: (old) => [old.holderId] },
  { kind: 'hold', field: 'hostIds', value: (old) => [old.holderId] },
  // Migration 0016: a holder's own event type has no team.
  { kind: 'event type', field: 'assignment', value: () => null },
  { kind: 'event type', field: 'hosts', value: () => null },
  // Migration 0014: an event type offered in its holder's default schedule.
  { kind: 'event type', field: 'scheduleId', value: () => null },
  // Migration 0018: one guest at a time, as before.
  { kind: 'event type', field: 'seats', value: () => null },
  // Migration 0019: no location was said before.
  { kind: 'event type', field: 'location', value: () => null },
  { kind: 'booking', field: 'location', value: () => null },
  // Migration 0020: the guest's e-mails in English, the default.
  { kind: 'booking', field: 'guestLanguage', value: () => 'en' },
  // Migration 0023: no reminders; a webhook that heard every type hears booking.reminder too.
  { kind: 'event type', field: 'reminders', value: () => [] },
  { kind: 'webhook', field: 'events', value: (old) => withReminderType(old.events as string[]) },
  // Migration 0021: the guest and the hosts told, the default.
  { kind: 'event type', field: 'notifications', value: () => ({ guest: true, hosts: true }) },
];

/** The events of a webhook that heard every type before migration 0023, with `booking.reminder`; any other list as it was. */
function withReminderType(events: string[]): string[] {
  const everyTypeBefore = ['booking.created', 'booking.cancelled', 'booking.rescheduled', 'calendar_source.failed'];
  if (events.length !== 5 || !everyTypeBefore.every((type) => events.includes(type))) return events;
  return [...events.slice(0, 3), 'booking.reminder', ...events.slice(3)];
}

/** The routes whose answers are a resource of a kind, or a list of them. */
const KIND_OF_ROUTE: Record<string, ResourceKind> = {
  '/api/v1/event-types': 'event type',
  '/api/v1/event-types/:id': 'event type',
  '/api/v1/bookings': 'booking',
  '/api/v1/bookings/:id': 'booking',
  '/api/v1/holds': 'hold',
  '/api/v1/holds/:id': 'hold',
  '/api/v1/webhooks': 'webhook',
  '/api/v1/webhooks/:id': 'webhook',
};

/** What this build answers to a GET the old build answered with `body` (a 200): `body` with the fields added since. */
function addedSince(path: string, body: unknown): unknown {
  const kind = KIND_OF_ROUTE[routeOf(path)];
  const added = ADDED_SINCE.filter((rule) => rule.kind === kind);
  if (added.length === 0) return body;
  const withAdded = (old: Resource) => ({
    ...old,
    ...Object.fromEntries(added.map((rule) => [rule.field, rule.value(old)])),
  });
  const list = body as { data?: Resource[] };
  return Array.isArray(list.data) ? { ...list, data: list.data.map(withAdded) } : withAdded(body as Resource);
}

/** Where `now` differs from `expected`, as `path: expected → now`; lists item by item, objects field by field (both ways). */
function differences(expected: unknown, now: unknown, at: string): string[] {
  const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value));
  if (Array.isArray(expected) && Array.isArray(now) && expected.length === now.length)
    return expected.flatMap((item, i) => differences(item, now[i], `${at}[${i}]`));
  const isObject = (value: unknown): value is Resource =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isObject(expected) && isObject(now))
    return [...new Set([...Object.keys(expected), ...Object.keys(now)])].flatMap((name) =>
      differences(expected[name], now[name], `${at}.${name}`),
    );
  return JSON.stringify(expected) === JSON.stringify(now) ? [] : [`${at}: ${show(expected)} → ${show(now)}`];
}

const fixture = JSON.parse(readFileSync(join(FIXTURE, `answers.${testStoreKind()}.json`), 'utf8')) as Fixture;
const tokenOf = (label: string) => fixture.keys.find((k) => k.label === label)!.token;

/** A restored copy of the fixture's database with this build's server over it, its clock at `recordedAt`. */
async function open(): Promise<{
  restored: RestoredFixture;
  server: Server;
  clock: TestClock;
  close(): Promise<void>;
}> {
  const restored = await restoreFixture(FIXTURE, fixture.secret);
  const clock = new TestClock(Date.parse(fixture.recordedAt));
  const server = await serveFixture(restored, clock, fixture.publicBaseUrl);
  return {
    restored,
    server,
    clock,
    async close() {
      await server.close();
      await restored.storage.close();
      restored.remove();
    },
  };
}

/** Requests of one key, as `Slotwise-Holder` says when `holder` is set. */
function client(server: Server, key: string) {
  const send = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, holder?: string | null) =>
    server.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${tokenOf(key)}`,
        ...(holder ? { 'slotwise-holder': holder } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  return {
    get: (url: string, holder: string | null = null) => send('GET', url, undefined, holder),
    book: (probe: Probe) => send('POST', '/api/v1/bookings', probe),
    hold: (probe: Probe) =>
      send('POST', '/api/v1/holds', { eventTypeId: probe.eventTypeId, start: probe.start, expiresInSeconds: 60 }),
    cancel: (bookingId: string) => send('POST', `/api/v1/bookings/${bookingId}/cancel`, {}),
    release: (holdId: string) => send('DELETE', `/api/v1/holds/${holdId}`),
  };
}

type Client = ReturnType<typeof client>;

/** `id` ended: a booking cancelled, a hold released. */
async function end(as: Client, id: string): Promise<void> {
  const response = id.startsWith('hld_') ? await as.release(id) : await as.cancel(id);
  expect(response.statusCode, `ending ${id}: ${response.body}`).toBe(id.startsWith('hld_') ? 204 : 200);
}

/** The start is taken: a booking and a hold of it are both refused with 409 slot-unavailable. */
async function expectRefused(as: Client, probe: Probe, what: string): Promise<void> {
  for (const [attempt, response] of [
    ['booking', await as.book(probe)],
    ['hold', await as.hold(probe)],
  ] as const) {
    expect(response.statusCode, `${attempt} at ${probe.start} next to ${what}: ${response.body}`).toBe(409);
    expect(response.json().type).toBe('urn:service:problem:slot-unavailable');
  }
}

/** The start is free: a booking of it succeeds, and a hold of it too (each ended again, so the time stays as it was). */
async function expectFree(as: Client, probe: Probe, what: string): Promise<void> {
  for (const attempt of ['booking', 'hold'] as const) {
    const response = attempt === 'booking' ? await as.book(probe) : await as.hold(probe);
    expect(response.statusCode, `${attempt} at ${probe.start} (${what}): ${response.body}`).toBe(201);
    await end(as, response.json().id);
  }
}

describe(`a database written before teams (eed5f54), opened by this build (${testStoreKind()})`, () => {
  let opened: Awaited<ReturnType<typeof open>>;

  beforeAll(async () => {
    opened = await open();
  });

  afterAll(async () => {
    await opened?.close();
  });

  it('when it is opened, then every migration of this build has run on it', async () => {
    const ran = await opened.restored.query('select name from kysely_migration order by name');
    expect(ran.map((m) => m.name)).toEqual(Object.keys(migrations(testStoreKind())));
  });

  it('when every GET the old build answered is asked again, then each answer is the same, with only the fields added since', async () => {
    const found: string[] = [];
    for (const old of fixture.answers) {
      const response = await client(opened.server, old.key).get(old.path, old.holder);
      const where = `${old.key}${old.holder ? ` for ${old.holder}` : ''} GET ${old.path}`;
      if (response.statusCode !== old.status) found.push(`${where}: status ${old.status} → ${response.statusCode}`);
      const expected = old.status === 200 ? addedSince(old.path, old.body) : old.body;
      found.push(...differences(expected, bodyOf(response), where));
    }
    expect(found).toEqual([]);
    expect(fixture.answers.length).toBeGreaterThan(250);
  });

  it('when the booking pages and a guest’s links are opened, then each answers as it did', async () => {
    const now = [];
    for (const page of fixture.pages) {
      const response = await opened.server.app.inject({ method: 'GET', url: page.path });
      now.push({ path: page.path, status: response.statusCode });
    }
    expect(now).toEqual(fixture.pages);
  });
});

describe(`no double booking through a database written before teams (${testStoreKind()})`, () => {
  // Each case on a copy of its own: they cancel migrated bookings and release migrated holds.
  let opened: Awaited<ReturnType<typeof open>> | undefined;
  const fresh = async () => {
    await opened?.close();
    opened = await open();
    return opened;
  };

  afterAll(async () => {
    await opened?.close();
  });

  it('when a booking or a hold overlaps a migrated confirmed booking or live hold, buffers included, then it is refused with 409, and a free time next to it is booked', async () => {
    const { server } = await fresh();
    for (const group of fixture.occupied) {
      const as = client(server, group.key);
      for (const probe of group.overlapping) await expectRefused(as, probe, group.what);
      for (const probe of group.free) await expectFree(as, probe, `next to ${group.what}`);
    }
    expect(fixture.occupied.filter((group) => group.id.startsWith('bkg_')).length).toBeGreaterThanOrEqual(10);
    expect(fixture.occupied.filter((group) => group.id.startsWith('hld_')).length).toBeGreaterThanOrEqual(3);
  });

  it('when a migrated booking is cancelled or a migrated hold released, then the times refused because of it are booked', async () => {
    const { server } = await fresh();
    for (const group of fixture.occupied) {
      const as = client(server, group.key);
      await end(as, group.id);
      for (const probe of group.overlapping) await expectFree(as, probe, `${group.what}, ended`);
    }
  });

  it('when the clock passes a migrated hold’s expiresAt, then its time is free again', async () => {
    const { server, clock } = await fresh();
    const holds = fixture.occupied.filter((group) => group.id.startsWith('hld_'));
    const expiries = [];
    for (const group of holds) {
      const hold = await client(server, group.key).get(`/api/v1/holds/${group.id}`);
      expect(hold.statusCode).toBe(200);
      expiries.push(Date.parse(hold.json().expiresAt));
    }
    clock.set(Math.max(...expiries));
    for (const group of holds) {
      const as = client(server, group.key);
      expect((await as.get(`/api/v1/holds/${group.id}`)).statusCode).toBe(404);
      for (const probe of group.overlapping) await expectFree(as, probe, `${group.what}, expired`);
    }
  });

  it('when a day is at its cap with migrated bookings, then one more is refused, and a migrated cancelled booking does not count', async () => {
    const { server } = await fresh();
    const { key, counted, notCounted, probe, what } = fixture.dailyCap;
    const as = client(server, key);
    // The day of the cap is the local date in the holder's zone (contract §5).
    const { timeZone } = (await as.get('/api/v1/availability')).json();
    const localDay = (instant: string) =>
      Temporal.Instant.from(instant).toZonedDateTimeISO(timeZone).toPlainDate().toString();
    const dayOf = async (id: string) => {
      const booking = (await as.get(`/api/v1/bookings/${id}`)).json();
      return { status: booking.status, day: localDay(booking.start) };
    };
    for (const id of counted) expect(await dayOf(id)).toEqual({ status: 'confirmed', day: localDay(probe.start) });
    for (const id of notCounted) expect(await dayOf(id)).toEqual({ status: 'cancelled', day: localDay(probe.start) });
    await expectRefused(as, probe, what);
    await end(as, counted[0]!);
    const booked = await as.book(probe);
    expect(booked.statusCode, booked.body).toBe(201);
  });

  it('when a migrated booking was cancelled or rescheduled, or a migrated hold had expired, then its time is booked', async () => {
    const { server } = await fresh();
    for (const { key, probe, what } of fixture.released) await expectFree(client(server, key), probe, what);
  });
});
