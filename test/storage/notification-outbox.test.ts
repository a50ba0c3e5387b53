// The notification outbox (src/app/ports/notification-store.ts) as the e-mail worker relies on it,
// on both engines: the booking changes whose e-mails are still to be written (each written out
// once), the order in which a recipient's notices of one occurrence are claimed, and how claims
// are shared between accounts and their holders.
import { beforeEach, describe, expect, it } from 'vitest';
import type { EmailChange, NewNotification } from '../../src/app/ports/notification-store.js';
import type { Holder } from '../../src/domain/api-key.js';
import { occurrenceNoticeMessage } from '../../src/domain/notification.js';
import { T0, addHolder, addHolderIn, storage, store, useFreshStorage } from './fixture.js';

useFreshStorage();

let alice: Holder;
let bob: Holder;

beforeEach(async () => {
  alice = await addHolder('alice');
  bob = await addHolder('bob');
});

function change(holder: Holder, bookingId: string, createdAt: number): Omit<EmailChange, 'id'> {
  return {
    bookingId,
    accountId: holder.accountId,
    holderId: holder.id,
    change: JSON.stringify({ kind: 'created', booking: { id: bookingId } }),
    createdAt,
  };
}

describe('booking changes whose e-mails are still to be written', () => {
  it('when changes are queued, then they are read oldest first, of all owners or of one, as written', async () => {
    await store.transaction(async (tx) => {
      await tx.notifications.queueEmailChange(change(alice, 'bkg_1', T0));
      await tx.notifications.queueEmailChange(change(bob, 'bkg_2', T0 + 1));
      await tx.notifications.queueEmailChange(change(alice, 'bkg_3', T0 + 2));
    });
    const all = await store.notifications.emailChangesToWrite(10);
    expect(all.map((c) => c.bookingId)).toEqual(['bkg_1', 'bkg_2', 'bkg_3']);
    expect(all[0]).toEqual({ id: all[0]!.id, ...change(alice, 'bkg_1', T0) });
    expect((await store.notifications.emailChangesToWrite(2)).map((c) => c.bookingId)).toEqual(['bkg_1', 'bkg_2']);
    expect((await store.notifications.emailChangesToWrite(10, alice.id)).map((c) => c.bookingId)).toEqual([
      'bkg_1',
      'bkg_3',
    ]);
  });

  it('when one account wrote many changes before another wrote one, then each account’s first is read before any second, an owner’s in the order written', async () => {
    await store.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) await tx.notifications.queueEmailChange(change(alice, `bkg_alice_${i}`, T0 + i));
    });
    await store.transaction((tx) => tx.notifications.queueEmailChange(change(bob, 'bkg_bob_0', T0 + 10)));
    // Oldest first alone would have been alice's first two.
    expect((await store.notifications.emailChangesToWrite(2)).map((c) => c.bookingId)).toEqual([
      'bkg_alice_0',
      'bkg_bob_0',
    ]);
    expect((await store.notifications.emailChangesToWrite(10)).map((c) => c.bookingId)).toEqual([
      'bkg_alice_0',
      'bkg_bob_0',
      'bkg_alice_1',
      'bkg_alice_2',
      'bkg_alice_3',
      'bkg_alice_4',
    ]);
  });

  it('when two transactions take the same changes at once, then each change is taken by one of them', async () => {
    await store.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) await tx.notifications.queueEmailChange(change(alice, `bkg_${i}`, T0 + i));
    });
    const waiting = await store.notifications.emailChangesToWrite(10);
    const taken = await Promise.all(
      [1, 2].map(() => store.transaction((tx) => tx.notifications.takeEmailChanges(waiting))),
    );
    expect(
      taken
        .flat()
        .map((c) => c.bookingId)
        .sort(),
    ).toEqual(waiting.map((c) => c.bookingId).sort());
    expect(await store.notifications.emailChangesToWrite(10)).toEqual([]);
  });

  it('when a change was rolled back with its transaction, then it is not there to be written', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.notifications.queueEmailChange(change(alice, 'bkg_undone', T0));
        throw new Error('the booking was refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store.notifications.emailChangesToWrite(10)).toEqual([]);
  });
});

describe("a recipient's notices of one occurrence", () => {
  const message = occurrenceNoticeMessage({
    occurrence: { eventTypeId: 'evt_workshop', start: T0 + 86_400_000 },
    holderId: 'hld_host',
  });
  const notice = (id: string): NewNotification => ({
    id,
    bookingId: 'bkg_seat',
    accountId: alice.accountId,
    holderId: alice.id,
    channel: 'email',
    kind: 'created',
    recipient: 'Host@Example.com',
    message,
    status: 'pending',
    lastError: null,
    dueAt: T0,
    createdAt: T0,
  });
  const claim = (now: number) =>
    storage.notificationQueue.claimDue({ channel: 'email', now, leaseUntil: now + 60_000, limit: 10 });

  it('when one is in flight, then another written in the same millisecond waits for it, even with the smaller id', async () => {
    await store.transaction((tx) => tx.notifications.insert([notice('ntf_zzz_first')]));
    expect((await claim(T0)).map((job) => job.id)).toEqual(['ntf_zzz_first']);
    // Written while the first is sent: the first may have read the occurrence before this change.
    await store.transaction((tx) =>
      tx.notifications.insert([{ ...notice('ntf_aaa_second'), recipient: 'host@example.com' }]),
    );
    expect(await claim(T0 + 1)).toEqual([]);
    await storage.notificationQueue.recordAttempt('ntf_zzz_first', { status: 'sent', kind: 'created' }, T0 + 2);
    expect((await claim(T0 + 3)).map((job) => job.id)).toEqual(['ntf_aaa_second']);
  });

  it('when two wait, then only the one written first (by time, then id) is claimed', async () => {
    await store.transaction((tx) =>
      tx.notifications.insert([{ ...notice('ntf_b'), createdAt: T0 - 1 }, notice('ntf_a'), notice('ntf_c')]),
    );
    expect((await claim(T0)).map((job) => job.id)).toEqual(['ntf_b']);
  });
});

describe('claims shared between accounts and their holders', () => {
  const message = (id: string, holder: Holder, dueAt: number): NewNotification => ({
    id,
    bookingId: `bkg_${id}`,
    accountId: holder.accountId,
    holderId: holder.id,
    channel: 'email',
    kind: 'created',
    recipient: `${id}@example.com`,
    message: JSON.stringify({ kind: 'created' }),
    status: 'pending',
    lastError: null,
    dueAt,
    createdAt: dueAt,
  });
  const claim = async (now: number, limit: number) =>
    (await storage.notificationQueue.claimDue({ channel: 'email', now, leaseUntil: now + 60_000, limit })).map(
      (job) => job.id,
    );

  it('when one account has many messages due before the others, then each claim takes every account’s first, and each of its holders’, before any second', async () => {
    // Alice's account has two holders: alice, with six messages due first, and carol, with one.
    const carol = await addHolderIn(alice.accountId, 'carol');
    await store.transaction((tx) =>
      tx.notifications.insert([
        ...Array.from({ length: 6 }, (_, i) => message(`ntf_alice_${i}`, alice, T0 + i)),
        message('ntf_bob_0', bob, T0 + 10),
        message('ntf_carol_0', carol, T0 + 20),
      ]),
    );
    // Oldest first alone would have been alice's first three.
    expect(await claim(T0 + 100, 2)).toEqual(['ntf_alice_0', 'ntf_bob_0']);
    // Alice's first is leased: alice's next and carol's first are each their holder's first now.
    expect(await claim(T0 + 100, 2)).toEqual(['ntf_alice_1', 'ntf_carol_0']);
    expect(await claim(T0 + 100, 10)).toEqual(['ntf_alice_2', 'ntf_alice_3', 'ntf_alice_4', 'ntf_alice_5']);
    expect(await claim(T0 + 100, 10)).toEqual([]);
  });

  it('when claims run at once, then each message is claimed by one of them', async () => {
    await store.transaction((tx) =>
      tx.notifications.insert([
        ...Array.from({ length: 8 }, (_, i) => message(`ntf_alice_${i}`, alice, T0 + i)),
        ...Array.from({ length: 8 }, (_, i) => message(`ntf_bob_${i}`, bob, T0 + i)),
      ]),
    );
    const claimed = (await Promise.all(Array.from({ length: 6 }, () => claim(T0 + 100, 4)))).flat();
    expect(claimed.length).toBe(new Set(claimed).size);
    expect(claimed.length + (await claim(T0 + 100, 20)).length).toBe(16);
  });
});
