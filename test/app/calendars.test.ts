// GET /slots answers from a per-process cache of each holder's calendar (src/app/calendars.ts).
// These tests change the data through a second store on the same database — what another server
// process would do — and check that the first process's answers follow, within the moment its
// change signal takes to hear of the other's commit (SQLite: at once; PostgreSQL: a
// poll, a tenth of a second; see docs/architecture.md, "PostgreSQL's change poll").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestOf } from '../../src/app/key-cache.js';
import { callerOfKey } from '../support/callers.js';
import { replaceAvailability } from '../../src/app/availability.js';
import { cancelBooking } from '../../src/app/booking-changes.js';
import { createBooking } from '../../src/app/bookings.js';
import { CalendarCache, offerOf } from '../../src/app/calendars.js';
import type { AppContext, Caller } from '../../src/app/context.js';
import type { BookingReads, Reads, ScheduleReads } from '../../src/app/ports/store.js';
import { deleteEventType, updateEventType } from '../../src/app/event-types.js';
import { createSchedule, replaceSchedule } from '../../src/app/schedules.js';
import type { Availability } from '../../src/domain/availability.js';
import { Zones } from '../../src/domain/zone.js';
import { composeServer, type Server } from '../../src/server.js';
import { openStorage, parseDatabaseUrl } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { createHarness, type Harness } from '../support/harness.js';
import {
  BEFORE_MONDAY,
  book,
  createEventType,
  expectInvalid,
  getSlots,
  startsOf,
  type EventTypeBody,
} from '../http/helpers.js';

let h: Harness;
let token: string;
let et: EventTypeBody;
/** The "other process": its own storage and wiring (own connections, own calendar cache) on the same database. */
let other: Storage;
let otherServer: Server;
let otherContext: AppContext;
let caller: Caller;

beforeEach(async () => {
  h = await createHarness({ now: BEFORE_MONDAY });
  token = await h.key('alice');
  et = await createEventType(h, token, { durationMinutes: 30 });
  other = await openStorage(parseDatabaseUrl(h.database.databaseUrl), { poolSize: 2, statementTimeoutMs: 10_000 });
  otherServer = await composeServer(other, h.settings);
  otherContext = otherServer.context;
  const key = await other.store.apiKeys.findByDigest(digestOf(token));
  if (!key) throw new Error('the other store does not see the key: not the same database');
  caller = callerOfKey(key);
});

afterEach(async () => {
  await otherServer.close();
  await other.close();
  await h.close();
});

const MONDAY = { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' };
const mondayRange = (): [number, number] => [Date.parse(MONDAY.from), Date.parse(MONDAY.to)];
const mondaySlots = (eventTypeId = et.id) => getSlots(h, token, { eventTypeId, ...MONDAY });
const rawMondaySlots = (eventTypeId = et.id) =>
  h.request({ method: 'GET', url: `/api/v1/slots?${new URLSearchParams({ eventTypeId, ...MONDAY })}`, token });
/**
 * How long the other process's commit may take to show: some 600 ms idle on PostgreSQL (a 100 ms
 * poll and a 500 ms trust), more on a loaded machine; a commit not heard would never show.
 */
const HEARD_WITHIN_MS = 3_000;

/** Monday's starts once they show the other process's last commit. */
const mondayStartsBecome = (expected: string[], eventTypeId = et.id) =>
  expect
    .poll(async () => startsOf(await mondaySlots(eventTypeId)), { timeout: HEARD_WITHIN_MS, interval: 5 })
    .toEqual(expected);

/** Every start from `first` in `stepMinutes` steps, `count` of them, as UTC `.000Z` strings. */
function grid(first: string, stepMinutes: number, count: number): string[] {
  const start = Date.parse(first);
  return Array.from({ length: count }, (_, i) => new Date(start + i * stepMinutes * 60_000).toISOString());
}

/** The default availability's Monday: every 30-minute start from 09:00 to 16:30 UTC. */
const DEFAULT_MONDAY = grid('2026-01-05T09:00:00Z', 30, 16);

function weekdays(hours: Array<{ start: string; end: string }>): Availability {
  return {
    timeZone: 'UTC',
    weekly: {
      monday: hours,
      tuesday: hours,
      wednesday: hours,
      thursday: hours,
      friday: hours,
      saturday: [],
      sunday: [],
    },
    overrides: [],
  };
}

describe('GET /api/v1/slots with the calendar changed by another process', () => {
  it('when the other process books a slot, then it is gone from the list, and back once the other process cancels the booking', async () => {
    expect(startsOf(await mondaySlots())).toEqual(DEFAULT_MONDAY);

    const booking = await createBooking(otherContext, caller, {
      eventTypeId: et.id,
      start: '2026-01-05T10:00:00Z',
      guestName: 'Ada Lovelace',
      guestEmail: 'ada@example.com',
    });
    await mondayStartsBecome(DEFAULT_MONDAY.filter((s) => s !== '2026-01-05T10:00:00.000Z'));

    await cancelBooking(otherContext, caller, booking.id, 'cannot make it');
    await mondayStartsBecome(DEFAULT_MONDAY);
  });

  it('when the other process closes every day, then no slots are listed, and when it sets other hours, then the slots follow them', async () => {
    expect(startsOf(await mondaySlots())).toEqual(DEFAULT_MONDAY);

    await replaceAvailability(otherContext, caller, weekdays([]));
    await mondayStartsBecome([]);

    await replaceAvailability(otherContext, caller, weekdays([{ start: '13:00', end: '15:00' }]));
    await mondayStartsBecome(grid('2026-01-05T13:00:00Z', 30, 4));
  });

  it('when the other process deletes the event type, then 400 on eventTypeId', async () => {
    expect(startsOf(await mondaySlots())).toEqual(DEFAULT_MONDAY);

    await deleteEventType(otherContext, caller, et.id);
    await expect
      .poll(async () => (await rawMondaySlots()).statusCode, { timeout: HEARD_WITHIN_MS, interval: 5 })
      .toBe(400);
    expectInvalid(await rawMondaySlots(), ['eventTypeId']);
  });

  it('when the other process lengthens the event type from 30 to 60 minutes, then the slots end an hour after they start', async () => {
    const before = await mondaySlots();
    expect(before[0]).toEqual({ start: '2026-01-05T09:00:00.000Z', end: '2026-01-05T09:30:00.000Z' });

    await updateEventType(otherContext, caller, et.id, { durationMinutes: 60 });
    await mondayStartsBecome(grid('2026-01-05T09:00:00Z', 60, 8));
    const after = await mondaySlots();
    // The interval follows the duration, as none was set explicitly.
    expect(startsOf(after)).toEqual(grid('2026-01-05T09:00:00Z', 60, 8));
    for (const slot of after) expect(Date.parse(slot.end) - Date.parse(slot.start), slot.start).toBe(60 * 60_000);
    expect(after.at(-1)).toEqual({ start: '2026-01-05T16:00:00.000Z', end: '2026-01-05T17:00:00.000Z' });
  });

  it('when another event type of the holder changes in the other process, then this one’s slots are listed as before', async () => {
    const second = await createEventType(h, token, { durationMinutes: 45 });
    const before = await mondaySlots();

    await updateEventType(otherContext, caller, second.id, { durationMinutes: 90 });
    await mondayStartsBecome(grid('2026-01-05T09:00:00Z', 90, 5), second.id);
    expect(await mondaySlots()).toEqual(before);
  });
});

describe('GET /api/v1/slots repeated', () => {
  it('when the same query is repeated with no change in between, then the body is identical each time', async () => {
    const first = await rawMondaySlots();
    expect(first.statusCode, first.body).toBe(200);
    // The queries below are answered from this very calendar, not from a reload.
    const cached = await h.context.calendars.current(caller.holderId, h.clock.now());
    const second = await rawMondaySlots();
    const third = await rawMondaySlots();
    expect(await h.context.calendars.current(caller.holderId, h.clock.now())).toBe(cached);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(third.body).toBe(first.body);
    expect(startsOf(first.json<{ data: Array<{ start: string; end: string }> }>().data)).toEqual(DEFAULT_MONDAY);
  });

  it('when the other process books and cancels between two identical queries, then the body is identical again', async () => {
    const first = await rawMondaySlots();
    const booking = await createBooking(otherContext, caller, {
      eventTypeId: et.id,
      start: '2026-01-05T16:30:00Z',
      guestName: 'Ada Lovelace',
      guestEmail: 'ada@example.com',
    });
    await cancelBooking(otherContext, caller, booking.id, null);
    const second = await rawMondaySlots();
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
  });
});

describe('GET /api/v1/slots inside and beyond the cached slot track', () => {
  it('when a range reaches past what the cached calendar holds, then it lists what the cached track lists where the two meet', async () => {
    // The track covers up to 68 days after the calendar was loaded; ranges reaching past that are
    // computed on their own. Both are cut here around a booked slot and must agree.
    const now = h.clock.now();
    const day = (n: number) => new Date(now + n * 86_400_000).toISOString();
    await getSlots(h, token, { eventTypeId: et.id, from: day(1), to: day(2) }); // loads the calendar
    const weekday = new Date(now + 64 * 86_400_000);
    while (weekday.getUTCDay() === 0 || weekday.getUTCDay() === 6) weekday.setUTCDate(weekday.getUTCDate() + 1);
    weekday.setUTCHours(10, 0, 0, 0);
    await book(h, token, et.id, weekday.toISOString());

    const beyond = startsOf(await getSlots(h, token, { eventTypeId: et.id, from: day(60), to: day(71) }));
    const inside = startsOf(await getSlots(h, token, { eventTypeId: et.id, from: day(60), to: day(67) }));
    const rest = startsOf(await getSlots(h, token, { eventTypeId: et.id, from: day(67), to: day(71) }));
    expect(inside.length).toBeGreaterThan(0);
    expect(rest.length).toBeGreaterThan(0);
    expect([...inside, ...rest]).toEqual(beyond);
    expect(beyond).not.toContain(weekday.toISOString());
  });
});

/** `reads` with its calendar loads counted (each reads the occupancies once) and, while `failing`, refused there. */
function countingLoads(reads: Reads): { reads: Reads; tally: { loads: number; failing: boolean } } {
  const tally = { loads: 0, failing: false };
  const real = reads.bookings;
  const occupanciesOverlappingOf: BookingReads['occupanciesOverlappingOf'] = (...args) => {
    tally.loads++;
    return tally.failing ? Promise.reject(new Error('the database is away')) : real.occupanciesOverlappingOf(...args);
  };
  const bookings = new Proxy(real, {
    get: (target, name) =>
      name === 'occupanciesOverlappingOf'
        ? occupanciesOverlappingOf
        : (Reflect.get(target, name) as unknown) instanceof Function
          ? (Reflect.get(target, name) as (...args: unknown[]) => unknown).bind(target)
          : Reflect.get(target, name),
  });
  return { reads: { ...reads, bookings }, tally };
}

describe('the cached slot track after a change of bookings (issue 16)', () => {
  const HOUR = 3_600_000;

  /** The holder's whole track for `et` as a cache that never saw an earlier calendar computes it. */
  async function trackAfresh(): Promise<number[]> {
    const fresh = new CalendarCache(h.store, new Zones());
    const calendar = (await fresh.current(caller.holderId, h.clock.now()))!;
    const track = fresh.slotTrack(
      caller.holderId,
      calendar,
      offerOf(calendar.eventTypes.get(et.id)!),
      ...mondayRange(),
    );
    expect(fresh.trackComputations()).toEqual({ full: 1, derived: 0 });
    return [...(track ?? [])];
  }

  /** The track the server's own cache holds now, computed or derived. */
  async function trackCached(): Promise<number[]> {
    const calendar = (await h.context.calendars.current(caller.holderId, h.clock.now()))!;
    const track = h.context.calendars.slotTrack(
      caller.holderId,
      calendar,
      offerOf(calendar.eventTypes.get(et.id)!),
      ...mondayRange(),
    );
    return [...(track ?? [])];
  }

  it('when bookings are made and cancelled between queries, then each next query derives the track from the cached one, never computing it in full again, and lists what a full computation lists', async () => {
    // A daily cap makes every booking's whole local day count.
    const capped = await createEventType(h, token, {
      durationMinutes: 30,
      bufferAfterMinutes: 15,
      maxBookingsPerDay: 2,
    });
    et = capped;
    expect(startsOf(await mondaySlots())).not.toEqual([]);
    const first = h.context.calendars.trackComputations();

    const monday10 = await book(h, token, et.id, '2026-01-05T10:00:00Z');
    expect(startsOf(await mondaySlots())).not.toContain('2026-01-05T10:00:00.000Z');
    await book(h, token, et.id, '2026-01-05T14:00:00Z');
    // Two of two: Monday is full.
    expect(await mondaySlots()).toEqual([]);
    // A later reload covers later days too: the track moves with it.
    h.clock.set(h.clock.now() + 5 * HOUR);
    await cancelBooking(h.context, caller, monday10.id, null);
    expect(startsOf(await mondaySlots())).toEqual(
      // 14:00 is booked until 14:45 with its buffer; 13:30 and 14:30 would overlap that with theirs.
      DEFAULT_MONDAY.filter((s) => !['13:30', '14:00', '14:30'].some((time) => s.includes(`T${time}`))),
    );

    expect(h.context.calendars.trackComputations()).toEqual({ full: first.full, derived: first.derived + 3 });
    expect(await trackCached()).toEqual(await trackAfresh());
  });

  it('when the hours change, then the next query computes the track in full', async () => {
    await mondaySlots();
    const before = h.context.calendars.trackComputations();
    await replaceAvailability(h.context, caller, weekdays([{ start: '13:00', end: '15:00' }]));
    expect(startsOf(await mondaySlots())).toEqual(grid('2026-01-05T13:00:00Z', 30, 4));
    expect(h.context.calendars.trackComputations()).toEqual({ full: before.full + 1, derived: before.derived });
  });
});

describe('CalendarCache loads under concurrent requests', () => {
  it('when 64 requests see a new calendar version at once, then the calendar is loaded once, and all of them share it and one track computed once', async () => {
    const { reads, tally } = countingLoads(h.store);
    const cache = new CalendarCache(reads, new Zones());
    const now = h.clock.now();
    await cache.current(caller.holderId, now);
    await book(h, token, et.id, '2026-01-05T10:00:00Z');
    const loaded = tally.loads;
    const computed = cache.trackComputations();

    // As the requests' keys tell them: the version comes with the key.
    const version = await h.store.holders.calendarVersion(caller.holderId);
    const calendars = await Promise.all(Array.from({ length: 64 }, () => cache.current(caller.holderId, now, version)));
    expect(tally.loads).toBe(loaded + 1);
    expect(new Set(calendars).size).toBe(1);
    const tracks = calendars.map((calendar) =>
      cache.slotTrack(caller.holderId, calendar!, offerOf(calendar!.eventTypes.get(et.id)!), ...mondayRange()),
    );
    expect(new Set(tracks).size).toBe(1);
    const after = cache.trackComputations();
    expect(after.full + after.derived).toBe(computed.full + computed.derived + 1);
  });

  it('when the one load fails, then the requests waiting for it fail with it, and the next request loads again', async () => {
    const { reads, tally } = countingLoads(h.store);
    const cache = new CalendarCache(reads, new Zones());
    const now = h.clock.now();
    const version = await h.store.holders.calendarVersion(caller.holderId);
    tally.failing = true;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => cache.current(caller.holderId, now, version)),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(8).fill('rejected'));
    expect(tally.loads).toBe(1);

    tally.failing = false;
    const calendar = await cache.current(caller.holderId, now);
    expect(calendar?.eventTypes.has(et.id)).toBe(true);
    expect(tally.loads).toBe(2);
    expect(await cache.current(caller.holderId, now)).toBe(calendar);
  });
});

const eveningsInBerlin = {
  name: 'Evenings',
  timeZone: 'Europe/Berlin',
  weekly: { monday: [{ start: '18:00', end: '20:00' }] },
};

describe('calendars of many holders loaded together (a cold team query, issue 28)', () => {
  it('when one of two holders’ event types moved to a schedule the first read missed, then only that holder is read again, and each holder gets its own calendar', async () => {
    const bob = callerOfKey((await h.store.apiKeys.findByDigest(digestOf(await h.key('bob'))))!);
    const bobType = await createEventType(h, await h.key('bob'), { durationMinutes: 45 });
    const evenings = await createSchedule(h.context, caller, eveningsInBerlin);
    await updateEventType(h.context, caller, et.id, { scheduleId: evenings.id });
    const scheduleReads: string[][] = [];
    const schedules: ScheduleReads = {
      get: (...args) => h.store.schedules.get(...args),
      defaultOf: (...args) => h.store.schedules.defaultOf(...args),
      list: (...args) => h.store.schedules.list(...args),
      // The first read is from before Alice's schedule was made.
      allOf: async (holderIds) => {
        const all = await h.store.schedules.allOf(holderIds);
        scheduleReads.push([...holderIds]);
        return scheduleReads.length === 1 ? all.filter((schedule) => schedule.id !== evenings.id) : all;
      },
    };
    const cache = new CalendarCache({ ...h.store, schedules }, new Zones());
    const versionOf = async (holderId: string) => (await h.store.holders.calendarVersion(holderId))!;
    const holders = [
      { holderId: caller.holderId, version: await versionOf(caller.holderId) },
      { holderId: bob.holderId, version: await versionOf(bob.holderId) },
    ];
    const [alice, bobs] = await cache.currentOf(holders, h.clock.now());
    expect(scheduleReads).toEqual([[caller.holderId, bob.holderId], [caller.holderId]]);
    expect(alice!.schedules.has(evenings.id)).toBe(true);
    expect([...alice!.eventTypes.keys()]).toEqual([et.id]);
    expect([...bobs!.eventTypes.keys()]).toEqual([bobType.id]);
    // Each is cached as its holder's own: asking for one alone reads nothing more.
    expect(await cache.current(bob.holderId, h.clock.now(), holders[1]!.version)).toBe(bobs);
    expect(scheduleReads).toHaveLength(2);
  });

  it('when a holder’s calendar is being loaded with others’ and another request asks for it alone, then it waits for that load', async () => {
    const bob = callerOfKey((await h.store.apiKeys.findByDigest(digestOf(await h.key('bob'))))!);
    const { reads, tally } = countingLoads(h.store);
    const cache = new CalendarCache(reads, new Zones());
    const now = h.clock.now();
    const holders = await Promise.all(
      [caller.holderId, bob.holderId].map(async (holderId) => ({
        holderId,
        version: (await h.store.holders.calendarVersion(holderId))!,
      })),
    );
    const [together, alone] = await Promise.all([
      cache.currentOf(holders, now),
      cache.current(bob.holderId, now, holders[1]!.version),
    ]);
    expect(tally.loads).toBe(1);
    expect(alone).toBe(together[1]);
  });
});

describe('schedules in the calendar (contract §13)', () => {
  it('when the other process moves the event type to another schedule and then replaces that schedule, then its slots follow each time, and another event type’s stay on the default hours', async () => {
    const second = await createEventType(h, token, { durationMinutes: 30 });
    expect(startsOf(await mondaySlots())).toEqual(DEFAULT_MONDAY);

    const evenings = await createSchedule(otherContext, caller, eveningsInBerlin);
    await updateEventType(otherContext, caller, et.id, { scheduleId: evenings.id });
    // 18:00–20:00 in Berlin is 17:00–19:00 UTC in January.
    await mondayStartsBecome(grid('2026-01-05T17:00:00Z', 30, 4));

    await replaceSchedule(otherContext, caller, evenings.id, {
      ...eveningsInBerlin,
      weekly: { monday: [{ start: '07:00', end: '08:00' }] },
    });
    await mondayStartsBecome(grid('2026-01-05T06:00:00Z', 30, 2));
    expect(startsOf(await mondaySlots(second.id))).toEqual(DEFAULT_MONDAY);
  });

  it('when the event type moved to a schedule made between the calendar’s read of the schedules and its read of the event types, then it reads both again until they agree', async () => {
    const evenings = await createSchedule(h.context, caller, eveningsInBerlin);
    await updateEventType(h.context, caller, et.id, { scheduleId: evenings.id });
    let scheduleReads = 0;
    const schedules: ScheduleReads = {
      get: (...args) => h.store.schedules.get(...args),
      defaultOf: (...args) => h.store.schedules.defaultOf(...args),
      list: (...args) => h.store.schedules.list(...args),
      // The first read is from before the schedule was made.
      allOf: async (holderIds) => {
        const all = await h.store.schedules.allOf(holderIds);
        return scheduleReads++ === 0 ? all.filter((schedule) => schedule.id !== evenings.id) : all;
      },
    };
    const cache = new CalendarCache({ ...h.store, schedules }, new Zones());
    const calendar = (await cache.current(caller.holderId, h.clock.now()))!;
    expect(scheduleReads).toBe(2);
    expect([...calendar.schedules.keys()].sort()).toEqual([evenings.id, calendar.defaultScheduleId].sort());
    const track = cache.slotTrack(
      caller.holderId,
      calendar,
      offerOf(calendar.eventTypes.get(et.id)!),
      ...mondayRange(),
    );
    // The track spans what the calendar decides: its Monday is the schedule's evening.
    const [from, to] = mondayRange();
    const monday = [...(track ?? [])].filter((start) => start >= from && start < to);
    expect(monday.map((start) => new Date(start).toISOString())).toEqual(grid('2026-01-05T17:00:00Z', 30, 4));
  });
});
