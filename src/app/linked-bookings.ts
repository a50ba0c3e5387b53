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
  const holderId = await context.store.bookings.holderOf(bookingId);
  if (holderId === undefined) return undefined;
  const [holder, booking] = await Promise.all([
    context.store.holders.get(holderId),
    context.store.bookings.get(holderId, bookingId),
  ]);
  if (!holder || !booking) return undefined;
  return { holder, booking, titles: await context.store.eventTypes.titles(holderId, [booking.eventTypeId]) };
}
