import type { Notification } from '../domain/notification.js';
import { writeQueuedEmails } from './booking-emails.js';
import { getBooking, type ActingOn } from './bookings.js';
import type { AppContext } from './context.js';

/** The changes of the booking's owner whose e-mails the log writes before it is read, at most. */
const CHANGES_WRITTEN_BY_THE_LOG = 100;

/**
 * The booking's notifications (contract §16), oldest first, for whoever may read the booking (else
 * 404). The e-mails of its owner's changes still waiting for the e-mail worker are written first,
 * so a booking's log shows its messages as soon as the change is answered.
 */
export async function listBookingNotifications(
  context: AppContext,
  actor: ActingOn,
  id: string,
): Promise<Notification[]> {
  const booking = await getBooking(context, actor, id);
  // A failure leaves them to the e-mail worker, which tries again and reports it.
  if (context.email)
    await writeQueuedEmails(context, {
      limit: CHANGES_WRITTEN_BY_THE_LOG,
      ownerId: booking.holderId ?? actor.accountId,
    });
  return context.store.notifications.listOfBooking(id);
}
