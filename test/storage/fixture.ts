// The storage suites' fixture: a fresh store per test (a new SQLite file, or this test process's
// PostgreSQL database emptied; see test/support/databases.ts) and records written straight
// through the ports. The bindings below are live: each test sees the storage of its own run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { ClaimRequest, DeliveryJob } from '../../src/app/ports/delivery-queue.js';
import type { Store } from '../../src/app/ports/store.js';
import type { Holder } from '../../src/domain/api-key.js';
import type { Booking } from '../../src/domain/booking.js';
import type { EventType } from '../../src/domain/event-type.js';
import type { PageAfter, PageRequest } from '../../src/domain/page.js';
import type { DeliveryAttempt, Webhook, WebhookEventType } from '../../src/domain/webhook.js';
import type { ChangePollTiming } from '../../src/storage/postgres-change-poll.js';
import type { Storage } from '../../src/storage/storage.js';
import { openTestStore, type TestStore } from '../support/databases.js';
import { at, bookingRecord, eventTypeRecord, newHolder, newId, type BookingFields } from './records.js';

export const T0 = at('2026-03-02T00:00:00Z');

let dir: string;
export let testStore: TestStore;
export let storage: Storage;
export let store: Store;

/**
 * Gives each test of the calling file a fresh, empty storage, its PostgreSQL change poll timed by
 * `changePoll` (the production defaults unless given).
 */
export function useFreshStorage(changePoll?: ChangePollTiming): void {
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slotwise-storage-'));
    testStore = await openTestStore(dir, changePoll);
    storage = testStore.storage;
    store = storage.store;
  });

  afterEach(async () => {
    await testStore.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

/** A holder of its own account, named after it (as `keys create --holder NAME` makes one). */
export async function addHolder(name: string): Promise<Holder> {
  return store.transaction(async (tx) => {
    const account = await tx.accounts.ensure({ id: newId('acc'), name, createdAt: T0 });
    return tx.holders.ensure(...newHolder(account.id, name, T0));
  });
}

export function eventTypeOf(holderId: string, fields: Partial<EventType> = {}): EventType {
  return eventTypeRecord(holderId, T0, fields);
}

export async function addEventType(holderId: string, fields: Partial<EventType> = {}): Promise<EventType> {
  const eventType = eventTypeOf(holderId, fields);
  await store.transaction((tx) => tx.eventTypes.insert(eventType));
  return eventType;
}

export function bookingOf(eventType: EventType, start: string, end: string, fields: BookingFields = {}): Booking {
  return bookingRecord(eventType, start, end, { ...fields, createdAt: fields.createdAt ?? T0 });
}

export async function addBooking(...args: Parameters<typeof bookingOf>): Promise<Booking> {
  const booking = bookingOf(...args);
  await store.transaction((tx) => tx.bookings.insert(booking));
  return booking;
}

export async function addWebhook(
  holderId: string,
  fields: { events?: WebhookEventType[]; active?: boolean; createdAt?: number } = {},
): Promise<Webhook> {
  const holder = await store.holders.get(holderId);
  const webhook: Webhook = {
    id: newId('whk'),
    accountId: holder!.accountId,
    holderId,
    url: 'https://hooks.example.com/slotwise',
    events: fields.events ?? ['booking.created', 'booking.cancelled', 'booking.rescheduled'],
    description: null,
    active: fields.active ?? true,
    secret: `whsec_${newId('whk').slice(4)}`,
    createdAt: fields.createdAt ?? T0,
    updatedAt: fields.createdAt ?? T0,
  };
  await store.transaction((tx) => tx.webhooks.insert(webhook));
  return webhook;
}

/** Another holder of an existing account (contract §12). */
export async function addHolderIn(accountId: string, name: string): Promise<Holder> {
  return store.transaction((tx) => tx.holders.ensure(...newHolder(accountId, name, T0)));
}

/** An account webhook (no holder): it hears every event of the account. */
export async function addAccountWebhook(
  accountId: string,
  fields: { events?: WebhookEventType[]; active?: boolean; createdAt?: number } = {},
): Promise<Webhook> {
  const webhook: Webhook = {
    id: newId('whk'),
    accountId,
    holderId: null,
    url: 'https://hooks.example.com/account',
    events: fields.events ?? ['booking.created', 'booking.cancelled', 'calendar_source.failed'],
    description: null,
    active: fields.active ?? true,
    secret: `whsec_${newId('whk').slice(4)}`,
    createdAt: fields.createdAt ?? T0,
    updatedAt: fields.createdAt ?? T0,
  };
  await store.transaction((tx) => tx.webhooks.insert(webhook));
  return webhook;
}

/** One outbox event at `createdAt` with one delivery per webhook (due at `createdAt`); returns the delivery ids. */
export async function enqueue(holderId: string, webhookIds: string[], createdAt: number): Promise<string[]> {
  const eventId = newId('msg');
  const deliveries = webhookIds.map((webhookId) => ({ id: newId('dlv'), webhookId }));
  await store.transaction((tx) =>
    tx.outbox.enqueue(
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

export function claim(fields: Partial<ClaimRequest> & { now: number }): Promise<DeliveryJob[]> {
  return storage.deliveryQueue.claimDue({
    leaseUntil: fields.now + 60_000,
    limit: 100,
    perWebhook: 100,
    perHolder: 100,
    perAccount: 100,
    skipWebhookIds: [],
    skipOwnerIds: [],
    skipAccountIds: [],
    ...fields,
  });
}

export function attemptOf(n: number, startedAt: number, statusCode: number | null = 500): DeliveryAttempt {
  return {
    attempt: n,
    startedAt,
    durationMs: 12,
    statusCode,
    error: statusCode === null ? 'connection refused' : null,
    responseExcerpt: 'nope',
  };
}

export async function count(table: string): Promise<number> {
  return (await testStore.rows(table)).length;
}

/** Every page of a keyset-paged list, following `after` from the last item of each page. */
export async function allPages<T extends { id: string }>(
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

export const byKeyThenId =
  <T extends { id: string }>(keyOf: (item: T) => number, direction: 1 | -1 = 1) =>
  (a: T, b: T): number =>
    direction * (keyOf(a) - keyOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
