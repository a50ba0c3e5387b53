// Bookings raced through the use cases on the real wiring: the storage's serialised decision
// (SQLite's write transaction, PostgreSQL's locks and exclusion constraint) on both engines.
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/app/api-keys.js';
import { callerOfToken } from '../support/callers.js';
import { replaceAvailability } from '../../src/app/availability.js';
import { createBooking } from '../../src/app/bookings.js';
import type { AppContext, Caller } from '../../src/app/context.js';
import { createEventType } from '../../src/app/event-types.js';
import type { Booking } from '../../src/domain/booking.js';
import { DomainError } from '../../src/domain/errors.js';
import { MINUTE_MS } from '../../src/domain/instant.js';
import { UNBOOKABLE_DETAIL } from '../../src/domain/slots.js';
import { DEFAULT_HTTP_LIMITS } from '../../src/config.js';
import { composeServer } from '../../src/server.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../src/domain/webhook-retry.js';
import { testKeyring } from '../support/secrets.js';
import { at } from './records.js';
import { addWebhook, count, storage, testStore, useFreshStorage } from './fixture.js';

useFreshStorage();

// ---- bookings under concurrency, through the use cases

/** A holder's key and an event type, driven through the use cases at a fixed clock. */
async function bookingSetup(eventTypeFields: Partial<Parameters<typeof createEventType>[2]> = {}) {
  const server = await composeServer(storage, {
    now: () => at('2026-03-01T00:00:00Z'),
    keyring: testKeyring(),
    rateLimitPerMinute: 0,
    http: DEFAULT_HTTP_LIMITS,
    webhooks: {
      allowPrivateTargets: false,
      timeoutMs: 15_000,
      retryScheduleMs: [...DEFAULT_RETRY_SCHEDULE_MS],
      pollIntervalMs: 1_000,
      limitPerHolder: 25,
      limitPerAccount: 25,
      concurrency: 128,
      concurrencyPerHolder: 16,
      concurrencyPerAccount: 32,
      retentionDays: 30,
    },
  });
  const context: AppContext = server.context;
  const { key, token } = await createApiKey(context, {
    accountName: 'alice',
    holderName: 'alice',
    scopes: ['*'],
    expiresAt: null,
  });
  const caller: Caller = await callerOfToken(context.store.apiKeys, token);
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
    await addWebhook(key.holderId!);

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
