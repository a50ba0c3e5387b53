// Retention (src/app/ports/housekeeping.ts), on both engines: finished deliveries past keeping go
// with their attempts and events; pending and recent ones stay; expired Idempotency-Keys go.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Holder } from '../../src/domain/api-key.js';
import type { Webhook } from '../../src/domain/webhook.js';
import { timeOf } from '../../src/domain/booking.js';
import { newHold } from '../../src/domain/hold.js';
import { newId } from './records.js';
import {
  addBooking,
  addEventType,
  addHolder,
  addWebhook,
  attemptOf,
  claim,
  count,
  enqueue,
  storage,
  store,
  T0,
  testStore,
  useFreshStorage,
} from './fixture.js';

useFreshStorage();

const DAY = 86_400_000;

describe('housekeeping', () => {
  let alice: Holder;
  let hook: Webhook;

  beforeEach(async () => {
    alice = await addHolder('alice');
    hook = await addWebhook(alice.id);
  });

  /** A delivery that finished (`succeeded` or `failed`) at `at`, after one attempt. */
  async function finishedAt(at: number, status: 'succeeded' | 'failed'): Promise<string> {
    const [id] = (await enqueue(alice.id, [hook.id], at)) as [string];
    await claim({ now: at });
    await storage.deliveryQueue.recordAttempt(
      id,
      attemptOf(1, at, status === 'succeeded' ? 200 : 500),
      status === 'succeeded' ? { status } : { status, disableWebhook: false },
      at,
    );
    return id;
  }

  it('when finished deliveries are older than the retention, then they go with their attempts and events; newer and pending ones stay', async () => {
    const old = await finishedAt(T0, 'succeeded');
    const oldFailed = await finishedAt(T0 + 1, 'failed');
    const recent = await finishedAt(T0 + 20 * DAY, 'succeeded');
    const [pending] = (await enqueue(alice.id, [hook.id], T0)) as [string];

    const removed = await storage.housekeeping.purge({ finishedBefore: T0 + 10 * DAY, now: T0 + 30 * DAY, limit: 100 });

    // Two deliveries, their two attempts and their two events.
    expect(removed).toBe(6);
    const left = (await store.deliveries.list(hook.id, { limit: 10, after: null })).map((d) => d.id).sort();
    expect(left).toEqual([recent, pending].sort());
    expect(left).not.toContain(old);
    expect(left).not.toContain(oldFailed);
    expect(await count('webhook_delivery_attempts')).toBe(1);
    expect(await count('webhook_events')).toBe(2);
  });

  it('when more is past keeping than one batch holds, then a batch removes at most its limit of each kind and the next one goes on', async () => {
    for (let i = 0; i < 5; i++) await finishedAt(T0 + i, 'succeeded');
    const request = { finishedBefore: T0 + DAY, now: T0 + DAY, limit: 2 };
    await storage.housekeeping.purge(request);
    expect(await count('webhook_deliveries')).toBe(3);
    await storage.housekeeping.purge(request);
    await storage.housekeeping.purge(request);
    expect(await count('webhook_deliveries')).toBe(0);
    expect(await count('webhook_delivery_attempts')).toBe(0);
    expect(await count('webhook_events')).toBe(0);
    expect(await storage.housekeeping.purge(request)).toBe(0);
  });

  it('when Idempotency-Keys have expired, then they go; live ones stay', async () => {
    const keyId = await seedKey();
    for (const [name, expiresAt] of [
      ['expired', T0],
      ['at-now', T0 + DAY],
      ['live', T0 + 2 * DAY],
    ] as const) {
      await storage.idempotencyLedger.claim({
        requester: keyId,
        key: name,
        requestHash: 'h',
        now: T0,
        expiresAt,
        staleBefore: T0 - 60_000,
      });
    }
    await storage.housekeeping.purge({ finishedBefore: T0 - DAY, now: T0 + DAY, limit: 100 });
    expect((await testStore.rows('idempotency_keys')).map((r) => r.key)).toEqual(['live']);
  });

  it('when holds have expired, then they go; live holds and bookings stay', async () => {
    const eventType = await addEventType(alice.id);
    const holdAt = (minutes: number, lifeSeconds: number) =>
      newHold(newId('hld'), timeOf(eventType, T0 + DAY + minutes * 60_000), lifeSeconds, T0);
    const holds = [holdAt(0, 30), holdAt(30, 60), holdAt(60, 300)];
    await store.transaction(async (tx) => {
      for (const hold of holds) expect(await tx.holds.insert(hold)).toBe(true);
    });
    const booking = await addBooking(eventType, '2026-03-03T02:00:00Z', '2026-03-03T02:30:00Z');

    // At the second hold's expiresAt it has expired too (live strictly before).
    expect(await storage.housekeeping.purge({ finishedBefore: T0 - DAY, now: T0 + 60_000, limit: 100 })).toBe(2);
    const left = (await testStore.rows('bookings')).map((r) => r.id).sort();
    expect(left).toEqual([holds[2]!.id, booking.id].sort());
  });

  it('when notifications finished before the retention, then they go; pending and newer ones stay (contract §16: kept as long as deliveries)', async () => {
    const notification = (id: string, createdAt: number) => ({
      id,
      bookingId: 'bkg_any',
      accountId: alice.accountId,
      holderId: alice.id,
      channel: 'email' as const,
      kind: 'created' as const,
      recipient: 'grace@example.com',
      message: '{}',
      status: 'pending' as const,
      lastError: null,
      dueAt: createdAt,
      createdAt,
    });
    await store.transaction((tx) =>
      tx.notifications.insert([
        notification('ntf_old_sent', T0),
        notification('ntf_old_failed', T0),
        notification('ntf_new_sent', T0),
        notification('ntf_pending', T0),
      ]),
    );
    await storage.notificationQueue.recordAttempt('ntf_old_sent', { status: 'sent' }, T0 + DAY);
    await storage.notificationQueue.recordAttempt('ntf_old_failed', { status: 'failed', error: '550 no' }, T0 + DAY);
    await storage.notificationQueue.recordAttempt('ntf_new_sent', { status: 'sent' }, T0 + 20 * DAY);

    expect(await storage.housekeeping.purge({ finishedBefore: T0 + 10 * DAY, now: T0 + 30 * DAY, limit: 100 })).toBe(2);
    expect((await testStore.rows('notifications')).map((r) => r.id).sort()).toEqual(['ntf_new_sent', 'ntf_pending']);
  });

  async function seedKey(): Promise<string> {
    const id = 'key_housekeeping';
    await store.transaction((tx) =>
      tx.apiKeys.insert(
        {
          id,
          accountId: alice.accountId,
          holderId: alice.id,
          scopes: ['*'],
          description: null,
          createdAt: T0,
          expiresAt: null,
          revokedAt: null,
        },
        'digest-of-a-test-key',
      ),
    );
    return id;
  }
});
