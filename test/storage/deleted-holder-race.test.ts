// A booking decided while its holder is being deleted: whichever commits first, the holder never
// ends up deleted with a live booking or hold. On SQLite the decision and the deletion are write
// transactions one after the other; on PostgreSQL they run at once, and the booking's commit is
// refused once it finds the deletion committed (migration 0013).
import { describe, expect, it } from 'vitest';
import { HolderDeleted } from '../../src/app/ports/storage-errors.js';
import type { Hold } from '../../src/domain/hold.js';
import { testStoreKind } from '../support/databases.js';
import { addEventType, addHolder, bookingOf, store, T0, useFreshStorage } from './fixture.js';

useFreshStorage();

describe.skipIf(testStoreKind() !== 'postgres')('a booking racing its holder’s deletion (PostgreSQL)', () => {
  for (const kind of ['booking', 'hold'] as const) {
    it(`when the deletion commits while a ${kind} is being written, then the ${kind}’s commit is refused and nothing of it stays`, async () => {
      const holder = await addHolder('ada');
      const eventType = await addEventType(holder.id);
      const booking = bookingOf(eventType, '2026-03-09T09:00:00Z', '2026-03-09T09:30:00Z');
      const hold: Hold = { ...booking, expiresAt: T0 + 600_000, page: null };
      let deleted!: () => void;
      const deletionCommitted = new Promise<void>((resolve) => (deleted = resolve));
      const written = store.transaction(async (tx) => {
        expect(kind === 'booking' ? await tx.bookings.insert(booking) : await tx.holds.insert(hold)).toBe(true);
        await deletionCommitted;
      });
      await store.transaction((tx) => tx.holders.markDeleted(holder.id, T0 + 1));
      deleted();
      await expect(written).rejects.toBeInstanceOf(HolderDeleted);
      expect(await store.bookings.get({ holderId: holder.id }, booking.id)).toBeUndefined();
      expect(await store.holds.get({ holderId: holder.id }, hold.id, T0)).toBeUndefined();
    });
  }

  it('when a booking of a holder commits before the deletion starts, then the booking stands', async () => {
    const holder = await addHolder('ada');
    const eventType = await addEventType(holder.id);
    const booking = bookingOf(eventType, '2026-03-09T09:00:00Z', '2026-03-09T09:30:00Z');
    await store.transaction((tx) => tx.bookings.insert(booking));
    await store.transaction((tx) => tx.holders.markDeleted(holder.id, T0 + 1));
    expect((await store.bookings.get({ holderId: holder.id }, booking.id))?.status).toBe('confirmed');
  });
});
