// The Store interface as its users (the use cases and the delivery worker) rely on it, run against
// both engines: the `sqlite` project on a fresh SQLite file, the `postgres` project on this test
// process's PostgreSQL database, emptied at each open (see test/support/databases.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callerWith, createApiKey } from '../../src/app/api-keys.js';
import { replaceAvailability } from '../../src/app/availability.js';
import { createBooking } from '../../src/app/bookings.js';
import type { AppContext, Caller } from '../../src/app/context.js';
import { createEventType } from '../../src/app/event-types.js';
import { newId } from '../../src/app/ids.js';
import type { Booking } from '../../src/domain/booking.js';
import { DomainError } from '../../src/domain/errors.js';
import type { EventType } from '../../src/domain/event-type.js';
import { MINUTE_MS } from '../../src/domain/instant.js';
import { UNBOOKABLE_DETAIL } from '../../src/domain/slots.js';
import {
  UniqueViolation,
  type ApiKey,
  type ClaimRequest,
  type DeliveryAttempt,
  type DeliveryJob,
  type Holder,
  type PageAfter,
  type PageRequest,
  type Store,
  type StoreWrites,
  type Webhook,
  type WebhookEventType,
} from '../../src/storage/store.js';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.js';
import { openTestStore, testStoreKind, type TestStore } from '../support/databases.js';
import { at, bookingRecord, eventTypeRecord, type BookingFields } from './records.js';

const T0 = at('2026-03-02T00:00:00Z');

let dir: string;
let testStore: TestStore;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotwise-contract-'));
  testStore = await openTestStore(dir);
  store = testStore.store;
});

afterEach(async () => {
  await testStore.close();
  rmSync(dir, { recursive: true, force: true });
});

// ---- building blocks, written straight through the interface

async function addHolder(name: string): Promise<Holder> {
  return store.transaction((tx) => tx.ensureHolder({ id: newId('hld'), name, createdAt: T0 }));
}

function eventTypeOf(holderId: string, fields: Partial<EventType> = {}): EventType {
  return eventTypeRecord(holderId, T0, fields);
}

async function addEventType(holderId: string, fields: Partial<EventType> = {}): Promise<EventType> {
  const eventType = eventTypeOf(holderId, fields);
  await store.transaction((tx) => tx.insertEventType(eventType));
  return eventType;
}

function bookingOf(eventType: EventType, start: string, end: string, fields: BookingFields = {}): Booking {
  return bookingRecord(eventType, start, end, { ...fields, createdAt: fields.createdAt ?? T0 });
}

async function addBooking(...args: Parameters<typeof bookingOf>): Promise<Booking> {
  const booking = bookingOf(...args);
  await store.transaction((tx) => tx.insertBooking(booking));
  return booking;
}

async function addWebhook(
  holderId: string,
  fields: { events?: WebhookEventType[]; active?: boolean; createdAt?: number } = {},
): Promise<Webhook> {
  const webhook: Webhook = {
    id: newId('whk'),
    holderId,
    url: 'https://hooks.example.com/slotwise',
    events: fields.events ?? ['booking.created', 'booking.cancelled', 'booking.rescheduled'],
    description: null,
    active: fields.active ?? true,
    secret: `whsec_${newId('whk').slice(4)}`,
    createdAt: fields.createdAt ?? T0,
    updatedAt: fields.createdAt ?? T0,
  };
  await store.transaction((tx) => tx.insertWebhook(webhook));
  return webhook;
}

/** One outbox event at `createdAt` with one delivery per webhook (due at `createdAt`); returns the delivery ids. */
async function enqueue(holderId: string, webhookIds: string[], createdAt: number): Promise<string[]> {
  const eventId = newId('msg');
  const deliveries = webhookIds.map((webhookId) => ({ id: newId('dlv'), webhookId }));
  await store.transaction((tx) =>
    tx.enqueueEvent(
      {
        id: eventId,
        holderId,
        type: 'booking.created',
        payload: JSON.stringify({
          type: 'booking.created',
          timestamp: new Date(createdAt).toISOString(),
          data: { n: createdAt },
        }),
        createdAt,
      },
      deliveries,
    ),
  );
  return deliveries.map((d) => d.id);
}

function claim(fields: Partial<ClaimRequest> & { now: number }): Promise<DeliveryJob[]> {
  return store.claimDueDeliveries({
    leaseUntil: fields.now + 60_000,
    limit: 100,
    perWebhook: 100,
    skipWebhookIds: [],
    ...fields,
  });
}

function attemptOf(n: number, startedAt: number, statusCode: number | null = 500): DeliveryAttempt {
  return {
    attempt: n,
    startedAt,
    durationMs: 12,
    statusCode,
    error: statusCode === null ? 'connection refused' : null,
    responseExcerpt: 'nope',
  };
}

async function count(table: string): Promise<number> {
  return (await testStore.rows(table)).length;
}

/** Every page of a keyset-paged list, following `after` from the last item of each page. */
async function allPages<T extends { id: string }>(
  fetch: (page: PageRequest) => Promise<T[]>,
  limit: number,
  keyOf: (item: T) => number,
): Promise<T[][]> {
  const pages: T[][] = [];
  let after: PageAfter | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const page = await fetch({ limit, after });
    expect(page.length).toBeLessThanOrEqual(limit);
    if (page.length === 0) return pages;
    pages.push(page);
    const last = page[page.length - 1]!;
    after = { key: keyOf(last), id: last.id };
  }
  throw new Error('paging did not end');
}

const byKeyThenId =
  <T extends { id: string }>(keyOf: (item: T) => number, direction: 1 | -1 = 1) =>
  (a: T, b: T): number =>
    direction * (keyOf(a) - keyOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

// ---- transactions

describe('transactions', () => {
  it('when the work throws after writing, then none of its writes remain (the outbox event included) and the error comes out unchanged', async () => {
    const holder = await addHolder('alice');
    const webhook = await addWebhook(holder.id);
    const eventType = eventTypeOf(holder.id);
    const failure = new Error('changed my mind');

    await expect(
      store.transaction(async (tx) => {
        await tx.insertEventType(eventType);
        await tx.insertBooking(bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z'));
        const closed = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };
        await tx.putAvailability(holder.id, { timeZone: 'UTC', weekly: closed, overrides: [] }, T0);
        await tx.enqueueEvent(
          { id: newId('msg'), holderId: holder.id, type: 'booking.created', payload: '{}', createdAt: T0 },
          [{ id: newId('dlv'), webhookId: webhook.id }],
        );
        // Visible inside the transaction…
        expect(await tx.getEventType(holder.id, eventType.id)).toEqual(eventType);
        throw failure;
      }),
    ).rejects.toBe(failure);

    // …and nowhere after it.
    for (const table of ['event_types', 'bookings', 'availabilities', 'webhook_events', 'webhook_deliveries']) {
      expect(await count(table), table).toBe(0);
    }
    expect(await store.getEventType(holder.id, eventType.id)).toBeUndefined();
    expect(await store.getAvailability(holder.id)).toBeUndefined();
  });

  it('when a statement of the work fails, then the earlier writes of the same transaction are rolled back and the store keeps working', async () => {
    const holder = await addHolder('alice');
    const first = eventTypeOf(holder.id, { slug: 'first' });
    await addEventType(holder.id, { slug: 'taken' });

    await expect(
      store.transaction(async (tx) => {
        await tx.insertEventType(first);
        await tx.insertEventType(eventTypeOf(holder.id, { slug: 'taken' }));
      }),
    ).rejects.toBeInstanceOf(UniqueViolation);
    expect(await store.getEventType(holder.id, first.id)).toBeUndefined();

    // The connection that failed is usable again: the same write on its own commits.
    await store.transaction((tx) => tx.insertEventType(first));
    expect(await store.getEventType(holder.id, first.id)).toEqual(first);
  });

  it('when the work returns, then its writes are committed together and its result is returned', async () => {
    const holder = await addHolder('alice');
    const eventType = eventTypeOf(holder.id);
    const booking = bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    const result = await store.transaction(async (tx) => {
      await tx.insertEventType(eventType);
      await tx.insertBooking(booking);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await store.getEventType(holder.id, eventType.id)).toEqual(eventType);
    expect(await store.getBooking(holder.id, booking.id)).toEqual(booking);
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
      store.transaction((tx) => tx.insertEventType(a!)),
      store.transaction(async (tx) => {
        await tx.insertEventType(b!);
        throw failure;
      }),
      store.transaction(async (tx) => {
        await tx.insertEventType(c!);
        return 'c';
      }),
    ]);

    expect(results).toEqual([
      { status: 'fulfilled', value: undefined },
      { status: 'rejected', reason: failure },
      { status: 'fulfilled', value: 'c' },
    ]);
    expect(await store.getEventType(holder.id, a!.id)).toEqual(a);
    expect(await store.getEventType(holder.id, b!.id)).toBeUndefined();
    expect(await store.getEventType(holder.id, c!.id)).toEqual(c);
  });

  it('when concurrent transactions insert the same slug, then exactly one commits, the other gets UniqueViolation, and an unrelated one commits', async () => {
    const holder = await addHolder('alice');
    const first = eventTypeOf(holder.id, { slug: 'intro' });
    const second = eventTypeOf(holder.id, { slug: 'intro' });
    const unrelated = eventTypeOf(holder.id, { slug: 'other' });

    const results = await Promise.allSettled(
      [first, second, unrelated].map((eventType) => store.transaction((tx) => tx.insertEventType(eventType))),
    );

    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(UniqueViolation);
    const stored = await store.listEventTypes(holder.id, { limit: 10, after: null });
    expect(stored.map((e) => e.slug).sort()).toEqual(['intro', 'other']);
  });

  it('when a hundred transactions run at once, then each result is its own and every write is stored', async () => {
    const holder = await addHolder('alice');
    const eventTypes = Array.from({ length: 100 }, (_, i) => eventTypeOf(holder.id, { slug: `type-${i}` }));
    const results = await Promise.all(
      eventTypes.map((eventType, i) =>
        store.transaction(async (tx) => {
          await tx.insertEventType(eventType);
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
    await expect(store.transaction((tx) => tx.insertEventType(duplicate))).rejects.toBeInstanceOf(UniqueViolation);
    expect(await store.getEventType(holder.id, duplicate.id)).toBeUndefined();
  });

  it('when another holder has the slug, then the insert succeeds', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    await addEventType(alice.id, { slug: 'intro' });
    const bobs = await addEventType(bob.id, { slug: 'intro' });
    expect(await store.getEventType(bob.id, bobs.id)).toEqual(bobs);
  });

  it('when the event type holding a slug is deleted, then it is not found, its slug is free and can be taken again', async () => {
    const holder = await addHolder('alice');
    const old = await addEventType(holder.id, { slug: 'intro' });
    expect(await store.slugsLike(holder.id, 'intro')).toEqual(new Set(['intro']));

    expect(await store.transaction((tx) => tx.deleteEventType(holder.id, old.id, T0 + 1000))).toBe(true);
    expect(await store.transaction((tx) => tx.deleteEventType(holder.id, old.id, T0 + 2000))).toBe(false);
    expect(await store.getEventType(holder.id, old.id)).toBeUndefined();
    expect(await store.slugsLike(holder.id, 'intro')).toEqual(new Set());

    const again = await addEventType(holder.id, { slug: 'intro' });
    expect(await store.getEventType(holder.id, again.id)).toEqual(again);
    // The new live one holds the slug as the first did.
    await expect(
      store.transaction((tx) => tx.insertEventType(eventTypeOf(holder.id, { slug: 'intro' }))),
    ).rejects.toBeInstanceOf(UniqueViolation);
  });

  it('when slugs like a base are asked for, then exactly the live base and base-N slugs of that holder come back', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    for (const slug of ['intro', 'intro-2', 'intro-call', 'introduction', 'other'])
      await addEventType(alice.id, { slug });
    await addEventType(bob.id, { slug: 'intro-3' });
    const like = await store.slugsLike(alice.id, 'intro');
    expect(like.has('intro')).toBe(true);
    expect(like.has('intro-2')).toBe(true);
    // Callers only test `base` and `base-N` for membership; whether `intro-call` is listed does not matter.
    for (const absent of ['introduction', 'other', 'intro-3']) expect(like.has(absent), absent).toBe(false);
  });

  it('when a holder name is taken, then ensureHolder returns the existing holder', async () => {
    const alice = await addHolder('alice');
    const again = await store.transaction((tx) =>
      tx.ensureHolder({ id: newId('hld'), name: 'alice', createdAt: T0 + 1 }),
    );
    expect(again).toEqual(alice);
  });

  it('when two transactions ensure the same new holder at once, then both get the one holder', async () => {
    const [a, b] = await Promise.all(
      [1, 2].map(() => store.transaction((tx) => tx.ensureHolder({ id: newId('hld'), name: 'carol', createdAt: T0 }))),
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
    await store.transaction((tx) => tx.deleteEventType(alice.id, deleted.id, T0 + 5000));
    await addEventType(bob.id, { createdAt: T0 + 1000 });

    const expected = [...live].sort(byKeyThenId((e: EventType) => e.createdAt)).map((e) => e.id);
    for (const limit of [1, 2, 4, 11, 50]) {
      const pages = await allPages(
        (page) => store.listEventTypes(alice.id, page),
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
        (page) => store.listWebhooks(alice.id, page),
        limit,
        (w) => w.createdAt,
      );
      expect(
        pages.flat().map((w) => w.id),
        `limit ${limit}`,
      ).toEqual(expected);
    }
    // Inactive webhooks are listed too, and read back as they were written.
    expect(await store.getWebhook(alice.id, hooks[4]!.id)).toEqual(hooks[4]);
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
        (page) => store.listConfirmedBookings(alice.id, { ...page, from, to, eventTypeId: null }),
        limit,
        (b) => b.start,
      );
      expect(
        pages.flat().map((b) => b.id),
        `limit ${limit}`,
      ).toEqual(expected.map((b) => b.id));
    }
    const onlyIntro = await allPages(
      (page) => store.listConfirmedBookings(alice.id, { ...page, from, to, eventTypeId: intro.id }),
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
    await store.recordAttempt(firstId!, attemptOf(1, T0 + 1), { status: 'pending', nextAttemptAt: T0 + 5000 }, T0 + 2);

    for (const limit of [1, 3, 8, 20]) {
      const pages = await allPages(
        (page) => store.listDeliveries(hook.id, page),
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
    const found = await store.occupanciesOverlapping(alice.id, f, t, exclude);
    const names = found.map(
      (o) => Object.entries(bookings).find(([, b]) => b.start === o.start)?.[0] ?? `unknown@${o.start}`,
    );
    return names.sort();
  }

  it('when the range overlaps bookings only through their buffers, then those bookings are returned with their occupancy', async () => {
    expect(await overlapping('2026-03-02T10:00:00Z', '2026-03-02T11:30:00Z')).toEqual(['b2', 'b3', 'b4']);
    const found = await store.occupanciesOverlapping(alice.id, at('2026-03-02T10:10:00Z'), at('2026-03-02T10:20:00Z'));
    expect(found).toEqual([
      {
        eventTypeId: intro.id,
        start: at('2026-03-02T09:30:00Z'),
        occupiedStart: at('2026-03-02T09:30:00Z'),
        occupiedEnd: at('2026-03-02T10:15:00Z'),
      },
    ]);
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
      tx.updateBooking({ ...b3, status: 'cancelled', cancelledAt: T0, updatedAt: T0 }, 'confirmed'),
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
    const version = await store.calendarVersion(holderId);
    expect(typeof version, `calendar version of ${holderId}`).toBe('number');
    return version!;
  }

  /** Runs `write` in a transaction and returns the holder's version before and after it. */
  async function around(holderId: string, write: (tx: StoreWrites) => Promise<unknown>): Promise<[number, number]> {
    const before = await versionOf(holderId);
    await store.transaction(async (tx) => {
      await write(tx);
    });
    return [before, await versionOf(holderId)];
  }

  async function expectChangedBy(holderId: string, what: string, write: (tx: StoreWrites) => Promise<unknown>) {
    const [before, after] = await around(holderId, write);
    expect(after, `${what} must change the version`).not.toBe(before);
  }

  async function expectUnchangedBy(holderId: string, what: string, write: (tx: StoreWrites) => Promise<unknown>) {
    const [before, after] = await around(holderId, write);
    expect(after, `${what} must not change the version`).toBe(before);
  }

  it('when a holder is new, then its calendar version is a number, and an unknown holder has none', async () => {
    const holder = await addHolder('alice');
    const version = await store.calendarVersion(holder.id);
    expect(typeof version).toBe('number');
    expect(Number.isFinite(version)).toBe(true);
    // Reading it is not a change.
    expect(await store.calendarVersion(holder.id)).toBe(version);
    expect(await store.calendarVersion(newId('hld'))).toBeUndefined();
  });

  it('when an event type is inserted, updated and deleted, then the version changes at each step', async () => {
    const holder = await addHolder('alice');
    const eventType = eventTypeOf(holder.id);
    await expectChangedBy(holder.id, 'insertEventType', (tx) => tx.insertEventType(eventType));
    await expectChangedBy(holder.id, 'updateEventType', (tx) =>
      tx.updateEventType({ ...eventType, durationMinutes: 60, slotIntervalMinutes: 60, updatedAt: T0 + 1000 }),
    );
    await expectChangedBy(holder.id, 'deleteEventType', async (tx) => {
      expect(await tx.deleteEventType(holder.id, eventType.id, T0 + 2000)).toBe(true);
    });
  });

  it('when the availability is put for the first time and then replaced, then the version changes each time', async () => {
    const holder = await addHolder('alice');
    await expectChangedBy(holder.id, 'putAvailability (first)', (tx) =>
      tx.putAvailability(holder.id, { timeZone: 'UTC', weekly: weekly(WEEK_OPEN), overrides: [] }, T0),
    );
    await expectChangedBy(holder.id, 'putAvailability (replacing)', (tx) =>
      tx.putAvailability(holder.id, { timeZone: 'Europe/Berlin', weekly: weekly(null), overrides: [] }, T0 + 1000),
    );
    // Replacing with the very same availability is still a write of the calendar.
    await expectChangedBy(holder.id, 'putAvailability (same again)', (tx) =>
      tx.putAvailability(holder.id, { timeZone: 'Europe/Berlin', weekly: weekly(null), overrides: [] }, T0 + 2000),
    );
  });

  it('when a booking is inserted and then cancelled, then the version changes each time', async () => {
    const holder = await addHolder('alice');
    const eventType = await addEventType(holder.id);
    const booking = bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    await expectChangedBy(holder.id, 'insertBooking', (tx) => tx.insertBooking(booking));
    await expectChangedBy(holder.id, 'updateBooking (cancel)', async (tx) => {
      const cancelled: Booking = { ...booking, status: 'cancelled', cancelledAt: T0 + 1000, updatedAt: T0 + 1000 };
      expect(await tx.updateBooking(cancelled, 'confirmed')).toBe(true);
    });
  });

  it('when webhooks, outbox events or API keys are written, then the version does not change', async () => {
    const holder = await addHolder('alice');
    await addEventType(holder.id);
    const webhook: Webhook = {
      id: newId('whk'),
      holderId: holder.id,
      url: 'https://hooks.example.com/slotwise',
      events: ['booking.created'],
      description: null,
      active: true,
      secret: `whsec_${newId('whk').slice(4)}`,
      createdAt: T0,
      updatedAt: T0,
    };
    await expectUnchangedBy(holder.id, 'insertWebhook', (tx) => tx.insertWebhook(webhook));
    await expectUnchangedBy(holder.id, 'updateWebhook', (tx) =>
      tx.updateWebhook({ ...webhook, active: false, updatedAt: T0 + 1 }),
    );
    await expectUnchangedBy(holder.id, 'enqueueEvent', (tx) =>
      tx.enqueueEvent(
        { id: newId('msg'), holderId: holder.id, type: 'booking.created', payload: '{}', createdAt: T0 },
        [{ id: newId('dlv'), webhookId: webhook.id }],
      ),
    );
    const key: ApiKey = {
      id: newId('key'),
      holderId: holder.id,
      holderName: holder.name,
      scopes: ['read'],
      createdAt: T0,
      expiresAt: null,
      revokedAt: null,
    };
    await expectUnchangedBy(holder.id, 'insertApiKey', (tx) => tx.insertApiKey(key, `digest-${key.id}`));
    await expectUnchangedBy(holder.id, 'revokeApiKey', (tx) => tx.revokeApiKey(key.id, T0 + 2));
    await expectUnchangedBy(holder.id, 'ensureHolder (existing)', (tx) =>
      tx.ensureHolder({ id: newId('hld'), name: holder.name, createdAt: T0 + 3 }),
    );
  });

  it('when one holder’s calendar changes, then another holder’s version does not', async () => {
    const alice = await addHolder('alice');
    const bob = await addHolder('bob');
    await addEventType(bob.id);
    const bobBefore = await versionOf(bob.id);
    const aliceBefore = await versionOf(alice.id);

    const eventType = await addEventType(alice.id);
    await store.transaction((tx) =>
      tx.putAvailability(alice.id, { timeZone: 'UTC', weekly: weekly(WEEK_OPEN), overrides: [] }, T0),
    );
    const booking = await addBooking(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    await store.transaction((tx) =>
      tx.updateBooking({ ...booking, status: 'cancelled', cancelledAt: T0, updatedAt: T0 }, 'confirmed'),
    );
    await store.transaction((tx) => tx.deleteEventType(alice.id, eventType.id, T0 + 1000));

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
        await tx.insertEventType(eventType);
        await tx.updateEventType({ ...existing, title: 'Renamed', updatedAt: T0 + 1 });
        await tx.insertBooking(bookingOf(eventType, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z'));
        await tx.putAvailability(holder.id, { timeZone: 'UTC', weekly: weekly(null), overrides: [] }, T0);
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
      store.transaction((tx) => tx.insertEventType(eventTypeOf(alice.id))),
      store.transaction(async (tx) => {
        await tx.insertEventType(eventTypeOf(bob.id));
        throw failure;
      }),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await versionOf(alice.id)).not.toBe(aliceBefore);
    expect(await versionOf(bob.id)).toBe(bobBefore);
  });
});

describe('database version', () => {
  it.runIf(testStoreKind() === 'postgres')(
    'when the engine is PostgreSQL, then it cannot tell cheaply and says null',
    () => {
      expect(store.databaseVersion()).toBeNull();
    },
  );

  it.runIf(testStoreKind() === 'sqlite')(
    'when nothing is committed, then the version stays; a commit of this store or of another process changes it',
    async () => {
      const holder = await addHolder('alice');
      const before = store.databaseVersion();
      await store.getHolder(holder.id);
      await store.listEventTypes(holder.id, { limit: 10, after: null });
      expect(store.databaseVersion()).toBe(before);

      await addEventType(holder.id, { slug: 'own' });
      const afterOwn = store.databaseVersion();
      expect(afterOwn).not.toBe(before);

      // Another process: a second store on the same file.
      const other = await openStore(parseDatabaseUrl(testStore.databaseUrl), { poolSize: 1, statementTimeoutMs: 1000 });
      try {
        await other.transaction((tx) => tx.insertEventType(eventTypeOf(holder.id, { slug: 'theirs' })));
      } finally {
        await other.close();
      }
      // Another process's commit is read from the next event-loop turn on.
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.databaseVersion()).not.toBe(afterOwn);
    },
  );

  it.runIf(testStoreKind() === 'sqlite')('when a transaction rolls back, then the version stays', async () => {
    const holder = await addHolder('alice');
    const before = store.databaseVersion();
    await expect(
      store.transaction(async (tx) => {
        await tx.insertEventType(eventTypeOf(holder.id));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(store.databaseVersion()).toBe(before);
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

    expect(await store.subscribedWebhookIds(alice.id, 'booking.created')).toEqual([both.id]);
    expect((await store.subscribedWebhookIds(alice.id, 'booking.cancelled')).sort()).toEqual(
      [both.id, cancelOnly.id].sort(),
    );
    expect(await store.subscribedWebhookIds(alice.id, 'booking.rescheduled')).toEqual([]);

    // Deactivating one takes it out.
    await store.transaction((tx) => tx.updateWebhook({ ...both, active: false, updatedAt: T0 + 1 }));
    expect(await store.subscribedWebhookIds(alice.id, 'booking.created')).toEqual([]);
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

    const delivery = await store.getDelivery(first.id, d1!);
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
    expect(await store.getDelivery(second.id, d2!)).toMatchObject({ eventId: events[0]!.id, status: 'pending' });
    // A delivery is only found under its own webhook.
    expect(await store.getDelivery(second.id, d1!)).toBeUndefined();
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
    await store.recordAttempt(gone!, attemptOf(1, T0), { status: 'pending', nextAttemptAt: T0 + 5000 }, T0);
    expect(await store.transaction((tx) => tx.deleteWebhook(alice.id, doomed.id))).toBe(true);
    expect(await store.transaction((tx) => tx.deleteWebhook(alice.id, doomed.id))).toBe(false);
    expect(await store.getWebhook(alice.id, doomed.id)).toBeUndefined();
    expect((await testStore.rows('webhook_deliveries')).map((r) => r.id)).toEqual([stays]);
    expect(await count('webhook_delivery_attempts')).toBe(0);
  });
});

// ---- claiming deliveries

describe('claimDueDeliveries', () => {
  let alice: Holder;

  beforeEach(async () => {
    alice = await addHolder('alice');
  });

  it('when deliveries are due, then a claim returns everything needed to send them, oldest due first', async () => {
    const hook = await addWebhook(alice.id);
    const [later] = await enqueue(alice.id, [hook.id], T0 + 2000);
    const [earlier] = await enqueue(alice.id, [hook.id], T0 + 1000);
    const jobs = await claim({ now: T0 + 3000 });
    expect(jobs.map((j) => j.deliveryId)).toEqual([earlier, later]);
    const event = (await testStore.rows('webhook_events')).find((e) => Number(e.created_at) === T0 + 1000)!;
    expect(jobs[0]).toEqual({
      deliveryId: earlier,
      eventId: event.id,
      webhookId: hook.id,
      url: hook.url,
      secret: hook.secret,
      payload: event.payload,
      attempts: 0,
      retryStep: 0,
    });
  });

  it('when a delivery is not due yet, then it is not claimed until its time', async () => {
    const hook = await addWebhook(alice.id);
    const [id] = await enqueue(alice.id, [hook.id], T0 + 10_000);
    expect(await claim({ now: T0 + 9_999 })).toEqual([]);
    expect((await claim({ now: T0 + 10_000 })).map((j) => j.deliveryId)).toEqual([id]);
  });

  it('when deliveries have succeeded or failed, then they are not claimed', async () => {
    const hook = await addWebhook(alice.id);
    const [succeeded, failed, pending] = await Promise.all([
      enqueue(alice.id, [hook.id], T0),
      enqueue(alice.id, [hook.id], T0),
      enqueue(alice.id, [hook.id], T0),
    ]).then((ids) => ids.map((d) => d[0]!));
    await store.recordAttempt(succeeded!, attemptOf(1, T0, 200), { status: 'succeeded' }, T0);
    await store.recordAttempt(failed!, attemptOf(1, T0, 500), { status: 'failed', disableWebhook: false }, T0);
    expect((await claim({ now: T0 + 86_400_000 })).map((j) => j.deliveryId)).toEqual([pending]);
  });

  it('when a webhook is inactive, then its due deliveries are not claimed, and are once it is active again', async () => {
    const hook = await addWebhook(alice.id);
    const [id] = await enqueue(alice.id, [hook.id], T0);
    await store.transaction((tx) => tx.updateWebhook({ ...hook, active: false, updatedAt: T0 }));
    expect(await claim({ now: T0 + 1000 })).toEqual([]);
    await store.transaction((tx) => tx.updateWebhook({ ...hook, active: true, updatedAt: T0 }));
    expect((await claim({ now: T0 + 1000 })).map((j) => j.deliveryId)).toEqual([id]);
  });

  it('when a claim sets perWebhook and limit, then no webhook gets more than perWebhook and the claim no more than limit', async () => {
    const a = await addWebhook(alice.id);
    const b = await addWebhook(alice.id);
    const c = await addWebhook(alice.id);
    for (let i = 0; i < 4; i++) await enqueue(alice.id, [a.id, b.id, c.id], T0 + i * 1000);

    const perHook = await claim({ now: T0 + 10_000, perWebhook: 2, limit: 100, leaseUntil: T0 + 10_001 });
    expect(perHook).toHaveLength(6);
    for (const hook of [a, b, c])
      expect(
        perHook.filter((j) => j.webhookId === hook.id),
        hook.id,
      ).toHaveLength(2);
    // Oldest first within each webhook: the ones due at T0 and T0 + 1000.
    const due = new Map(
      (await testStore.rows('webhook_deliveries')).map((r) => [String(r.id), Number(r.next_attempt_at)]),
    );
    expect(new Set(perHook.map((j) => due.get(j.deliveryId)))).toEqual(new Set([T0, T0 + 1000]));

    const limited = await claim({ now: T0 + 20_000, perWebhook: 100, limit: 5 });
    expect(limited).toHaveLength(5);
  });

  it('when one webhook has a backlog older than another webhook’s due delivery, then a claim with room for both takes from both', async () => {
    // perWebhook exists so that one receiver's backlog cannot crowd out the others.
    const busy = await addWebhook(alice.id);
    const quiet = await addWebhook(alice.id);
    for (let i = 0; i < 10; i++) await enqueue(alice.id, [busy.id], T0 + i);
    const [quietOne] = await enqueue(alice.id, [quiet.id], T0 + 100);

    const jobs = await claim({ now: T0 + 1000, perWebhook: 1, limit: 3 });
    expect(jobs.map((j) => j.webhookId).sort()).toEqual([busy.id, quiet.id].sort());
    expect(jobs.map((j) => j.deliveryId)).toContain(quietOne);
  });

  it('when webhooks are to be skipped, then their deliveries are left for later', async () => {
    const a = await addWebhook(alice.id);
    const b = await addWebhook(alice.id);
    const c = await addWebhook(alice.id);
    const [, fromB] = await enqueue(alice.id, [a.id, b.id, c.id], T0);
    const jobs = await claim({ now: T0, skipWebhookIds: [a.id, c.id] });
    expect(jobs.map((j) => j.deliveryId)).toEqual([fromB]);
    expect((await claim({ now: T0 })).map((j) => j.webhookId).sort()).toEqual([a.id, c.id].sort());
  });

  it('when a delivery is claimed, then it is not claimed again before the lease ends, and is claimable when it has', async () => {
    const hook = await addWebhook(alice.id);
    const [id] = await enqueue(alice.id, [hook.id], T0);
    const leaseUntil = T0 + 30_000;
    expect((await claim({ now: T0, leaseUntil })).map((j) => j.deliveryId)).toEqual([id]);
    expect(await claim({ now: T0 })).toEqual([]);
    expect(await claim({ now: leaseUntil - 1 })).toEqual([]);
    // The worker that claimed it crashed: once the lease has lapsed, another worker takes it.
    const retaken = await claim({ now: leaseUntil, leaseUntil: leaseUntil + 30_000 });
    expect(retaken.map((j) => j.deliveryId)).toEqual([id]);
    expect(await claim({ now: leaseUntil + 29_999 })).toEqual([]);
  });

  it('when claimed deliveries are released, then they are claimable at once', async () => {
    const hook = await addWebhook(alice.id);
    const ids = await Promise.all([enqueue(alice.id, [hook.id], T0), enqueue(alice.id, [hook.id], T0)]).then((d) =>
      d.flat(),
    );
    const jobs = await claim({ now: T0, leaseUntil: T0 + 60_000 });
    expect(jobs).toHaveLength(2);
    await store.releaseDeliveries([ids[0]!]);
    expect((await claim({ now: T0 + 1 })).map((j) => j.deliveryId)).toEqual([ids[0]]);
    await store.releaseDeliveries([]);
  });

  it('when several claims run at once, then no delivery is handed out twice', async () => {
    const hooks = await Promise.all([0, 1, 2, 3].map(() => addWebhook(alice.id)));
    // Several rounds of fresh deliveries, each raced over by eight claims at once.
    for (let round = 0; round < 5; round++) {
      const now = T0 + round * 1000;
      for (let i = 0; i < 6; i++)
        await enqueue(
          alice.id,
          hooks.map((h) => h.id),
          now + i,
        );
      const claims = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.claimDueDeliveries({
            now: now + 100,
            leaseUntil: now + 600_000,
            limit: 4,
            perWebhook: 4,
            skipWebhookIds: [],
          }),
        ),
      );
      const claimed = claims.flat().map((j) => j.deliveryId);
      expect(claimed.length, `round ${round}`).toBeGreaterThan(0);
      expect(claimed.length, `round ${round}: ${claimed.join(' ')}`).toBe(new Set(claimed).size);
      // Every claimed delivery is leased: a later claim does not hand it out again.
      const later = (await claim({ now: now + 200 })).map((j) => j.deliveryId);
      expect(
        later.filter((id) => claimed.includes(id)),
        `round ${round}`,
      ).toEqual([]);
    }
  });

  it('when several claims run at once with room for every due delivery, then together they take all of them', async () => {
    // A claim must not hold back more than it takes: rows one claim locks but does not lease are
    // skipped by the claims running beside it, and wait for the next poll.
    const hooks = await Promise.all([0, 1, 2, 3].map(() => addWebhook(alice.id)));
    const all: string[] = [];
    for (let i = 0; i < 6; i++)
      all.push(
        ...(await enqueue(
          alice.id,
          hooks.map((h) => h.id),
          T0 + i,
        )),
      );
    expect(all).toHaveLength(24);

    const claims = await Promise.all(
      Array.from({ length: 8 }, () =>
        store.claimDueDeliveries({
          now: T0 + 100,
          leaseUntil: T0 + 60_000,
          limit: 4,
          perWebhook: 4,
          skipWebhookIds: [],
        }),
      ),
    );
    const claimed = claims.flat().map((j) => j.deliveryId);
    // 8 claims × 4 is room for all 24.
    expect([...claimed].sort()).toEqual([...all].sort());
  });
});

// ---- attempts

/** Until another session of this database waits for a lock (at most ~2 s): the race is then set up. */
async function waitForLockWait(client: pg.Client): Promise<void> {
  for (let waited = 0; waited < 100; waited++) {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('recordAttempt and restartDelivery', () => {
  let alice: Holder;
  let hook: Webhook;
  let id: string;

  beforeEach(async () => {
    alice = await addHolder('alice');
    hook = await addWebhook(alice.id);
    [id] = (await enqueue(alice.id, [hook.id], T0)) as [string];
  });

  it('when an attempt fails with a retry left, then it is logged, the delivery stays pending until nextAttemptAt and is claimable then, lease or not', async () => {
    await claim({ now: T0, leaseUntil: T0 + 600_000 });
    const attempt = attemptOf(1, T0 + 10, null);
    await store.recordAttempt(id, attempt, { status: 'pending', nextAttemptAt: T0 + 5000 }, T0 + 50);

    expect(await store.getDelivery(hook.id, id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: T0 + 5000,
      updatedAt: T0 + 50,
      attemptLog: [attempt],
    });
    expect(await claim({ now: T0 + 4999 })).toEqual([]);
    // The attempt ended the claim: the retry is due at nextAttemptAt, not at the end of the old lease.
    const [job] = await claim({ now: T0 + 5000 });
    expect(job).toMatchObject({ deliveryId: id, attempts: 1, retryStep: 1 });
  });

  it('when attempts follow one another, then the log grows in order and the counters move with it', async () => {
    const first = attemptOf(1, T0, 503);
    const second = attemptOf(2, T0 + 5000, 200);
    await store.recordAttempt(id, first, { status: 'pending', nextAttemptAt: T0 + 5000 }, T0 + 1);
    await store.recordAttempt(id, second, { status: 'succeeded' }, T0 + 5001);
    const delivery = await store.getDelivery(hook.id, id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, nextAttemptAt: null, updatedAt: T0 + 5001 });
    expect(delivery?.attemptLog).toEqual([first, second]);
    expect((await store.getWebhook(alice.id, hook.id))?.active).toBe(true);
  });

  it('when an attempt fails for good without disabling, then the delivery is failed and the webhook stays active', async () => {
    await store.recordAttempt(id, attemptOf(1, T0), { status: 'failed', disableWebhook: false }, T0 + 1);
    expect(await store.getDelivery(hook.id, id)).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    expect(await store.getWebhook(alice.id, hook.id)).toEqual(hook);
  });

  it('when an attempt fails with disableWebhook, then the delivery is failed and the webhook is deactivated (and no longer subscribed)', async () => {
    await store.recordAttempt(id, attemptOf(1, T0, 410), { status: 'failed', disableWebhook: true }, T0 + 7);
    expect(await store.getDelivery(hook.id, id)).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    expect(await store.getWebhook(alice.id, hook.id)).toEqual({ ...hook, active: false, updatedAt: T0 + 7 });
    expect(await store.subscribedWebhookIds(alice.id, 'booking.created')).toEqual([]);
  });

  it('when the delivery was deleted meanwhile, then recording an attempt does nothing and does not fail', async () => {
    await claim({ now: T0 });
    await store.transaction((tx) => tx.deleteWebhook(alice.id, hook.id));
    await expect(store.recordAttempt(id, attemptOf(1, T0), { status: 'succeeded' }, T0 + 1)).resolves.toBeUndefined();
    expect(await count('webhook_delivery_attempts')).toBe(0);
    expect(await count('webhook_deliveries')).toBe(0);
  });

  it.skipIf(testStoreKind() !== 'postgres')(
    'when the delivery is deleted while the attempt is being recorded, then recording does nothing and does not fail (PostgreSQL)',
    async () => {
      // Only PostgreSQL has concurrent writers; SQLite's write transactions are exclusive. A second
      // connection deletes the delivery and holds its transaction open; recordAttempt starts, still
      // sees the delivery, and waits on its row; then the deletion commits.
      const deleter = new pg.Client({ connectionString: testStore.databaseUrl });
      await deleter.connect();
      try {
        await deleter.query('begin');
        await deleter.query('delete from webhook_delivery_attempts where delivery_id = $1', [id]);
        await deleter.query('delete from webhook_deliveries where id = $1', [id]);
        const recording = store.recordAttempt(id, attemptOf(1, T0), { status: 'succeeded' }, T0 + 1).then(
          () => 'resolved',
          (error: unknown) => error,
        );
        // Once recordAttempt waits on the deleter's row lock, let the deletion land.
        await waitForLockWait(deleter);
        await deleter.query('commit');
        expect(await recording).toBe('resolved');
      } finally {
        await deleter.end();
      }
      expect(await count('webhook_delivery_attempts')).toBe(0);
      expect(await count('webhook_deliveries')).toBe(0);
    },
  );

  it.skipIf(testStoreKind() !== 'postgres')(
    'when the webhook is deleted while an attempt on one of its deliveries is being recorded, then the deletion waits and succeeds (PostgreSQL)',
    async () => {
      // The other side of the race above: an attempt's transaction (here on a second connection)
      // has logged its attempt but not committed yet.
      const recorder = new pg.Client({ connectionString: testStore.databaseUrl });
      await recorder.connect();
      try {
        await recorder.query('begin');
        await recorder.query(
          'insert into webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms) values ($1, 1, $2, 5)',
          [id, T0],
        );
        const deleting = store
          .transaction((tx) => tx.deleteWebhook(alice.id, hook.id))
          .then(
            (deleted) => deleted,
            (error: unknown) => error,
          );
        await waitForLockWait(recorder);
        await recorder.query('commit');
        expect(await deleting).toBe(true);
      } finally {
        await recorder.end();
      }
      expect(await store.getWebhook(alice.id, hook.id)).toBeUndefined();
      expect(await count('webhook_delivery_attempts')).toBe(0);
      expect(await count('webhook_deliveries')).toBe(0);
    },
  );

  it('when a failed delivery is restarted, then it is pending and due at once with a fresh retry schedule, keeping its attempt count and log', async () => {
    await store.recordAttempt(id, attemptOf(1, T0), { status: 'pending', nextAttemptAt: T0 + 5000 }, T0 + 1);
    await store.recordAttempt(id, attemptOf(2, T0 + 5000), { status: 'failed', disableWebhook: false }, T0 + 5001);
    expect(await claim({ now: T0 + 86_400_000 })).toEqual([]);

    const restartAt = T0 + 86_400_000;
    await store.transaction((tx) => tx.restartDelivery(id, restartAt));
    const delivery = await store.getDelivery(hook.id, id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, nextAttemptAt: restartAt, updatedAt: restartAt });
    expect(delivery?.attemptLog.map((a) => a.attempt)).toEqual([1, 2]);
    expect(await claim({ now: restartAt - 1 })).toEqual([]);
    const [job] = await claim({ now: restartAt });
    expect(job).toMatchObject({ deliveryId: id, attempts: 2, retryStep: 0 });
  });

  it('when a claimed delivery is restarted, then its lease is dropped and it is claimable at once', async () => {
    await claim({ now: T0, leaseUntil: T0 + 600_000 });
    await store.transaction((tx) => tx.restartDelivery(id, T0 + 10));
    expect((await claim({ now: T0 + 10 })).map((j) => j.deliveryId)).toEqual([id]);
  });
});

// ---- bookings under concurrency, through the use cases

/** A holder's key and an event type, driven through the use cases at a fixed clock. */
async function bookingSetup(eventTypeFields: Partial<Parameters<typeof createEventType>[2]> = {}) {
  const context: AppContext = {
    store,
    now: () => at('2026-03-01T00:00:00Z'),
    webhooks: { allowPrivateTargets: false },
  };
  const { key } = await createApiKey(context, { holderName: 'alice', scopes: ['*'], expiresAt: null });
  const caller: Caller = callerWith(key);
  const eventType = await createEventType(context, caller, {
    title: 'Intro call',
    durationMinutes: 30,
    ...eventTypeFields,
  });
  return { context, key, caller, eventType };
}

/** Ten bookings half an hour apart on one morning, all started at once. */
function raceTenBookings({ context, caller, eventType }: Awaited<ReturnType<typeof bookingSetup>>) {
  const starts = Array.from({ length: 10 }, (_, i) => at('2026-03-02T09:00:00Z') + i * 30 * MINUTE_MS);
  const attempts = starts.map((start) =>
    createBooking(context, caller, { eventTypeId: eventType.id, start, guestName: 'G', guestEmail: 'g@example.com' }),
  );
  return { starts, attempts };
}

describe('concurrent bookings', () => {
  it('when 30 bookings of one start race, then exactly one is confirmed and the other 29 fail with slot-unavailable', async () => {
    const { context, key, caller, eventType } = await bookingSetup({ bufferAfterMinutes: 10 });
    const open = [{ start: '08:00', end: '18:00' }];
    await replaceAvailability(context, caller, {
      timeZone: 'UTC',
      weekly: { monday: open, tuesday: open, wednesday: open, thursday: open, friday: open, saturday: [], sunday: [] },
      overrides: [],
    });
    const start = '2026-03-02T09:00:00Z';
    // Subscribed to booking.created: the winner's event is written, the losers' are not.
    await addWebhook(key.holderId);

    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        createBooking(context, caller, {
          eventTypeId: eventType.id,
          start,
          guestName: `Guest ${i}`,
          guestEmail: `g${i}@example.com`,
        }),
      ),
    );

    const won = results.filter((r): r is PromiseFulfilledResult<Booking> => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    for (const { reason } of lost) {
      expect(reason).toBeInstanceOf(DomainError);
      expect((reason as DomainError).code).toBe('slot-unavailable');
    }
    const confirmed = (await testStore.rows('bookings')).filter((r) => r.status === 'confirmed');
    expect(confirmed.map((r) => r.id)).toEqual([won[0]!.value.id]);
    expect(await count('webhook_events')).toBe(1);
  });

  it('when bookings of different starts race, then all of them are confirmed', async () => {
    const { starts, attempts } = raceTenBookings(await bookingSetup());
    const booked = await Promise.all(attempts);
    expect(booked.map((b) => b.start).sort((a, b) => a - b)).toEqual(starts);
    expect(await count('bookings')).toBe(10);
  });

  it('when bookings of different starts on one day race for an event type capped at 2 a day, then exactly 2 are confirmed and the rest fail with the daily limit', async () => {
    const { attempts } = raceTenBookings(await bookingSetup({ maxBookingsPerDay: 2 }));
    const results = await Promise.allSettled(attempts);

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(result.reason).toBeInstanceOf(DomainError);
      expect((result.reason as DomainError).message).toBe(UNBOOKABLE_DETAIL['daily-limit-reached']);
    }
    expect(await count('bookings')).toBe(2);
  });
});
