import type { Notification } from '../domain/notification.js';
import { getBooking, type ActingOn } from './bookings.js';
import type { AppContext } from './context.js';

/** The booking's notifications (contract §16), oldest first, for whoever may read the booking (else 404). */
export async function listBookingNotifications(
  context: AppContext,
  actor: ActingOn,
  id: string,
): Promise<Notification[]> {
  await getBooking(context, actor, id);
  return context.store.notifications.listOfBooking(id);
}
