// Account webhooks in the store (contract §12), on both engines: what a holder's events reach
// (its own webhooks and its account's, read on the booking path in the decision's one
// statement), what a request reaches by id and in lists, the account's own events, and the
// account's lock while its webhooks are counted.
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Holder } from '../../src/domain/api-key.js';
import type { Webhook } from '../../src/domain/webhook.js';
import { OutOfScope } from '../../src/storage/kysely/write-scope.js';
import { testStoreKind } from '../support/databases.js';
import {
  T0,
  addAccountWebhook,
  addEventType,
  addHolder,
  addHolderIn,
  addWebhook,
  storage,
  store,
  testStore,
  useFreshStorage,
} from './fixture.js';
import { newId } from './records.js';

useFreshStorage();

let ada: Holder;
let bob: Holder;
let zed: Holder;

beforeEach(async () => {
  ada = await addHolder('ada');
  bob = await addHolderIn(ada.accountId, 'bob');
  zed = await addHolder('zed');
});

describe('whom a holder’s events reach', () => {
  it('when a holder’s event is addressed, then its own and its account’s active subscribed webhooks hear it, oldest first, and no sibling’s or other account’s', async () => {
    const accounts = await addAccountWebhook(ada.accountId, { createdAt: T0 + 2 });
    const adas = await addWebhook(ada.id, { createdAt: T0 + 1 });
    const calendarOnly = await addAccountWebhook(ada.accountId, { events: ['calendar_source.failed'], createdAt: T0 });
    await addAccountWebhook(ada.accountId, { active: false });
    const bobs = await addWebhook(bob.id, { createdAt: T0 + 3 });
    await addWebhook(zed.id);
    await addAccountWebhook(zed.accountId);

    expect(await store.webhooks.subscribedIds(ada.id, 'booking.created')).toEqual([adas.id, accounts.id]);
    expect(await store.webhooks.subscribedIds(ada.id, 'calendar_source.failed')).toEqual([
      calendarOnly.id,
      accounts.id,
    ]);
    expect(await store.webhooks.subscribedIds(bob.id, 'booking.created')).toEqual([accounts.id, bobs.id]);
    expect(await store.webhooks.subscribedIds(bob.id, 'booking.rescheduled')).toEqual([bobs.id]);
  });

  it('when a booking decision reads its rules, then they carry the holder’s and its account’s active webhooks, in the one statement', async () => {
    const eventType = await addEventType(ada.id);
    const adas = await addWebhook(ada.id, { createdAt: T0 + 1 });
    const accounts = await addAccountWebhook(ada.accountId, { createdAt: T0 + 2 });
    await addAccountWebhook(ada.accountId, { active: false });
    await addWebhook(bob.id);
    await addAccountWebhook(zed.accountId);

    const statementsOf = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const before = storage.queriesSent();
      const result = await work();
      return [result, storage.queriesSent() - before];
    };
    const [, ofTransaction] = await statementsOf(() => store.transaction(async () => {}));
    const [rules, ofDecision] = await statementsOf(() =>
      store.transaction((tx) => tx.decisions.rulesFor(ada.id, eventType.id)),
    );
    expect(ofDecision - ofTransaction, 'the rules’ statements').toBe(1);
    expect(rules?.webhooks).toEqual([
      { id: adas.id, events: adas.events },
      { id: accounts.id, events: accounts.events },
    ]);
  });
});

describe('what a reach reaches', () => {
  it('when the reach is the account, then it gets and lists every webhook of the account, its own and its holders’; with a holder, only that holder’s', async () => {
    const accounts = await addAccountWebhook(ada.accountId, { createdAt: T0 });
    const adas = await addWebhook(ada.id, { createdAt: T0 + 1 });
    const bobs = await addWebhook(bob.id, { createdAt: T0 + 2 });
    const zeds = await addWebhook(zed.id);
    const page = { limit: 10, after: null };

    const account = { accountId: ada.accountId };
    expect((await store.webhooks.list(account, page)).map((w) => w.id)).toEqual([accounts.id, adas.id, bobs.id]);
    for (const webhook of [accounts, adas, bobs])
      expect(await store.webhooks.get(account, webhook.id)).toEqual(webhook);
    expect(await store.webhooks.get(account, zeds.id)).toBeUndefined();

    const adaOnly = { accountId: ada.accountId, holderId: ada.id };
    expect((await store.webhooks.list(adaOnly, page)).map((w) => w.id)).toEqual([adas.id]);
    expect(await store.webhooks.get(adaOnly, accounts.id)).toBeUndefined();
    expect(await store.webhooks.get(adaOnly, bobs.id)).toBeUndefined();

    // A holder of another account, named with this account, reaches nothing.
    expect(await store.webhooks.list({ accountId: ada.accountId, holderId: zed.id }, page)).toEqual([]);
    expect(await store.webhooks.get({ accountId: ada.accountId, holderId: zed.id }, zeds.id)).toBeUndefined();
  });

  it('when a webhook out of reach is deleted, then nothing is deleted; in reach, it is gone', async () => {
    const accounts = await addAccountWebhook(ada.accountId);
    const adaOnly = { accountId: ada.accountId, holderId: ada.id };
    expect(await store.transaction((tx) => tx.webhooks.delete(adaOnly, accounts.id))).toBe(false);
    expect(await store.transaction((tx) => tx.webhooks.delete({ accountId: zed.accountId }, accounts.id))).toBe(false);
    expect(await store.webhooks.get({ accountId: ada.accountId }, accounts.id)).toEqual(accounts);
    expect(await store.transaction((tx) => tx.webhooks.delete({ accountId: ada.accountId }, accounts.id))).toBe(true);
    expect(await store.webhooks.get({ accountId: ada.accountId }, accounts.id)).toBeUndefined();
  });

  it('when the account’s webhooks are counted, then only its own count, not its holders’', async () => {
    await addAccountWebhook(ada.accountId);
    await addAccountWebhook(ada.accountId, { active: false });
    await addWebhook(ada.id);
    await addAccountWebhook(zed.accountId);
    expect(await store.transaction((tx) => tx.webhooks.countOfAccountLocked(ada.accountId))).toBe(2);
    expect(await store.webhooks.count(ada.id)).toBe(1);
  });

  it('when an account webhook is written in a transaction scoped to a holder, then it is refused before it is sent; scoped to the account, it is written', async () => {
    const webhook: Webhook = { ...(await addAccountWebhook(ada.accountId)), description: 'changed' };
    await expect(store.transaction((tx) => tx.webhooks.update(webhook), { ownerIds: [ada.id] })).rejects.toBeInstanceOf(
      OutOfScope,
    );
    await store.transaction((tx) => tx.webhooks.update(webhook), { ownerIds: [ada.accountId] });
    expect((await store.webhooks.get({ accountId: ada.accountId }, webhook.id))?.description).toBe('changed');
  });
});

describe('the account’s own events', () => {
  it('when an event of the account itself is written, then it has no holder, the account, and its delivery', async () => {
    const webhook = await addAccountWebhook(ada.accountId);
    const eventId = newId('msg');
    const deliveryId = newId('dlv');
    await store.transaction((tx) =>
      tx.outbox.enqueue(
        {
          holderId: null,
          accountId: ada.accountId,
          id: eventId,
          type: 'webhook.test',
          payload: '{"type":"webhook.test"}',
          createdAt: T0,
        },
        [{ id: deliveryId, webhookId: webhook.id }],
      ),
    );
    const [event] = await testStore.rows('webhook_events');
    expect(event).toMatchObject({ id: eventId, holder_id: null, account_id: ada.accountId });
    expect(await store.deliveries.get(webhook.id, deliveryId)).toMatchObject({
      eventType: 'webhook.test',
      status: 'pending',
    });
  });

  it('when a holder’s event is written, then it records the holder’s account', async () => {
    await store.transaction((tx) =>
      tx.outbox.enqueue(
        { holderId: bob.id, id: newId('msg'), type: 'booking.created', payload: '{}', createdAt: T0 },
        [],
      ),
    );
    expect(await testStore.rows('webhook_events')).toEqual([
      expect.objectContaining({ holder_id: bob.id, account_id: ada.accountId }),
    ]);
  });
});

describe('registrations taking turns', () => {
  it.skipIf(testStoreKind() !== 'postgres')(
    'when another transaction holds the account while registering an account webhook, then the count waits for it and sees its webhook (PostgreSQL)',
    async () => {
      const other = new pg.Client({ connectionString: testStore.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('select id from accounts where id = $1 for update', [ada.accountId]);
        const counting = store.transaction((tx) => tx.webhooks.countOfAccountLocked(ada.accountId));
        await waitForLockWait(other);
        await other.query(
          `insert into webhooks (id, account_id, holder_id, url, events, active, secret, created_at, updated_at)
           values ($1, $2, null, 'https://hooks.example.com/', '[]', 1, 'whsec_x', $3, $3)`,
          [newId('whk'), ada.accountId, T0],
        );
        await other.query('commit');
        expect(await counting).toBe(1);
      } finally {
        await other.end();
      }
    },
  );
});

/** Until another session of this database waits for a lock; throws after ~5 s without one. */
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
