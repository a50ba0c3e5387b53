// The exclusion constraint `occupancies_no_overlap` is PostgreSQL's last line of defence
// against double booking: whatever the application does (a missed lock, a bug in the rules, a
// second code path), no two confirmed bookings of one holder may occupy overlapping time. These
// tests write bookings straight through `store.transaction(tx => tx.bookings.insert(…))`, bypassing
// the calendar lock and the booking rules, so only the constraint stands in the way.
//
// SQLite has no such constraint (its write transactions are exclusive, and the rules are the only
// guard), so the suite runs in the `postgres` project only; in the `sqlite` project it is skipped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { timeOf, type Booking } from '../../src/domain/booking.js';
import type { EventType } from '../../src/domain/event-type.js';
import { OverlapViolation } from '../../src/app/ports/storage-errors.js';
import type { Store } from '../../src/app/ports/store.js';
import type { Holder } from '../../src/domain/api-key.js';
import { newHold } from '../../src/domain/hold.js';
import { openTestStore, testStoreKind, type TestStore } from '../support/databases.js';
import { at, bookingRecord, eventTypeRecord, newHolder, newId, type BookingFields } from './records.js';

const T0 = at('2026-03-01T00:00:00Z');

describe.skipIf(testStoreKind() !== 'postgres')('PostgreSQL exclusion constraint on confirmed bookings', () => {
  let dir: string;
  let testStore: TestStore;
  let store: Store;
  let alice: Holder;
  let bob: Holder;
  let alices: EventType;
  let bobs: EventType;

  // A lock cycle's victim waits deadlock_timeout before PostgreSQL looks for the cycle: 5 s, far
  // above a loaded run's slowest transactions, so the bound below (under it) tells a deadlock from
  // a slow machine (at the default of 1 s the two looked alike). Set on this process's database
  // before the stores of the tests open their sessions, to which it then applies.
  beforeAll(async () => {
    const probeDir = mkdtempSync(join(tmpdir(), 'slotwise-constraint-'));
    const probe = await openTestStore(probeDir);
    try {
      const client = new pg.Client({ connectionString: probe.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>('select current_database() as name');
        await client.query(`alter database ${rows[0]!.name} set deadlock_timeout = '5s'`);
      } finally {
        await client.end();
      }
    } finally {
      await probe.close();
      rmSync(probeDir, { recursive: true, force: true });
    }
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slotwise-constraint-'));
    testStore = await openTestStore(dir);
    store = testStore.store;
    await store.transaction(async (tx) => {
      const account = await tx.accounts.ensure({ id: newId('acc'), name: 'team', createdAt: T0 });
      alice = await tx.holders.ensure(...newHolder(account.id, 'alice', T0));
      bob = await tx.holders.ensure(...newHolder(account.id, 'bob', T0));
      alices = eventTypeOf(alice);
      bobs = eventTypeOf(bob);
      await tx.eventTypes.insert(alices);
      await tx.eventTypes.insert(bobs);
    });
  });

  afterEach(async () => {
    await testStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function eventTypeOf(holder: Holder): EventType {
    return eventTypeRecord(holder.id, T0);
  }

  function bookingOf(eventType: EventType, start: string, end: string, fields: BookingFields = {}): Booking {
    return bookingRecord(eventType, start, end, { ...fields, createdAt: T0 });
  }

  /** Inserts directly, with no calendar lock and no rules: true when stored. */
  function insert(booking: Booking): Promise<boolean> {
    return store.transaction((tx) => tx.bookings.insert(booking));
  }

  async function expectRefused(write: Promise<boolean>): Promise<void> {
    expect(await write, 'the write was accepted').toBe(false);
  }

  async function expectOverlapViolation(write: Promise<unknown>): Promise<void> {
    const error = await write.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, 'the write was accepted').toBeInstanceOf(OverlapViolation);
  }

  async function storedIds(): Promise<string[]> {
    return (await testStore.rows('bookings')).map((r) => String(r.id)).sort();
  }

  it('when a second confirmed booking of the holder overlaps the first, then the store refuses it as an overlap violation and does not store it', async () => {
    const first = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    await insert(first);
    await expectRefused(insert(bookingOf(alices, '2026-03-02T09:15:00Z', '2026-03-02T09:45:00Z')));
    // Same start and end, and one wholly inside the other, are overlaps too.
    await expectRefused(insert(bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z')));
    await expectRefused(insert(bookingOf(alices, '2026-03-02T08:00:00Z', '2026-03-02T12:00:00Z')));
    expect(await storedIds()).toEqual([first.id]);
  });

  it('when the overlap is only between buffers, then the second booking is rejected too', async () => {
    // Occupies [09:00, 09:45): 15 minutes of buffer after.
    const first = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z', { bufferAfterMinutes: 15 });
    await insert(first);
    // The bookings themselves do not meet; the second's buffer before reaches back to 09:35.
    await expectRefused(
      insert(bookingOf(alices, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bufferBeforeMinutes: 25 })),
    );
    await expectRefused(insert(bookingOf(alices, '2026-03-02T09:40:00Z', '2026-03-02T10:10:00Z')));
    expect(await storedIds()).toEqual([first.id]);
  });

  it('when the overlapping insert is one write of a larger transaction, then the transaction goes on and can roll its other writes back', async () => {
    await insert(bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z'));
    const eventId = newId('msg');
    const refused = new Error('refused');
    const outcome = await store
      .transaction(async (tx) => {
        await tx.outbox.enqueue(
          { id: eventId, holderId: alice.id, type: 'booking.created', payload: '{}', createdAt: T0 },
          [],
        );
        if (!(await tx.bookings.insert(bookingOf(alices, '2026-03-02T09:10:00Z', '2026-03-02T09:40:00Z'))))
          throw refused;
      })
      .catch((error: unknown) => error);
    expect(outcome).toBe(refused);
    expect(await testStore.rows('webhook_events')).toEqual([]);
  });

  it('when two overlapping confirmed bookings are inserted in one transaction, then the second is refused', async () => {
    const first = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    const results = await store.transaction(async (tx) => [
      await tx.bookings.insert(first),
      await tx.bookings.insert(bookingOf(alices, '2026-03-02T09:29:00Z', '2026-03-02T09:59:00Z')),
    ]);
    expect(results).toEqual([true, false]);
    expect(await storedIds()).toEqual([first.id]);
  });

  it('when overlapping bookings are cancelled or rescheduled, then they may overlap a confirmed one and each other', async () => {
    const confirmed = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    const cancelled = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z', { status: 'cancelled' });
    const cancelledToo = bookingOf(alices, '2026-03-02T09:10:00Z', '2026-03-02T09:40:00Z', { status: 'cancelled' });
    const rescheduled = bookingOf(alices, '2026-03-02T09:15:00Z', '2026-03-02T09:45:00Z', { status: 'rescheduled' });
    // Cancelled first, then the confirmed one over it: the order does not matter.
    await insert(cancelled);
    await insert(confirmed);
    await insert(cancelledToo);
    await insert(rescheduled);
    expect(await storedIds()).toEqual([confirmed.id, cancelled.id, cancelledToo.id, rescheduled.id].sort());
  });

  it('when a booking is cancelled, then its time is free for a new confirmed booking', async () => {
    const first = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    await insert(first);
    await store.transaction((tx) =>
      tx.bookings.update({ ...first, status: 'cancelled', cancelledAt: T0, updatedAt: T0 }, 'confirmed'),
    );
    const second = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    await insert(second);
    expect(await storedIds()).toEqual([first.id, second.id].sort());
  });

  it('when a cancelled booking is set back to confirmed over a confirmed one, then the update is rejected', async () => {
    const confirmed = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    const cancelled = bookingOf(alices, '2026-03-02T09:20:00Z', '2026-03-02T09:50:00Z', { status: 'cancelled' });
    await insert(confirmed);
    await insert(cancelled);
    await expectOverlapViolation(
      store.transaction((tx) =>
        tx.bookings.update({ ...cancelled, status: 'confirmed', cancelledAt: null, updatedAt: T0 }, 'cancelled'),
      ),
    );
    expect((await store.bookings.get({ holderId: alice.id }, cancelled.id))?.status).toBe('cancelled');
  });

  it('when a hold overlaps a confirmed booking or another hold, then the store refuses it, and a booking over a hold too', async () => {
    const holdOf = (start: string, lifeSeconds = 300) =>
      newHold(newId('hld'), timeOf(alices, at(start)), lifeSeconds, T0);
    expect(await insert(bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z'))).toBe(true);
    await expectRefused(store.transaction((tx) => tx.holds.insert(holdOf('2026-03-02T09:30:00Z'))));
    expect(await store.transaction((tx) => tx.holds.insert(holdOf('2026-03-02T10:00:00Z')))).toBe(true);
    await expectRefused(store.transaction((tx) => tx.holds.insert(holdOf('2026-03-02T10:15:00Z'))));
    await expectRefused(insert(bookingOf(alices, '2026-03-02T10:15:00Z', '2026-03-02T10:45:00Z')));
  });

  it('when a hold has expired, then the constraint still sees it until it is dropped: what the use cases do before taking its time', async () => {
    const hold = newHold(newId('hld'), timeOf(alices, at('2026-03-02T09:00:00Z')), 30, T0);
    expect(await store.transaction((tx) => tx.holds.insert(hold))).toBe(true);
    const booking = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    await expectRefused(insert(booking));
    // Not yet expired one millisecond before: dropExpired leaves it.
    await store.transaction((tx) => tx.holds.dropExpired(alice.id, [hold.id], hold.expiresAt - 1));
    await expectRefused(insert(booking));
    expect(
      await store.transaction(async (tx) => {
        await tx.holds.dropExpired(alice.id, [hold.id], hold.expiresAt);
        return tx.bookings.insert(booking);
      }),
    ).toBe(true);
    expect(await storedIds()).toEqual([booking.id]);
  });

  it('when bookings of different holders overlap, then both are confirmed', async () => {
    const alicesBooking = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z', { bufferAfterMinutes: 30 });
    const bobsBooking = bookingOf(bobs, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z', { bufferBeforeMinutes: 30 });
    await insert(alicesBooking);
    await insert(bobsBooking);
    expect(await storedIds()).toEqual([alicesBooking.id, bobsBooking.id].sort());
  });

  it('when occupancies only touch, then both bookings are confirmed', async () => {
    const nine = bookingOf(alices, '2026-03-02T09:00:00Z', '2026-03-02T09:30:00Z');
    const halfPast = bookingOf(alices, '2026-03-02T09:30:00Z', '2026-03-02T10:00:00Z');
    // Buffers touching: [10:00, 10:45) then [10:45, 11:30).
    const withAfter = bookingOf(alices, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bufferAfterMinutes: 15 });
    const withBefore = bookingOf(alices, '2026-03-02T11:00:00Z', '2026-03-02T11:30:00Z', { bufferBeforeMinutes: 15 });
    // And one that ends where the first starts.
    const early = bookingOf(alices, '2026-03-02T08:30:00Z', '2026-03-02T09:00:00Z');
    for (const booking of [nine, halfPast, withAfter, withBefore, early]) await insert(booking);
    expect(await storedIds()).toEqual([nine, halfPast, withAfter, withBefore, early].map((b) => b.id).sort());
  });

  it('when overlapping bookings are inserted concurrently with no lock, then exactly one is stored and the others are refused, none by a deadlock', async () => {
    const attempts = Array.from({ length: 12 }, (_, i) =>
      // Different starts, all overlapping 09:00–09:30, and each overlapping its neighbours.
      bookingOf(
        alices,
        `2026-03-02T09:${String(i).padStart(2, '0')}:00Z`,
        `2026-03-02T09:${String(30 + i).padStart(2, '0')}:00Z`,
      ),
    );
    const results = await Promise.all(attempts.map((b) => insert(b)));
    expect(results.filter((stored) => stored)).toHaveLength(1);
    expect(await storedIds()).toHaveLength(1);
  });

  it('when a chain of bookings, each overlapping only its neighbours, is inserted in transactions held open together, then none waits for another in a cycle', async () => {
    // Each transaction inserts, then stays open until all have inserted: the plain insert of each
    // waited for its neighbours' and they for it, a deadlock PostgreSQL broke after deadlock_timeout.
    // Four: the test store's pool has five connections.
    const chain = Array.from({ length: 4 }, (_, i) =>
      bookingOf(
        alices,
        `2026-03-02T${String(9 + i).padStart(2, '0')}:00:00Z`,
        `2026-03-02T${String(10 + i).padStart(2, '0')}:10:00Z`,
      ),
    );
    let arrived = 0;
    let release!: () => void;
    const allInserted = new Promise<void>((resolve) => (release = resolve));
    const began = performance.now();
    const results = await Promise.all(
      chain.map((booking) =>
        store.transaction(async (tx) => {
          const inserting = tx.bookings.insert(booking);
          if (++arrived === chain.length) release();
          await allInserted;
          return inserting;
        }),
      ),
    );
    // A deadlock costs its victim 5 s (deadlock_timeout, above) and a retry.
    expect(performance.now() - began, 'a deadlock was detected and broken').toBeLessThan(3_000);
    // Every second one at least: no two stored ones overlap, and no refusal lacks a stored neighbour.
    const stored = chain.filter((_, i) => results[i]);
    expect(stored.length).toBeGreaterThanOrEqual(2);
    for (const [i, ok] of results.entries()) if (!ok) expect(results[i - 1] || results[i + 1]).toBe(true);
    expect(await storedIds()).toEqual(stored.map((b) => b.id).sort());
  });
});
