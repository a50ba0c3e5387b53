import type { Booking } from '../domain/booking.js';
import type { Instant } from '../domain/instant.js';
import type { DeliveredEventType } from '../domain/webhook.js';
import { queueCalendarWrites } from './booking-calendar-writes.js';
import { queueBookingEmails, type BookingChange } from './booking-emails.js';
import type { AppContext } from './context.js';
import type { TransactionEvents } from './outbox.js';
import type { Transaction } from './ports/store.js';
import { bookingView } from './views.js';

/** Who made a change: an API client, or the guest on a booking or manage page (webhooks' `data.actor`). */
export type Actor = 'api' | 'guest';

/**
 * A booking event, written with its change to the webhooks that hear it (contract §12): a holder's
 * booking's, its holder's and its account's (`webhookIds` when the decision read them already); a
 * team booking's, the account's and every host's, of this booking and of the one it moved from,
 * as the account's event. Its e-mails (contract §16) are written with it.
 */
export async function announce(
  context: AppContext,
  tx: Transaction,
  events: TransactionEvents,
  accountId: string,
  booking: Booking,
  type: Extract<DeliveredEventType, 'booking.created' | 'booking.cancelled' | 'booking.rescheduled'>,
  data: { actor: Actor; previousBooking?: Booking },
  now: Instant,
  webhookIds?: string[],
  sourceCounts?: ReadonlyMap<string, number>,
): Promise<void> {
  const content = {
    type,
    data: {
      booking: bookingView(booking),
      ...(data.previousBooking ? { previousBooking: bookingView(data.previousBooking) } : {}),
      actor: data.actor,
    },
    now,
  };
  if (booking.holderId !== null) {
    await events.add({ holderId: booking.holderId, ...content }, webhookIds);
  } else {
    const hostIds = new Set([...booking.hostIds, ...(data.previousBooking?.hostIds ?? [])]);
    const ofTeam = await tx.webhooks.subscribedIdsOfTeam(accountId, [...hostIds], type);
    await events.addOfAccount({ accountId, ...content }, ofTeam);
  }
  const change: BookingChange = data.previousBooking
    ? { kind: 'rescheduled', booking, previous: data.previousBooking }
    : { kind: type === 'booking.cancelled' ? 'cancelled' : 'created', booking };
  await queueBookingEmails(context, tx, events, accountId, change, now);
  await queueCalendarWrites(context, tx, events, accountId, change, now, sourceCounts);
}
