// The calendar store (src/app/ports/store.ts) as the use cases rely on it, on both engines:
// transactions, uniqueness, keyset paging, overlap queries, the calendar version and the outbox.
import { describe, expect, it, beforeEach } from 'vitest';
import type { Booking } from '../../src/domain/booking.js';
import type { EventType } from '../../src/domain/event-type.js';
import { UniqueViolation } from '../../src/app/ports/storage-errors.js';
import type { Transaction } from '../../src/app/ports/store.js';
import type { ApiKey, Holder } from '../../src/domain/api-key.js';
import type { Webhook } from '../../src/domain/webhook.js';
import { at, newHolder, newId, scheduleRecord } from './records.js';
import { testStoreKind } from '../support/databases.js';
import {
  T0,
  testStore,
  storage,
  store,
  addHolder,
  eventTypeOf,
  addEventType,
  bookingOf,
  addBooking,
  addWebhook,
  enqueue,
  attemptOf,
  count,
  allPages,
  byKeyThenId,
  useFreshStorage,
} from './fixture.js';

useFreshStorage();

// ---- transactions

describe('transactions', () => {
  it('when the work throws after writing, then none of its writes remain (the outbox event included) and the error comes out unchanged', async () => {
    const holder = await addHolder('alice');
    const webhook = await addWebhook(holder.id);
    const eventType = eventTypeOf(holder.id);
    const failure = new Error('changed my mind');

    await expect(
      store.transaction(async (tx) => {
        await tx.eventTypes.insert(eventType);
        await tx.bookings.insert(bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z'));
        await tx.schedules.insert(scheduleRecord(holder.id, T0));
        await tx.outbox.enqueue(
          { id: newId('msg'), holderId: holder.id, type: 'booking.created', payload: '{}', createdAt: T0 },
          [{ id: newId('dlv'), webhookId: webhook.id }],
        );
        // Visible inside the transaction…
        expect(await tx.eventTypes.get(holder.id, eventType.id)).toEqual(eventType);
        throw failure;
      }),
    ).rejects.toBe(failure);

    // …and nowhere after it.
    for (const table of ['event_types', 'bookings', 'webhook_events', 'webhook_deliveries']) {
      expect(await count(table), table).toBe(0);
    }
    expect(await store.eventTypes.get(holder.id, eventType.id)).toBeUndefined();
    // The holder's default schedule, made with it, alone.
    expect((await store.schedules.allOf([holder.id])).map((schedule) => schedule.isDefault)).toEqual([true]);
  });

  it('when a statement of the work fails, then the earlier writes of the same transaction are rolled back and the store keeps working', async () => {
    const holder = await addHolder('alice');
    const first = eventTypeOf(holder.id, { slug: 'first' });
    await addEventType(holder.id, { slug: 'taken' });

    await expect(
      store.transaction(async (tx) => {
        await tx.eventTypes.insert(first);
        await tx.eventTypes.insert(eventTypeOf(holder.id, { slug: 'taken' }));
      }),
    ).rejects.toBeInstanceOf(UniqueViolation);
    expect(await store.eventTypes.get(holder.id, first.id)).toBeUndefined();

    // The connection that failed is usable again: the same write on its own commits.
    await store.transaction((tx) => tx.eventTypes.insert(first));
    expect(await store.eventTypes.get(holder.id, first.id)).toEqual(first);
  });

  it('when the work returns, then its writes are committed together and its result is returned', async () => {
    const holder = await addHolder('alice');
    const eventType = eventTypeOf(holder.id);
    const booking = bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    const result = await store.transaction(async (tx) => {
      await tx.eventTypes.insert(eventType);
      await tx.bookings.insert(booking);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await store.eventTypes.get(holder.id, eventType.id)).toEqual(eventType);
    expect(await store.bookings.get({ holderId: holder.id }, booking.id)).toEqual(booking);
  });
});

describe('transactions started at once', () => {
  // SQLite runs these in one commit (group commit, each in its own savepoint); PostgreSQL runs them
  // in parallel. Either way each one succeeds or fails as if it had run alone.
  it('when one of several concurrent transactions fails, then only its writes are undone and the others commit', async () => {
    const holder = await addHolder('alice');
    const [a, b, c] = ['a', 'b', 'c'].map((slug) => eventTypeOf(holder.id, { slug }));
    const failure = new Error('changed my mind');

    const results = await Promise.allSettled([
      store.transaction((tx) => tx.eventTypes.insert(a!)),
      store.transaction(async (tx) => {
        await tx.eventTypes.insert(b!);
        throw failure;
      }),
      store.transaction(async (tx) => {
        await tx.eventTypes.insert(c!);
        return 'c';
      }),
    ]);

    expect(results).toEqual([
      { status: 'fulfilled', value: undefined },
      { status: 'rejected', reason: failure },
      { status: 'fulfilled', value: 'c' },
    ]);
    expect(await store.eventTypes.get(holder.id, a!.id)).toEqual(a);
    expect(await store.eventTypes.get(holder.id, b!.id)).toBeUndefined();
    expect(await store.eventTypes.get(holder.id, c!.id)).toEqual(c);
  });

  it('when concurrent transactions insert the same slug, then exactly one commits, the other gets UniqueViolation, and an unrelated one commits', async () => {
    const holder = await addHolder('alice');
    const first = eventTypeOf(holder.id, { slug: 'intro' });
    const second = eventTypeOf(holder.id, { slug: 'intro' });
    const unrelated = eventTypeOf(holder.id, { slug: 'other' });

    const results = await Promise.allSettled(
      [first, second, unrelated].map((eventType) => store.transaction((tx) => tx.eventTypes.insert(eventType))),
    );

    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(UniqueViolation);
    const stored = await store.eventTypes.list(
      { accountId: holder.accountId, holderId: holder.id },
      { limit: 10, after: null },
    );
    expect(stored.map((e) => e.slug).sort()).toEqual(['intro', 'other']);
  });

  it('when a hundred transactions run at once, then each result is its own and every write is stored', async () => {
    const holder = await addHolder('alice');
    const eventTypes = Array.from({ length: 100 }, (_, i) => eventTypeOf(holder.id, { slug: `type-${i}` }));
    const results = await Promise.all(
      eventTypes.map((eventType, i) =>
        store.transaction(async (tx) => {
          await tx.eventTypes.insert(eventType);
          return i;
        }),
      ),
    );
    expect(results).toEqual(eventTypes.map((_, i) => i));
    expect(await count('event_types')).toBe(100);
  });
});

// ---- uniqueness

describe('unique slugs and names', () => {
  it('when a live event type of the holder has the slug, then inserting another with it rejects with UniqueViolation', async () => {
    const holder = await addHolder('alice');
    await addEventType(holder.id, { slug: 'intro' });
    const duplicate = eventTypeOf(holder.id, { slug: 'intro' });
    await expect(store.transaction((tx) => tx.eventTypes.insert(duplicate))).rejects.toBeInstanceOf(UniqueViolation);
    expect(await store.eventTypes.get(holder.id, duplicate.id)).toBeUndefined();
  });

  it('when another holder has the slug, then the insert succeeds', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    await addEventType(alice.id, { slug: 'intro' });
    const bobs = await addEventType(bob.id, { slug: 'intro' });
    expect(await store.eventTypes.get(bob.id, bobs.id)).toEqual(bobs);
  });

  it('when the event type holding a slug is deleted, then it is not found, its slug is free and can be taken again', async () => {
    const holder = await addHolder('alice');
    const old = await addEventType(holder.id, { slug: 'intro' });
    expect(await store.eventTypes.slugsLike(holder.id, 'intro')).toEqual(new Set(['intro']));

    expect(await store.transaction((tx) => tx.eventTypes.delete(holder.id, old.id, T0 + 1000))).toBe(true);
    expect(await store.transaction((tx) => tx.eventTypes.delete(holder.id, old.id, T0 + 2000))).toBe(false);
    expect(await store.eventTypes.get(holder.id, old.id)).toBeUndefined();
    expect(await store.eventTypes.slugsLike(holder.id, 'intro')).toEqual(new Set());

    const again = await addEventType(holder.id, { slug: 'intro' });
    expect(await store.eventTypes.get(holder.id, again.id)).toEqual(again);
    // The new live one holds the slug as the first did.
    await expect(
      store.transaction((tx) => tx.eventTypes.insert(eventTypeOf(holder.id, { slug: 'intro' }))),
    ).rejects.toBeInstanceOf(UniqueViolation);
  });

  it('when slugs like a base are asked for, then exactly the live base and base-N slugs of that holder come back', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    for (const slug of ['intro', 'intro-2', 'intro-call', 'introduction', 'other'])
      await addEventType(alice.id, { slug });
    await addEventType(bob.id, { slug: 'intro-3' });
    const like = await store.eventTypes.slugsLike(alice.id, 'intro');
    expect(like.has('intro')).toBe(true);
    expect(like.has('intro-2')).toBe(true);
    // Callers only test `base` and `base-N` for membership; whether `intro-call` is listed does not matter.
    for (const absent of ['introduction', 'other', 'intro-3']) expect(like.has(absent), absent).toBe(false);
  });

  it('when a holder name is taken, then ensureHolder returns the existing holder', async () => {
    const alice = await addHolder('alice');
    const again = await store.transaction((tx) => tx.holders.ensure(...newHolder(alice.accountId, 'alice', T0 + 1)));
    expect(again).toEqual(alice);
  });

  it('when two transactions ensure the same new holder at once, then both get the one holder', async () => {
    const { accountId } = await addHolder('alice');
    const [a, b] = await Promise.all(
      [1, 2].map(() => store.transaction((tx) => tx.holders.ensure(...newHolder(accountId, 'carol', T0)))),
    );
    expect(a).toEqual(b);
  });
});

// ---- keyset paging

describe('keyset paging', () => {
  it('when event types are paged, then the pages join up in (createdAt, id) order with no duplicates, no gaps and no deleted or foreign rows', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const live: EventType[] = [];
    // Several share a creation time, so the id decides between them.
    for (let i = 0; i < 11; i++) live.push(await addEventType(alice.id, { createdAt: T0 + Math.floor(i / 3) * 1000 }));
    const deleted = await addEventType(alice.id, { createdAt: T0 + 1000 });
    await store.transaction((tx) => tx.eventTypes.delete(alice.id, deleted.id, T0 + 5000));
    await addEventType(bob.id, { createdAt: T0 + 1000 });

    const expected = [...live].sort(byKeyThenId((e: EventType) => e.createdAt)).map((e) => e.id);
    for (const limit of [1, 2, 4, 11, 50]) {
      const pages = await allPages(
        (page) => store.eventTypes.list({ accountId: alice.accountId, holderId: alice.id }, page),
        limit,
        (e) => e.createdAt,
      );
      expect(
        pages.flat().map((e) => e.id),
        `limit ${limit}`,
      ).toEqual(expected);
      expect(
        pages.slice(0, -1).every((p) => p.length === limit),
        `limit ${limit}: only the last page is short`,
      ).toBe(true);
    }
  });

  it('when webhooks are paged, then the pages join up in (createdAt, id) order with no duplicates and no gaps', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const hooks: Webhook[] = [];
    for (let i = 0; i < 7; i++)
      hooks.push(await addWebhook(alice.id, { createdAt: T0 + (i % 3) * 1000, active: i !== 4 }));
    await addWebhook(bob.id);

    const expected = [...hooks].sort(byKeyThenId((w: Webhook) => w.createdAt)).map((w) => w.id);
    for (const limit of [1, 3, 7, 20]) {
      const pages = await allPages(
        (page) => store.webhooks.list({ accountId: alice.accountId, holderId: alice.id }, page),
        limit,
        (w) => w.createdAt,
      );
      expect(
        pages.flat().map((w) => w.id),
        `limit ${limit}`,
      ).toEqual(expected);
    }
    // Inactive webhooks are listed too, and read back as they were written.
    expect(await store.webhooks.get({ accountId: alice.accountId, holderId: alice.id }, hooks[4]!.id)).toEqual(
      hooks[4],
    );
  });

  it('when confirmed bookings are paged, then the pages join up in (start, id) order within [from, to), per event type if asked', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const intro = await addEventType(alice.id);
    const other = await addEventType(alice.id);
    const bobs = await addEventType(bob.id);
    const inRange: Booking[] = [];
    // Five days, two event types; the PostgreSQL constraint forbids overlaps, so distinct hours.
    for (let day = 2; day <= 6; day++) {
      inRange.push(await addBooking(intro, `2026-03-0${day}T09:00:00Z`, `2026-03-0${day}T09:30:00Z`));
      inRange.push(await addBooking(other, `2026-03-0${day}T10:00:00Z`, `2026-03-0${day}T10:30:00Z`));
    }
    await addBooking(intro, '2026-03-01T09:00:00Z', '2026-03-01T09:30:00Z'); // before `from`
    await addBooking(intro, '2026-03-07T00:00:00Z', '2026-03-07T00:30:00Z'); // at `to`: excluded
    await addBooking(intro, '2026-03-04T12:00:00Z', '2026-03-04T12:30:00Z', { status: 'cancelled' });
    await addBooking(intro, '2026-03-04T13:00:00Z', '2026-03-04T13:30:00Z', { status: 'rescheduled' });
    await addBooking(bobs, '2026-03-04T09:00:00Z', '2026-03-04T09:30:00Z');

    const from = at('2026-03-02T00:00:00Z');
    const to = at('2026-03-07T00:00:00Z');
    const expected = [...inRange].sort(byKeyThenId((b: Booking) => b.start));
    for (const limit of [1, 3, 10, 50]) {
      const pages = await allPages(
        (page) => store.bookings.listConfirmed(alice.id, { ...page, from, to, eventTypeId: null }),
        limit,
        (b) => b.start,
      );
      expect(
        pages.flat().map((b) => b.id),
        `limit ${limit}`,
      ).toEqual(expected.map((b) => b.id));
    }
    const onlyIntro = await allPages(
      (page) => store.bookings.listConfirmed(alice.id, { ...page, from, to, eventTypeId: intro.id }),
      2,
      (b) => b.start,
    );
    expect(onlyIntro.flat()).toEqual(expected.filter((b) => b.eventTypeId === intro.id));
  });

  it('when deliveries are paged, then the pages join up newest first by (createdAt, id) descending, with their attempts', async () => {
    const alice = await addHolder('alice');
    const hook = await addWebhook(alice.id);
    const otherHook = await addWebhook(alice.id);
    const mine: Array<{ id: string; createdAt: number }> = [];
    for (let i = 0; i < 4; i++) {
      // Two deliveries of the hook per event time: the id breaks the tie.
      const time = T0 + i * 60_000;
      const [alone] = await enqueue(alice.id, [hook.id], time);
      const [shared] = await enqueue(alice.id, [hook.id, otherHook.id], time);
      mine.push({ id: alone!, createdAt: time }, { id: shared!, createdAt: time });
    }
    const expected = [...mine].sort(byKeyThenId((d: { id: string; createdAt: number }) => d.createdAt, -1));

    const firstId = mine[0]!.id;
    await storage.deliveryQueue.recordAttempt(
      firstId!,
      attemptOf(1, T0 + 1),
      { status: 'pending', nextAttemptAt: T0 + 5000 },
      T0 + 2,
    );

    for (const limit of [1, 3, 8, 20]) {
      const pages = await allPages(
        (page) => store.deliveries.list(hook.id, page),
        limit,
        (d) => d.createdAt,
      );
      const all = pages.flat();
      expect(
        all.map((d) => d.id),
        `limit ${limit}`,
      ).toEqual(expected.map((d) => d.id));
      expect(all.every((d) => d.webhookId === hook.id && d.eventType === 'booking.created')).toBe(true);
      expect(all.find((d) => d.id === firstId)?.attemptLog).toEqual([attemptOf(1, T0 + 1)]);
    }
  });
});

// ---- overlap queries

describe('occupanciesOverlapping', () => {
  let alice: Holder;
  let intro: EventType;
  let bookings: Record<string, Booking>;

  beforeEach(async () => {
    alice = await addHolder('alice');
    const bob = await addHolder('bob');
    intro = await addEventType(alice.id);
    const bobs = await addEventType(bob.id);
    // Alice's confirmed bookings, occupancies (buffers included) disjoint:
    //   b1 [08:00, 09:00)  b2 [09:30, 10:15) (15 min after)  b3 [10:30, 11:00)
    //   b4 [11:15, 12:00) (15 min before)  b5 [13:00, 14:00)
    bookings = {
      b1: await addBooking(intro, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z'),
      b2: await addBooking(intro, '2026-03-02T09:30:00Z', '2026-03-02T10:00:00Z', { bufferAfterMinutes: 15 }),
      b3: await addBooking(intro, '2026-03-02T10:30:00Z', '2026-03-02T11:00:00Z'),
      b4: await addBooking(intro, '2026-03-02T11:30:00Z', '2026-03-02T12:00:00Z', { bufferBeforeMinutes: 15 }),
      b5: await addBooking(intro, '2026-03-02T13:00:00Z', '2026-03-02T14:00:00Z'),
    };
    // Overlapping everything, and never to be returned for Alice.
    await addBooking(intro, '2026-03-02T07:00:00Z', '2026-03-02T15:00:00Z', { status: 'cancelled' });
    await addBooking(intro, '2026-03-02T07:00:00Z', '2026-03-02T15:00:00Z', { status: 'rescheduled' });
    await addBooking(bobs, '2026-03-02T07:00:00Z', '2026-03-02T15:00:00Z');
  });

  async function overlapping(from: string | number, to: string | number, exclude?: string): Promise<string[]> {
    const f = typeof from === 'number' ? from : at(from);
    const t = typeof to === 'number' ? to : at(to);
    const found = await store.bookings.occupanciesOverlapping(alice.id, f, t, T0, exclude);
    const names = found.map(
      (o) => Object.entries(bookings).find(([, b]) => b.start === o.start)?.[0] ?? `unknown@${o.start}`,
    );
    return names.sort();
  }

  it('when the range overlaps bookings only through their buffers, then those bookings are returned with their occupancy', async () => {
    expect(await overlapping('2026-03-02T10:00:00Z', '2026-03-02T11:30:00Z')).toEqual(['b2', 'b3', 'b4']);
    const found = await store.bookings.occupanciesOverlapping(
      alice.id,
      at('2026-03-02T10:10:00Z'),
      at('2026-03-02T10:20:00Z'),
      T0,
    );
    expect(found).toEqual([
      {
        id: bookings.b2!.id,
        eventTypeId: intro.id,
        start: at('2026-03-02T09:30:00Z'),
        occupiedStart: at('2026-03-02T09:30:00Z'),
        occupiedEnd: at('2026-03-02T10:15:00Z'),
        expiresAt: null,
        occurrence: null,
        seat: null,
      },
    ]);
  });

  it('when the seats of an occurrence overlap the range, then they come as one, with how many they are and their numbers, the excluded one left out', async () => {
    const workshop = await addEventType(alice.id, { seats: 10 });
    const start = '2026-03-02T15:00:00Z';
    const occurrence = `${workshop.id}@${at(start)}`;
    const seats = [];
    for (const number of [5, 1, 2]) {
      const seat = bookingOf(workshop, start, '2026-03-02T16:00:00Z');
      await store.transaction((tx) => tx.bookings.insert(seat, { occurrence, number }));
      seats.push(seat);
    }
    const read = (exclude?: string) =>
      store.bookings.occupanciesOverlapping(
        alice.id,
        at('2026-03-02T15:30:00Z'),
        at('2026-03-02T15:40:00Z'),
        T0,
        exclude,
      );
    const [together, ...more] = await read();
    expect(more).toEqual([]);
    expect(together).toMatchObject({
      id: seats.map((seat) => seat.id).sort()[0],
      occurrence,
      seats: 3,
      occupiedStart: at(start),
      occupiedEnd: at('2026-03-02T16:00:00Z'),
      expiresAt: null,
    });
    expect([...together!.seatNumbers!].sort()).toEqual([1, 2, 5]);
    const [withoutOne] = await read(seats[0]!.id);
    expect(withoutOne).toMatchObject({ seats: 2 });
    expect([...withoutOne!.seatNumbers!].sort()).toEqual([1, 2]);
  });

  it('when the range only touches occupancies at its ends, then nothing is returned', async () => {
    expect(await overlapping('2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z')).toEqual([]);
    expect(await overlapping('2026-03-02T10:15:00Z', '2026-03-02T10:30:00Z')).toEqual([]);
    expect(await overlapping('2026-03-02T12:00:00Z', '2026-03-02T13:00:00Z')).toEqual([]);
    // One millisecond more on either side overlaps.
    expect(await overlapping(at('2026-03-02T10:15:00Z') - 1, at('2026-03-02T10:30:00Z') + 1)).toEqual(['b2', 'b3']);
  });

  it('when the range lies inside one occupancy or spans them all, then exactly the overlapped ones come back', async () => {
    expect(await overlapping('2026-03-02T10:40:00Z', '2026-03-02T10:50:00Z')).toEqual(['b3']);
    expect(await overlapping('2026-03-01T00:00:00Z', '2026-03-04T00:00:00Z')).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
    expect(await overlapping('2026-03-02T14:00:00Z', '2026-03-05T00:00:00Z')).toEqual([]);
  });

  it('when a booking is excluded, then it is left out and the others still come back', async () => {
    expect(await overlapping('2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z', bookings.b3!.id)).toEqual([
      'b1',
      'b2',
      'b4',
      'b5',
    ]);
  });

  it('when a booking is cancelled, then it stops being returned', async () => {
    const b3 = bookings.b3!;
    await store.transaction((tx) =>
      tx.bookings.update({ ...b3, status: 'cancelled', cancelledAt: T0, updatedAt: T0 }, 'confirmed'),
    );
    expect(await overlapping('2026-03-02T10:00:00Z', '2026-03-02T11:30:00Z')).toEqual(['b2', 'b4']);
  });
});

// ---- calendar version

describe('calendar version', () => {
  const WEEK_OPEN = ['09:00', '17:00'] as const;
  const weekly = (hours: readonly [string, string] | null) => {
    const day = hours ? [{ start: hours[0], end: hours[1] }] : [];
    return { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day, saturday: [], sunday: [] };
  };

  async function versionOf(holderId: string): Promise<number> {
    const version = await store.holders.calendarVersion(holderId);
    expect(typeof version, `calendar version of ${holderId}`).toBe('number');
    return version!;
  }

  /** Runs `write` in a transaction and returns the holder's version before and after it. */
  async function around(holderId: string, write: (tx: Transaction) => Promise<unknown>): Promise<[number, number]> {
    const before = await versionOf(holderId);
    await store.transaction(async (tx) => {
      await write(tx);
    });
    return [before, await versionOf(holderId)];
  }

  /** A read key of the holder's, not yet stored. */
  const readKeyOf = (holder: Holder): ApiKey => ({
    id: newId('key'),
    accountId: holder.accountId,
    holderId: holder.id,
    scopes: ['read'],
    description: null,
    createdAt: T0,
    expiresAt: null,
    revokedAt: null,
  });

  async function expectChangedBy(holderId: string, what: string, write: (tx: Transaction) => Promise<unknown>) {
    const [before, after] = await around(holderId, write);
    expect(after, `${what} must change the version`).not.toBe(before);
  }

  async function expectUnchangedBy(holderId: string, what: string, write: (tx: Transaction) => Promise<unknown>) {
    const [before, after] = await around(holderId, write);
    expect(after, `${what} must not change the version`).toBe(before);
  }

  it('when a holder is new, then its calendar version is a number, and an unknown holder has none', async () => {
    const holder = await addHolder('alice');
    const version = await store.holders.calendarVersion(holder.id);
    expect(typeof version).toBe('number');
    expect(Number.isFinite(version)).toBe(true);
    // Reading it is not a change.
    expect(await store.holders.calendarVersion(holder.id)).toBe(version);
    expect(await store.holders.calendarVersion(newId('hld'))).toBeUndefined();
  });

  it('when an event type is inserted, updated and deleted, then the version changes at each step', async () => {
    const holder = await addHolder('alice');
    const eventType = eventTypeOf(holder.id);
    await expectChangedBy(holder.id, 'insertEventType', (tx) => tx.eventTypes.insert(eventType));
    await expectChangedBy(holder.id, 'updateEventType', (tx) =>
      tx.eventTypes.update({ ...eventType, durationMinutes: 60, slotIntervalMinutes: 60, updatedAt: T0 + 1000 }),
    );
    await expectChangedBy(holder.id, 'deleteEventType', async (tx) => {
      expect(await tx.eventTypes.delete(holder.id, eventType.id, T0 + 2000)).toBe(true);
    });
  });

  it('when a schedule is inserted, replaced, replaced with itself and deleted, or the default one replaced, then the version changes each time', async () => {
    const holder = await addHolder('alice');
    const schedule = scheduleRecord(holder.id, T0);
    await expectChangedBy(holder.id, 'insertSchedule', (tx) => tx.schedules.insert(schedule));
    const replaced = { ...schedule, timeZone: 'UTC', weekly: weekly(WEEK_OPEN), updatedAt: T0 + 1000 };
    await expectChangedBy(holder.id, 'updateSchedule', (tx) => tx.schedules.update(replaced));
    // Replacing with the very same schedule is still a write of the calendar.
    await expectChangedBy(holder.id, 'updateSchedule (same again)', (tx) => tx.schedules.update(replaced));
    await expectChangedBy(holder.id, 'deleteSchedule', async (tx) => {
      expect(await tx.schedules.delete(holder.id, schedule.id)).toBe(true);
    });
    const fallback = (await store.schedules.defaultOf(holder.id))!;
    await expectChangedBy(holder.id, 'updateSchedule (the default)', (tx) =>
      tx.schedules.update({ ...fallback, weekly: weekly(null), updatedAt: T0 + 2000 }),
    );
  });

  it('when a booking is inserted and then cancelled, then the version changes each time', async () => {
    const holder = await addHolder('alice');
    const eventType = await addEventType(holder.id);
    const booking = bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    await expectChangedBy(holder.id, 'insertBooking', (tx) => tx.bookings.insert(booking));
    await expectChangedBy(holder.id, 'updateBooking (cancel)', async (tx) => {
      const cancelled: Booking = { ...booking, status: 'cancelled', cancelledAt: T0 + 1000, updatedAt: T0 + 1000 };
      expect(await tx.bookings.update(cancelled, 'confirmed')).toBe(true);
    });
  });

  it('when one transaction changes many of a calendar’s rows, then its commit changes the version, once on PostgreSQL, and the next transaction’s changes it again', async () => {
    const holder = await addHolder('alice');
    const eventType = await addEventType(holder.id);
    const bookings = ['09:00', '10:00', '11:00'].map((time) =>
      bookingOf(eventType, `2026-03-02T${time}:00Z`, `2026-03-02T${time.replace(':00', ':30')}:00Z`),
    );
    const [before, after] = await around(holder.id, async (tx) => {
      for (const booking of bookings) await tx.bookings.insert(booking);
    });
    expect(after).not.toBe(before);
    // Each occupancy's deferred trigger updated the holder's row at commit, three times here; the
    // version's purpose needs one (migration 0027).
    if (testStoreKind() === 'postgres') expect(after - before).toBe(1);
    await expectChangedBy(holder.id, 'a second transaction', async (tx) => {
      for (const booking of bookings) {
        const cancelled: Booking = { ...booking, status: 'cancelled', cancelledAt: T0 + 1000, updatedAt: T0 + 1000 };
        expect(await tx.bookings.update(cancelled, 'confirmed')).toBe(true);
      }
    });
  });

  it('when a transaction changes the holder’s row (a key revoked) and then its calendar, then the version changes', async () => {
    const holder = await addHolder('alice');
    const eventType = await addEventType(holder.id);
    const key = readKeyOf(holder);
    await store.transaction((tx) => tx.apiKeys.insert(key, `digest-${key.id}`));
    await expectChangedBy(holder.id, 'a revocation, then a booking', async (tx) => {
      await tx.apiKeys.revoke(key.id, T0 + 1);
      await tx.bookings.insert(bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z'));
    });
  });

  it('when webhooks, outbox events or API keys are written, then the version does not change', async () => {
    const holder = await addHolder('alice');
    await addEventType(holder.id);
    const webhook: Webhook = {
      id: newId('whk'),
      accountId: holder.accountId,
      holderId: holder.id,
      url: 'https://hooks.example.com/slotwise',
      events: ['booking.created'],
      description: null,
      active: true,
      secret: `whsec_${newId('whk').slice(4)}`,
      createdAt: T0,
      updatedAt: T0,
    };
    await expectUnchangedBy(holder.id, 'insertWebhook', (tx) => tx.webhooks.insert(webhook));
    await expectUnchangedBy(holder.id, 'updateWebhook', (tx) =>
      tx.webhooks.update({ ...webhook, active: false, updatedAt: T0 + 1 }),
    );
    await expectUnchangedBy(holder.id, 'enqueueEvent', (tx) =>
      tx.outbox.enqueue(
        { id: newId('msg'), holderId: holder.id, type: 'booking.created', payload: '{}', createdAt: T0 },
        [{ id: newId('dlv'), webhookId: webhook.id }],
      ),
    );
    const key = readKeyOf(holder);
    await expectUnchangedBy(holder.id, 'insertApiKey', (tx) => tx.apiKeys.insert(key, `digest-${key.id}`));
    await expectUnchangedBy(holder.id, 'revokeApiKey', (tx) => tx.apiKeys.revoke(key.id, T0 + 2));
    await expectUnchangedBy(holder.id, 'ensureHolder (existing)', (tx) =>
      tx.holders.ensure(...newHolder(holder.accountId, holder.name, T0 + 3)),
    );
  });

  it('when one holder’s calendar changes, then another holder’s version does not', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    await addEventType(bob.id);
    const bobBefore = await versionOf(bob.id);
    const aliceBefore = await versionOf(alice.id);

    const eventType = await addEventType(alice.id);
    await store.transaction((tx) => tx.schedules.insert(scheduleRecord(alice.id, T0)));
    const booking = await addBooking(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    await store.transaction((tx) =>
      tx.bookings.update({ ...booking, status: 'cancelled', cancelledAt: T0, updatedAt: T0 }, 'confirmed'),
    );
    await store.transaction((tx) => tx.eventTypes.delete(alice.id, eventType.id, T0 + 1000));

    expect(await versionOf(alice.id)).not.toBe(aliceBefore);
    expect(await versionOf(bob.id)).toBe(bobBefore);
  });

  it('when a transaction changes the calendar and then throws, then the version is as before', async () => {
    const holder = await addHolder('alice');
    const existing = await addEventType(holder.id);
    const before = await versionOf(holder.id);
    const failure = new Error('changed my mind');
    const eventType = eventTypeOf(holder.id);

    await expect(
      store.transaction(async (tx) => {
        await tx.eventTypes.insert(eventType);
        await tx.eventTypes.update({ ...existing, title: 'Renamed', updatedAt: T0 + 1 });
        await tx.bookings.insert(bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z'));
        await tx.schedules.insert(scheduleRecord(holder.id, T0));
        // (On PostgreSQL the bump waits for the commit: a deferred trigger, so that it holds the
        // holder's row only while committing.)
        throw failure;
      }),
    ).rejects.toBe(failure);

    expect(await versionOf(holder.id)).toBe(before);
  });

  it('when transactions started at once change two holders’ calendars and one of them throws, then only the committed one’s version changes', async () => {
    // On SQLite these share one commit (each in its own savepoint): the failed one's bump must go with it.
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const [aliceBefore, bobBefore] = [await versionOf(alice.id), await versionOf(bob.id)];
    const failure = new Error('changed my mind');

    const results = await Promise.allSettled([
      store.transaction((tx) => tx.eventTypes.insert(eventTypeOf(alice.id))),
      store.transaction(async (tx) => {
        await tx.eventTypes.insert(eventTypeOf(bob.id));
        throw failure;
      }),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await versionOf(alice.id)).not.toBe(aliceBefore);
    expect(await versionOf(bob.id)).toBe(bobBefore);
  });
});

// ---- outbox

describe('outbox', () => {
  it('when webhooks are asked for by event type, then only the holder’s active ones subscribed to it come back', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    const both = await addWebhook(alice.id, { events: ['booking.created', 'booking.cancelled'] });
    const cancelOnly = await addWebhook(alice.id, { events: ['booking.cancelled'] });
    await addWebhook(alice.id, { events: ['booking.created'], active: false });
    await addWebhook(bob.id, { events: ['booking.created'] });

    expect(await store.webhooks.subscribedIds(alice.id, 'booking.created')).toEqual([both.id]);
    expect((await store.webhooks.subscribedIds(alice.id, 'booking.cancelled')).sort()).toEqual(
      [both.id, cancelOnly.id].sort(),
    );
    expect(await store.webhooks.subscribedIds(alice.id, 'booking.rescheduled')).toEqual([]);

    // Deactivating one takes it out.
    await store.transaction((tx) => tx.webhooks.update({ ...both, active: false, updatedAt: T0 + 1 }));
    expect(await store.webhooks.subscribedIds(alice.id, 'booking.created')).toEqual([]);
  });

  it('when an event is enqueued, then it is stored with one pending delivery per target, due at once with no attempts', async () => {
    const alice = await addHolder('alice');
    const first = await addWebhook(alice.id);
    const second = await addWebhook(alice.id);
    const [d1, d2] = await enqueue(alice.id, [first.id, second.id], T0 + 5000);

    const events = await testStore.rows('webhook_events');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ holder_id: alice.id, type: 'booking.created' });
    expect(Number(events[0]!.created_at)).toBe(T0 + 5000);

    const delivery = await store.deliveries.get(first.id, d1!);
    expect(delivery).toEqual({
      id: d1,
      eventId: events[0]!.id,
      eventType: 'booking.created',
      webhookId: first.id,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: T0 + 5000,
      createdAt: T0 + 5000,
      updatedAt: T0 + 5000,
      attemptLog: [],
    });
    expect(await store.deliveries.get(second.id, d2!)).toMatchObject({ eventId: events[0]!.id, status: 'pending' });
    // A delivery is only found under its own webhook.
    expect(await store.deliveries.get(second.id, d1!)).toBeUndefined();
  });

  it('when an event has no target, then the event is stored and no delivery', async () => {
    const alice = await addHolder('alice');
    await enqueue(alice.id, [], T0);
    expect(await count('webhook_events')).toBe(1);
    expect(await count('webhook_deliveries')).toBe(0);
  });

  it('when a webhook is deleted, then it is gone with its deliveries and their attempts, and other webhooks keep theirs', async () => {
    const alice = await addHolder('alice');
    const doomed = await addWebhook(alice.id);
    const kept = await addWebhook(alice.id);
    const [gone, stays] = await enqueue(alice.id, [doomed.id, kept.id], T0);
    await storage.deliveryQueue.recordAttempt(
      gone!,
      attemptOf(1, T0),
      { status: 'pending', nextAttemptAt: T0 + 5000 },
      T0,
    );
    expect(
      await store.transaction((tx) =>
        tx.webhooks.delete({ accountId: alice.accountId, holderId: alice.id }, doomed.id),
      ),
    ).toBe(true);
    expect(
      await store.transaction((tx) =>
        tx.webhooks.delete({ accountId: alice.accountId, holderId: alice.id }, doomed.id),
      ),
    ).toBe(false);
    expect(await store.webhooks.get({ accountId: alice.accountId, holderId: alice.id }, doomed.id)).toBeUndefined();
    expect((await testStore.rows('webhook_deliveries')).map((r) => r.id)).toEqual([stays]);
    expect(await count('webhook_delivery_attempts')).toBe(0);
  });
});
