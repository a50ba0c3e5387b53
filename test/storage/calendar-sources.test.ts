// Calendar sources' storage (src/storage/kysely/calendar-sources.ts) on both engines: the sync
// leases that let one instance at a time sync a source, and busy time's overlap reads (short
// intervals sought by start, long ones scanned), which must find every interval that overlaps;
// and the rules a booking decision reads, which share-lock the holder's sources.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/app/ports/store.js';
import { defaultAvailability } from '../../src/domain/availability.js';
import { availabilityOf } from '../../src/domain/schedule.js';
import type { CalendarSource } from '../../src/domain/calendar-source.js';
import { DAY_MS, MINUTE_MS } from '../../src/domain/instant.js';
import { newId, scheduleRecord } from './records.js';
import { testStoreKind } from '../support/databases.js';
import { T0, addHolder, addWebhook, eventTypeOf, store, testStore, useFreshStorage } from './fixture.js';

useFreshStorage();

async function addSource(holderId: string, nextSyncAt: number): Promise<CalendarSource> {
  const source: CalendarSource = {
    id: newId('cal'),
    holderId,
    type: 'ics',
    name: null,
    url: 'https://calendar.example.com/…',
    status: 'pending',
    lastSyncedAt: null,
    lastError: null,
    writeBookings: false,
    lastWriteError: null,
    createdAt: T0,
    updatedAt: T0,
  };
  await store.transaction((tx) =>
    tx.calendarSources.insert(
      { source, sealedAddress: 'sealed', syncState: null, busyDigest: null, failing: false },
      nextSyncAt,
    ),
  );
  return source;
}

/** The leases are writes: each in a transaction of its own, as the worker takes them. */
const claimDue = (...args: Parameters<Transaction['calendarSources']['claimDue']>) =>
  store.transaction((tx) => tx.calendarSources.claimDue(...args));
const claim = (...args: Parameters<Transaction['calendarSources']['claim']>) =>
  store.transaction((tx) => tx.calendarSources.claim(...args));
const release = (...args: Parameters<Transaction['calendarSources']['release']>) =>
  store.transaction((tx) => tx.calendarSources.release(...args));

describe('sync leases', () => {
  it('when two instances claim at once, then each due source goes to one of them, and none that is not due', async () => {
    const holder = await addHolder('alice');
    const due = await Promise.all([1, 2, 3, 4].map(() => addSource(holder.id, T0)));
    await addSource(holder.id, T0 + 60_000);
    const [first, second] = await Promise.all([claimDue(T0, T0 + 30_000, 3), claimDue(T0, T0 + 30_000, 3)]);
    const claimed = [...first!, ...second!].map((c) => c.id);
    expect(claimed.sort()).toEqual(due.map((s) => s.id).sort());
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(first!.every((c) => c.holderId === holder.id)).toBe(true);
  });

  it('when a lease is live, then neither claim takes the source; once it lapsed or was released, they do', async () => {
    const holder = await addHolder('alice');
    const source = await addSource(holder.id, T0);
    expect(await claim(holder.id, source.id, T0, T0 + 30_000)).toBe(true);
    expect(await claim(holder.id, source.id, T0 + 1, T0 + 30_000)).toBe(false);
    expect(await claimDue(T0 + 1, T0 + 30_000, 10)).toEqual([]);
    // A crashed instance's lease lapses.
    expect(await claimDue(T0 + 30_000, T0 + 60_000, 10)).toEqual([{ id: source.id, holderId: holder.id }]);
    await release(source.id, T0 + 90_000);
    expect(await claimDue(T0 + 60_000, T0 + 90_000, 10)).toEqual([]);
    expect(await claim(holder.id, source.id, T0 + 60_000, T0 + 90_000)).toBe(true);
  });

  it('when another holder claims a source by id, then it gets nothing', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const source = await addSource(alice.id, T0);
    expect(await claim(bob.id, source.id, T0, T0 + 30_000)).toBe(false);
  });
});

describe('busy time overlap reads', () => {
  it('when intervals of several lengths and sources lie around a range, then exactly those that overlap it are read and listed', async () => {
    const holder = await addHolder('alice');
    const a = await addSource(holder.id, T0);
    const b = await addSource(holder.id, T0);
    const hour = 60 * MINUTE_MS;
    const spans = {
      // Short ones around [T0 + 10 h, T0 + 12 h).
      endsAtFrom: { start: T0 + 9 * hour, end: T0 + 10 * hour },
      crossesFrom: { start: T0 + 9 * hour, end: T0 + 10 * hour + 1 },
      inside: { start: T0 + 11 * hour, end: T0 + 11 * hour + 30 * MINUTE_MS },
      startsAtTo: { start: T0 + 12 * hour, end: T0 + 13 * hour },
      // A day long, from just before the day before: overlaps, and is still a short one.
      dayLong: { start: T0 + 10 * hour + 1 - DAY_MS, end: T0 + 10 * hour + 1 },
      // A vacation of two weeks that began long before.
      vacation: { start: T0 - 10 * DAY_MS, end: T0 + 4 * DAY_MS },
      // A long one that ended before.
      pastConference: { start: T0 - 10 * DAY_MS, end: T0 - 7 * DAY_MS },
    };
    await store.transaction(async (tx) => {
      await tx.busyTime.replace(holder.id, a.id, [
        spans.pastConference,
        spans.endsAtFrom,
        spans.inside,
        spans.startsAtTo,
      ]);
      await tx.busyTime.replace(holder.id, b.id, [spans.vacation, spans.dayLong, spans.crossesFrom]);
    });
    const from = T0 + 10 * hour;
    const to = T0 + 12 * hour;
    const read = await store.busyTime.overlapping(holder.id, from, to);
    const key = (s: { start: number; end: number }) => `${s.start}-${s.end}`;
    expect(read.map(key).sort()).toEqual(
      [spans.crossesFrom, spans.inside, spans.dayLong, spans.vacation].map(key).sort(),
    );
    const judged = await store.transaction((tx) => tx.busyTime.overlapping(holder.id, from, to));
    expect(judged.map(key).sort()).toEqual(read.map(key).sort());
    const listed = await store.busyTime.list(holder.id, from, to, { limit: 10, after: null });
    expect(listed.map((s) => s.start)).toEqual([...listed.map((s) => s.start)].sort((x, y) => x - y));
    expect(listed).toHaveLength(4);

    // Replacing one source's busy time leaves the other's.
    await store.transaction((tx) => tx.busyTime.replace(holder.id, b.id, []));
    expect((await store.busyTime.overlapping(holder.id, from, to)).map(key)).toEqual([key(spans.inside)]);
  });
});

describe('decision rules', () => {
  it('when a decision reads its rules, then it gets the live event type, the schedule it books in (its own, else the holder’s default one), how many sources it has and its active webhooks', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const intro = eventTypeOf(alice.id, { title: 'Intro call' });
    await store.transaction((tx) => tx.eventTypes.insert(intro));
    const rules = (eventTypeId: string, holderId = alice.id) =>
      store.transaction((tx) => tx.decisions.rulesFor(holderId, eventTypeId));

    expect(await rules(intro.id)).toEqual({
      eventType: intro,
      schedule: defaultAvailability(),
      sources: 0,
      webhooks: [],
    });

    const berlin = { ...(await store.schedules.defaultOf(alice.id))!, timeZone: 'Europe/Berlin', updatedAt: T0 + 1 };
    const mornings = scheduleRecord(alice.id, T0);
    const bobs = scheduleRecord(bob.id, T0, { timeZone: 'Asia/Tokyo' });
    const morningCall = eventTypeOf(alice.id, { title: 'Morning call', scheduleId: mornings.id });
    await store.transaction(async (tx) => {
      await tx.schedules.update(berlin);
      await tx.schedules.insert(mornings);
      await tx.eventTypes.insert(morningCall);
    });
    await store.transaction((tx) => tx.schedules.insert(bobs));
    await addSource(alice.id, T0);
    await addSource(alice.id, T0);
    await addSource(bob.id, T0);
    const withAll = await rules(intro.id);
    expect(withAll?.schedule).toEqual(availabilityOf(berlin));
    expect(withAll?.sources).toBe(2);
    expect((await rules(morningCall.id))?.schedule).toEqual(availabilityOf(mornings));

    // The active ones only, the holder's only, oldest first (an event's deliveries follow this order).
    const later = await addWebhook(alice.id, { events: ['booking.cancelled'], createdAt: T0 + 2 });
    const earlier = await addWebhook(alice.id, { createdAt: T0 + 1 });
    await addWebhook(alice.id, { active: false });
    await addWebhook(bob.id);
    expect((await rules(intro.id))?.webhooks).toEqual([
      { id: earlier.id, events: earlier.events },
      { id: later.id, events: ['booking.cancelled'] },
    ]);

    // Another holder's event type, or a deleted one, is no rule to book by.
    expect(await rules(intro.id, bob.id)).toBeUndefined();
    await store.transaction((tx) => tx.eventTypes.delete(alice.id, intro.id, T0 + 2));
    expect(await rules(intro.id)).toBeUndefined();
  });

  it.skipIf(testStoreKind() !== 'postgres')(
    'when a sync holds one of the holder’s sources, then a decision’s rules wait for its commit (PostgreSQL)',
    async () => {
      const alice = await addHolder('alice');
      const intro = eventTypeOf(alice.id);
      await store.transaction((tx) => tx.eventTypes.insert(intro));
      const source = await addSource(alice.id, T0);
      const sync = new pg.Client({ connectionString: testStore.databaseUrl });
      await sync.connect();
      try {
        await sync.query('begin');
        await sync.query('select id from calendar_sources where id = $1 for update', [source.id]);
        let answered = false;
        const rules = store
          .transaction((tx) => tx.decisions.rulesFor(alice.id, intro.id))
          .then((found) => {
            answered = true;
            return found;
          });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(answered).toBe(false);
        await sync.query('commit');
        expect((await rules)?.sources).toBe(1);
      } finally {
        await sync.end();
      }
    },
  );
});
