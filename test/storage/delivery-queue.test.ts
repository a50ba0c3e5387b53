// The delivery queue (src/app/ports/delivery-queue.ts) as the delivery worker relies on it, on
// both engines: claims, leases, attempts, and races with deletions.
import { excerptOf } from '../../src/worker/send-webhook.js';
import { describe, expect, it, beforeEach } from 'vitest';
import pg from 'pg';
import type { Holder } from '../../src/domain/api-key.js';
import type { Webhook } from '../../src/domain/webhook.js';
import { testStoreKind } from '../support/databases.js';
import {
  T0,
  addAccountWebhook,
  addHolder,
  addHolderIn,
  addWebhook,
  attemptOf,
  claim,
  count,
  enqueue,
  storage,
  store,
  testStore,
  useFreshStorage,
} from './fixture.js';

useFreshStorage();

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
      accountId: alice.accountId,
      ownerId: alice.id,
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
    await storage.deliveryQueue.recordAttempt(succeeded!, attemptOf(1, T0, 200), { status: 'succeeded' }, T0);
    await storage.deliveryQueue.recordAttempt(
      failed!,
      attemptOf(1, T0, 500),
      { status: 'failed', disableWebhook: false },
      T0,
    );
    expect((await claim({ now: T0 + 86_400_000 })).map((j) => j.deliveryId)).toEqual([pending]);
  });

  it('when a webhook is inactive, then its due deliveries are not claimed, and are once it is active again', async () => {
    const hook = await addWebhook(alice.id);
    const [id] = await enqueue(alice.id, [hook.id], T0);
    await store.transaction((tx) => tx.webhooks.update({ ...hook, active: false, updatedAt: T0 }));
    expect(await claim({ now: T0 + 1000 })).toEqual([]);
    await store.transaction((tx) => tx.webhooks.update({ ...hook, active: true, updatedAt: T0 }));
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

  it('when one holder has a backlog older than another holder’s due delivery, then a claim takes every holder’s first before any holder’s second', async () => {
    // Oldest first alone would give the whole claim to the holder with the backlog.
    const mallory = await addHolder('mallory');
    const hooks = [await addWebhook(mallory.id), await addWebhook(mallory.id), await addWebhook(mallory.id)];
    for (let i = 0; i < 10; i++)
      await enqueue(
        mallory.id,
        hooks.map((h) => h.id),
        T0 + i,
      );
    const own = await addWebhook(alice.id);
    const [alicesOne] = await enqueue(alice.id, [own.id], T0 + 100);

    const jobs = await claim({ now: T0 + 1000, limit: 2 });
    expect(jobs.map((j) => j.ownerId).sort()).toEqual([alice.id, mallory.id].sort());
    expect(jobs.map((j) => j.deliveryId)).toContain(alicesOne);
  });

  it('when a claim sets perHolder, then no holder gets more than perHolder, however many webhooks it has', async () => {
    const mallory = await addHolder('mallory');
    const hooks = [await addWebhook(mallory.id), await addWebhook(mallory.id), await addWebhook(mallory.id)];
    for (let i = 0; i < 4; i++)
      await enqueue(
        mallory.id,
        hooks.map((h) => h.id),
        T0 + i,
      );
    const own = await addWebhook(alice.id);
    for (let i = 0; i < 4; i++) await enqueue(alice.id, [own.id], T0 + i);

    const jobs = await claim({ now: T0 + 1000, perHolder: 5, perWebhook: 2, limit: 100 });
    const ofMallory = jobs.filter((j) => j.ownerId === mallory.id);
    expect(ofMallory).toHaveLength(5);
    for (const hook of hooks) expect(ofMallory.filter((j) => j.webhookId === hook.id).length).toBeLessThanOrEqual(2);
    expect(jobs.filter((j) => j.ownerId === alice.id)).toHaveLength(2);
  });

  it('when one account has many holders with older due deliveries and another account has one, then the first claim serves both accounts, and the first no more than perAccount', async () => {
    // Holder-first ranking alone would give an account of a thousand holders a thousand shares.
    const acme = await addHolder('acme-1');
    const crowd = [
      acme,
      ...(await Promise.all([2, 3, 4, 5, 6, 7, 8].map((n) => addHolderIn(acme.accountId, `acme-${n}`)))),
    ];
    for (const holder of crowd) {
      const hook = await addWebhook(holder.id);
      for (let i = 0; i < 3; i++) await enqueue(holder.id, [hook.id], T0 + i);
    }
    const own = await addWebhook(alice.id);
    const [alicesOne] = await enqueue(alice.id, [own.id], T0 + 100);

    const first = await claim({ now: T0 + 1000, limit: 2 });
    expect(first.map((j) => j.accountId).sort()).toEqual([acme.accountId, alice.accountId].sort());
    expect(first.map((j) => j.deliveryId)).toContain(alicesOne);

    const capped = await claim({ now: T0 + 2000, perAccount: 5, limit: 100 });
    expect(capped.filter((j) => j.accountId === acme.accountId)).toHaveLength(5);
  });

  it('when one account’s holders all have due deliveries, then its turns go round them: every holder’s first before any holder’s second', async () => {
    const busy = await addHolder('busy');
    const quiet = await addHolderIn(busy.accountId, 'quiet');
    const busyHook = await addWebhook(busy.id);
    for (let i = 0; i < 5; i++) await enqueue(busy.id, [busyHook.id], T0 + i);
    const quietHook = await addWebhook(quiet.id);
    const [quietOne] = await enqueue(quiet.id, [quietHook.id], T0 + 100);

    const jobs = await claim({ now: T0 + 1000, limit: 2 });
    expect(jobs.map((j) => j.ownerId).sort()).toEqual([busy.id, quiet.id].sort());
    expect(jobs.map((j) => j.deliveryId)).toContain(quietOne);
  });

  it('when an account’s own webhooks have a backlog, then they share as one owner of the account: perHolder for all of them together, and the account’s holders still get their turn', async () => {
    const team = await addHolder('team');
    const hooks = [await addAccountWebhook(team.accountId), await addAccountWebhook(team.accountId)];
    for (let i = 0; i < 4; i++)
      await enqueue(
        team.id,
        hooks.map((h) => h.id),
        T0 + i,
      );
    const teams = await addWebhook(team.id);
    const [teamsOne] = await enqueue(team.id, [teams.id], T0 + 100);

    const jobs = await claim({ now: T0 + 1000, perHolder: 3, limit: 100 });
    const ofAccount = jobs.filter((j) => j.ownerId === team.accountId);
    expect(ofAccount).toHaveLength(3);
    expect(ofAccount.every((j) => j.accountId === team.accountId && hooks.some((h) => h.id === j.webhookId))).toBe(
      true,
    );
    // The account webhooks hear the holder's event too; the holder's own webhook got its delivery.
    expect(jobs.filter((j) => j.ownerId === team.id).map((j) => j.deliveryId)).toEqual([teamsOne]);
  });

  it('when accounts are to be skipped, then their deliveries are left for later', async () => {
    const mallory = await addHolder('mallory');
    const sibling = await addHolderIn(mallory.accountId, 'mallory-2');
    const theirs = [await addWebhook(mallory.id), await addAccountWebhook(mallory.accountId)];
    await enqueue(mallory.id, [theirs[0]!.id, theirs[1]!.id], T0);
    await enqueue(sibling.id, [theirs[1]!.id], T0);
    const own = await addWebhook(alice.id);
    const [alicesOne] = await enqueue(alice.id, [own.id], T0);
    const skipping = await claim({ now: T0, skipAccountIds: [mallory.accountId] });
    expect(skipping.map((j) => j.deliveryId)).toEqual([alicesOne]);
    expect((await claim({ now: T0 })).map((j) => j.accountId)).toEqual(Array(3).fill(mallory.accountId));
  });

  it('when holders are to be skipped, then their deliveries are left for later', async () => {
    const mallory = await addHolder('mallory');
    const theirs = await addWebhook(mallory.id);
    const own = await addWebhook(alice.id);
    await enqueue(mallory.id, [theirs.id], T0);
    const [alicesOne] = await enqueue(alice.id, [own.id], T0);
    expect((await claim({ now: T0, skipOwnerIds: [mallory.id] })).map((j) => j.deliveryId)).toEqual([alicesOne]);
    expect((await claim({ now: T0 })).map((j) => j.ownerId)).toEqual([mallory.id]);
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
    await storage.deliveryQueue.release([ids[0]!]);
    expect((await claim({ now: T0 + 1 })).map((j) => j.deliveryId)).toEqual([ids[0]]);
    await storage.deliveryQueue.release([]);
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
          storage.deliveryQueue.claimDue({
            now: now + 100,
            leaseUntil: now + 600_000,
            limit: 4,
            perWebhook: 4,
            perHolder: 100,
            perAccount: 100,
            skipWebhookIds: [],
            skipOwnerIds: [],
            skipAccountIds: [],
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
        storage.deliveryQueue.claimDue({
          now: T0 + 100,
          leaseUntil: T0 + 60_000,
          limit: 4,
          perWebhook: 4,
          perHolder: 100,
          perAccount: 100,
          skipWebhookIds: [],
          skipOwnerIds: [],
          skipAccountIds: [],
        }),
      ),
    );
    const claimed = claims.flat().map((j) => j.deliveryId);
    // 8 claims × 4 is room for all 24.
    expect([...claimed].sort()).toEqual([...all].sort());
  });
});

// ---- attempts

/**
 * Until another session of this database waits for a lock: the race is then set up. Throws after
 * ~5 s without one, so a test whose race never happened fails instead of passing.
 */
async function waitForLockWait(client: pg.Client): Promise<void> {
  for (let waited = 0; waited < 250; waited++) {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no session waited for a lock: the race this test describes was not set up');
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
    await storage.deliveryQueue.recordAttempt(id, attempt, { status: 'pending', nextAttemptAt: T0 + 5000 }, T0 + 50);

    expect(await store.deliveries.get(hook.id, id)).toMatchObject({
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

  it('when the receiver replied with NUL bytes, then the excerpt the sender makes of it is recorded (PostgreSQL refuses NUL in text)', async () => {
    await claim({ now: T0 });
    const attempt = { ...attemptOf(1, T0, 500), responseExcerpt: excerptOf(Buffer.from([0x7b, 0x00, 0xff, 0x7d])) };
    await storage.deliveryQueue.recordAttempt(id, attempt, { status: 'pending', nextAttemptAt: T0 + 5000 }, T0 + 1);
    expect((await store.deliveries.get(hook.id, id))?.attemptLog).toEqual([
      { ...attempt, responseExcerpt: '{\uFFFD\uFFFD}' },
    ]);
  });

  it('when attempts follow one another, then the log grows in order and the counters move with it', async () => {
    const first = attemptOf(1, T0, 503);
    const second = attemptOf(2, T0 + 5000, 200);
    await storage.deliveryQueue.recordAttempt(id, first, { status: 'pending', nextAttemptAt: T0 + 5000 }, T0 + 1);
    await storage.deliveryQueue.recordAttempt(id, second, { status: 'succeeded' }, T0 + 5001);
    const delivery = await store.deliveries.get(hook.id, id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, nextAttemptAt: null, updatedAt: T0 + 5001 });
    expect(delivery?.attemptLog).toEqual([first, second]);
    expect((await store.webhooks.get({ accountId: alice.accountId, holderId: alice.id }, hook.id))?.active).toBe(true);
  });

  it('when an attempt fails for good without disabling, then the delivery is failed and the webhook stays active', async () => {
    await storage.deliveryQueue.recordAttempt(
      id,
      attemptOf(1, T0),
      { status: 'failed', disableWebhook: false },
      T0 + 1,
    );
    expect(await store.deliveries.get(hook.id, id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      nextAttemptAt: null,
    });
    expect(await store.webhooks.get({ accountId: alice.accountId, holderId: alice.id }, hook.id)).toEqual(hook);
  });

  it('when an attempt fails with disableWebhook, then the delivery is failed and the webhook is deactivated (and no longer subscribed)', async () => {
    await storage.deliveryQueue.recordAttempt(
      id,
      attemptOf(1, T0, 410),
      { status: 'failed', disableWebhook: true },
      T0 + 7,
    );
    expect(await store.deliveries.get(hook.id, id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      nextAttemptAt: null,
    });
    expect(await store.webhooks.get({ accountId: alice.accountId, holderId: alice.id }, hook.id)).toEqual({
      ...hook,
      active: false,
      updatedAt: T0 + 7,
    });
    expect(await store.webhooks.subscribedIds(alice.id, 'booking.created')).toEqual([]);
  });

  it('when the delivery was deleted meanwhile, then recording an attempt does nothing and does not fail', async () => {
    await claim({ now: T0 });
    await store.transaction((tx) => tx.webhooks.delete({ accountId: alice.accountId, holderId: alice.id }, hook.id));
    await expect(
      storage.deliveryQueue.recordAttempt(id, attemptOf(1, T0), { status: 'succeeded' }, T0 + 1),
    ).resolves.toBeUndefined();
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
        const recording = storage.deliveryQueue
          .recordAttempt(id, attemptOf(1, T0), { status: 'succeeded' }, T0 + 1)
          .then(
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
          .transaction((tx) => tx.webhooks.delete({ accountId: alice.accountId, holderId: alice.id }, hook.id))
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
      expect(await store.webhooks.get({ accountId: alice.accountId, holderId: alice.id }, hook.id)).toBeUndefined();
      expect(await count('webhook_delivery_attempts')).toBe(0);
      expect(await count('webhook_deliveries')).toBe(0);
    },
  );

  it('when a failed delivery is restarted, then it is pending and due at once with a fresh retry schedule, keeping its attempt count and log', async () => {
    await storage.deliveryQueue.recordAttempt(
      id,
      attemptOf(1, T0),
      { status: 'pending', nextAttemptAt: T0 + 5000 },
      T0 + 1,
    );
    await storage.deliveryQueue.recordAttempt(
      id,
      attemptOf(2, T0 + 5000),
      { status: 'failed', disableWebhook: false },
      T0 + 5001,
    );
    expect(await claim({ now: T0 + 86_400_000 })).toEqual([]);

    const restartAt = T0 + 86_400_000;
    await store.transaction((tx) => tx.deliveries.restart(id, restartAt));
    const delivery = await store.deliveries.get(hook.id, id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, nextAttemptAt: restartAt, updatedAt: restartAt });
    expect(delivery?.attemptLog.map((a) => a.attempt)).toEqual([1, 2]);
    expect(await claim({ now: restartAt - 1 })).toEqual([]);
    const [job] = await claim({ now: restartAt });
    expect(job).toMatchObject({ deliveryId: id, attempts: 2, retryStep: 0 });
  });

  it('when a claimed delivery is restarted, then its lease is dropped and it is claimable at once', async () => {
    await claim({ now: T0, leaseUntil: T0 + 600_000 });
    await store.transaction((tx) => tx.deliveries.restart(id, T0 + 10));
    expect((await claim({ now: T0 + 10 })).map((j) => j.deliveryId)).toEqual([id]);
  });
});
