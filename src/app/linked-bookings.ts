import type { Holder } from '../domain/api-key.js';
import type { Booking } from '../domain/booking.js';
import type { AppContext } from './context.js';

/** A booking a guest's link opens, with whose it is and its event type's title. */
export interface LinkedBooking {
  holder: Holder;
  booking: Booking;
  /** Event type id → title (a deleted event type's too: its bookings stay). */
  titles: Map<string, string>;
}

/**
 * The booking a `manage`, `ics` or embedded `confirmation` link was made for (in any status); undefined for a link that
 * opens nothing. The link names the booking only, so its holder is looked up first.
 */
export async function linkedBooking(
  context: AppContext,
  use: 'manage' | 'ics' | 'confirmation',
  token: string,
): Promise<LinkedBooking | undefined> {
  const bookingId =
    use === 'confirmation' ? context.links.confirmationOf(token, context.now()) : context.links.bookingOf(use, token);
  if (bookingId === undefined) return undefined;
  // A team booking's links open the account's team pages (contract §14), not a holder's.
  const owner = await context.store.bookings.ownerOf(bookingId);
  if (owner?.holderId == null) return undefined;
  const holderId = owner.holderId;
  const [holder, booking] = await Promise.all([
    context.store.holders.get(holderId),
    context.store.bookings.get({ holderId }, bookingId),
  ]);
  if (!holder || !booking) return undefined;
  return { holder, booking, titles: await context.store.eventTypes.titles(holderId, [booking.eventTypeId]) };
}
