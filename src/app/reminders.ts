import type { Booking } from '../domain/booking.js';
import type { Instant } from '../domain/instant.js';
import { remindersAhead, type Reminder } from '../domain/reminders.js';
import type { AppContext } from './context.js';
import type { TransactionEvents } from './outbox.js';
import { byOwner, transactionOfOwners } from './owner-scope.js';
import type { Transaction } from './ports/store.js';
import { bookingView } from './views.js';

// Reminders (contract §16): a confirmed booking's reminders are rows of the store, written in the
// transaction that makes or moves it and removed in the one that cancels or moves it away; the
// reminder worker sends each when due, in a transaction that removes it. So a reminder survives
// restarts, is sent at least once (its event and its removal commit together), and never after a
// cancellation (which removes it first, or finds it sent).

/** Stores the reminders of a booking just made or moved to: the event type's, those still ahead at `now`. */
export async function scheduleReminders(
  tx: Transaction,
  booking: Booking,
  accountId: string,
  reminders: readonly Reminder[],
  now: Instant,
): Promise<void> {
  const ahead = remindersAhead(booking.start, reminders, now);
  await tx.reminders.insert(
    ahead.map(({ minutesBefore, dueAt }) => ({
      bookingId: booking.id,
      minutesBefore,
      dueAt,
      accountId,
      holderId: booking.holderId,
    })),
  );
}

/** Removes the reminders a booking cancelled or moved away still had to send. */
export function dropReminders(tx: Transaction, booking: Booking, accountId: string): Promise<void> {
  return tx.reminders.removeOf({ id: booking.id, holderId: booking.holderId, accountId });
}

/** A reminder being sent: what else its transaction writes is told this (the reminder e-mail). */
export interface ReminderSending {
  /** Whose event it is: the booking's account (a team booking's events are the account's). */
  accountId: string;
  booking: Booking;
  minutesBefore: number;
  now: Instant;
}

/**
 * What a due reminder's transaction writes besides its webhook event (contract §16: the guest's
 * reminder e-mail), injected by the composition root. It runs in the transaction that removes the
 * reminder, scoped to the booking's account and hosts, so what it writes commits exactly with it.
 */
export type AlsoOnReminder = (tx: Transaction, events: TransactionEvents, sending: ReminderSending) => Promise<void>;

/**
 * Sends up to `limit` reminders due now: each owner's (a holder's, or a team booking's account's)
 * in one transaction that claims them (another instance's claim is passed over), writes the
 * `booking.reminder` event of each whose booking is still confirmed and ahead (the others are only removed),
 * runs `alsoOnReminder`, and removes them. Returns how many were found due: fewer than `limit`
 * means none are left. An owner whose transaction fails is told to `failed` and tried again on the
 * next call; the others go on.
 */
export async function sendDueReminders(
  context: AppContext,
  options: { limit: number; alsoOnReminder?: AlsoOnReminder; failed?: (error: unknown, ownerId: string) => void },
): Promise<number> {
  const due = await context.store.reminders.dueBy(context.now(), options.limit);
  for (const [owner, reminders] of byOwner(due)) {
    try {
      await transactionOfOwners(context, [owner], async (tx, events, needs) => {
        const now = context.now();
        for (const reminder of await tx.reminders.claim(reminders, now)) {
          const booking = await tx.bookings.get(
            reminder.holderId === null ? { accountId: reminder.accountId } : { holderId: reminder.holderId },
            reminder.bookingId,
          );
          // Past its start (no instance ran at its time), a reminder would only confuse: it is dropped.
          if (booking?.status === 'confirmed' && booking.start > now) {
            if (booking.holderId === null) needs([reminder.accountId, ...booking.hostIds]);
            const sending = { accountId: reminder.accountId, booking, minutesBefore: reminder.minutesBefore, now };
            await announceReminder(tx, events, sending);
            await options.alsoOnReminder?.(tx, events, sending);
          }
          await tx.reminders.remove(reminder);
        }
      });
    } catch (error) {
      options.failed?.(error, owner);
    }
  }
  return due.length;
}

/**
 * The `booking.reminder` event, to the webhooks that hear the booking's other events (contract
 * §12, §14): a holder's booking's, its holder's and its account's; a team booking's, the account's
 * and every host's, as the account's event.
 */
async function announceReminder(
  tx: Transaction,
  events: TransactionEvents,
  { accountId, booking, minutesBefore, now }: ReminderSending,
): Promise<void> {
  const content = {
    type: 'booking.reminder' as const,
    data: { booking: bookingView(booking), minutesBefore },
    now,
  };
  if (booking.holderId !== null) {
    await events.add({ holderId: booking.holderId, ...content });
    return;
  }
  const webhookIds = await tx.webhooks.subscribedIdsOfTeam(accountId, booking.hostIds, 'booking.reminder');
  await events.addOfAccount({ accountId, ...content }, webhookIds);
}
