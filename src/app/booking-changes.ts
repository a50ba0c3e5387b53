import {
  assertReschedulable,
  confirmedBooking,
  markRescheduled,
  withCancellation,
  MAX_METADATA_KEYS,
  type Booking,
  type Metadata,
} from '../domain/booking.js';
import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import type { Location } from '../domain/location.js';
import type { Reminder } from '../domain/reminders.js';
import { subscribedTo } from '../domain/webhook.js';
import { announce, type Actor } from './booking-announcements.js';
import { eventTypeDeleted, rulesToBook, takeTime, type TakenTime } from './booking-decision.js';
import {
  expectedOwnersOf,
  hostIdFor,
  hostIdOfHolderType,
  ownersOfBooking,
  ownersOfTeam,
  reachOf,
  teamRulesToBook,
  type ActingOn,
} from './bookings.js';
import type { AppContext } from './context.js';
import { instantField } from './instants.js';
import { transactionOfOwners } from './owner-scope.js';
import { dropReminders, scheduleReminders } from './reminders.js';

// A booking's changes after it was made (cancel, metadata, reschedule): each in one transaction
// with its events, e-mails, calendar writes and reminders.

export async function cancelBooking(
  context: AppContext,
  by: ActingOn,
  id: string,
  reason: string | null,
  actor: Actor = 'api',
): Promise<Booking> {
  return transactionOfOwners(context, expectedOwnersOf(by), async (tx, events, needs) => {
    // No calendar lock: the move is decided by the conditional update, and freeing time needs no
    // check.
    const booking = await tx.bookings.get(reachOf(by), id);
    if (!booking) throw notFound(`Booking ${id}`);
    needs(ownersOfBooking(booking, by.accountId));
    const now = context.now();
    const result = withCancellation(booking, reason, now);
    if (!(await tx.bookings.update(result, booking.status))) throw movedMeanwhile(id);
    await announce(context, tx, events, by.accountId, result, 'booking.cancelled', { actor }, now);
    await dropReminders(tx, result, by.accountId);
    return result;
  });
}

/**
 * Sets (or, with `null`, removes) the integrator's metadata keys of a booking in any status; the
 * rest stay. More than `MAX_METADATA_KEYS` in all is a 400.
 */
export async function updateBookingMetadata(
  context: AppContext,
  by: ActingOn,
  id: string,
  changes: Record<string, string | null>,
): Promise<Booking> {
  return transactionOfOwners(context, expectedOwnersOf(by), async (tx, _events, needs) => {
    const booking = await tx.bookings.get(reachOf(by), id);
    if (!booking) throw notFound(`Booking ${id}`);
    needs(ownersOfBooking(booking, by.accountId));
    const metadata: Metadata = { ...booking.metadata };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete metadata[key];
      else metadata[key] = value;
    }
    if (Object.keys(metadata).length > MAX_METADATA_KEYS) {
      throw invalidRequest([{ field: 'metadata', message: `may hold at most ${MAX_METADATA_KEYS} keys in all` }]);
    }
    const updated: Booking = { ...booking, metadata, updatedAt: context.now() };
    if (!(await tx.bookings.update(updated, booking.status))) throw movedMeanwhile(id);
    return updated;
  });
}

export interface RescheduleInput {
  start: string | number;
  reason?: string;
  /** A round-robin team booking's new host (contract §14), also at the same start: a reassignment. */
  hostId?: string;
}

/**
 * The new booking (confirmed, linked to the old one) and the old one (now `rescheduled`). A team
 * booking (contract §14) keeps its hosts when they are all free at the new start; a round-robin
 * one whose hosts are not gets the type's fixed hosts and another by the rule, or with `hostId`
 * that host; 409 only when no assignment is possible.
 */
export async function rescheduleBooking(
  context: AppContext,
  by: ActingOn,
  id: string,
  input: RescheduleInput,
  actor: Actor = 'api',
): Promise<{ booking: Booking; previous: Booking }> {
  const start = instantField('start', input.start);
  return transactionOfOwners(context, expectedOwnersOf(by), async (tx, events, needs) => {
    const old = await tx.bookings.get(reachOf(by), id);
    if (!old) throw notFound(`Booking ${id}`);
    needs(ownersOfBooking(old, by.accountId));
    if (old.holderId !== null && input.hostId !== undefined) throw hostIdOfHolderType();
    assertReschedulable(old);
    const now = context.now();
    const newId = context.ids.newId('bkg');
    const previous = markRescheduled(old, newId, input.reason ?? null, now);
    // The old booking leaves the confirmed ones before the new one is written, once, so the new
    // one may overlap its time.
    let released = false;
    const release = async () => {
      if (!released && !(await tx.bookings.update(previous, old.status))) throw movedMeanwhile(id);
      released = true;
    };
    let booking: Booking | undefined;
    // A moved booking takes the event type's location and reminders as they are now (contract
    // §16), read with its rules.
    let location: Location | null = null;
    let reminders: readonly Reminder[] = [];
    const insert = async (taken: TakenTime) => {
      await release();
      booking = confirmedBooking(newId, taken.time, { ...old, location }, now, old);
      return tx.bookings.insert(booking, taken.seat);
    };
    let webhookIds: string[] | undefined;
    const deleted = () => eventTypeDeleted('this booking');
    if (old.holderId === null) {
      const rules = await teamRulesToBook(tx, by.accountId, old.eventTypeId, now, deleted);
      needs(ownersOfTeam(by.accountId, rules));
      const hostId = hostIdFor(rules.eventType, input.hostId);
      ({ location, reminders } = rules.eventType);
      await takeTime(tx, context.zones, {
        rules,
        start,
        now,
        moving: old.id,
        hostId,
        keep: hostId === null ? old.hostIds : undefined,
        insert,
      });
    } else {
      const rules = await rulesToBook(tx, old.holderId, old.eventTypeId, deleted);
      ({ location, reminders } = rules.eventType);
      await takeTime(tx, context.zones, { rules, start, now, moving: old.id, insert });
      webhookIds = subscribedTo(rules.webhooks, 'booking.rescheduled');
    }
    await announce(
      context,
      tx,
      events,
      by.accountId,
      booking!,
      'booking.rescheduled',
      { actor, previousBooking: previous },
      now,
      webhookIds,
    );
    await dropReminders(tx, previous, by.accountId);
    await scheduleReminders(tx, booking!, by.accountId, reminders, now);
    return { booking: booking!, previous };
  });
}

function movedMeanwhile(id: string): DomainError {
  return new DomainError('invalid-state', `Booking ${id} was cancelled or rescheduled by a concurrent request.`);
}
