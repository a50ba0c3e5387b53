import {
  assertReschedulable,
  withCancellation,
  markRescheduled,
  newBooking,
  type Booking,
  MAX_METADATA_KEYS,
  type BookingDetails,
  type Metadata,
} from '../domain/booking.js';
import { answerErrors, type Answers } from '../domain/questions.js';
import { DomainError, invalidRequest, notFound } from '../domain/errors.js';
import { bookingFromHold } from '../domain/hold.js';
import type { EventType } from '../domain/event-type.js';
import type { Instant } from '../domain/instant.js';
import type { PageAfter } from '../domain/page.js';
import { subscribedTo, type Subscription } from '../domain/webhook.js';
import type { AppContext, Caller } from './context.js';
import { instantField, timeZoneField } from './instants.js';
import { eventTypeDeleted, rulesToBook, takeTime } from './booking-decision.js';
import { transactionWithEvents, type TransactionEvents } from './outbox.js';
import { pageOf, type ListScope, type Page } from './paging.js';
import { queryRange } from './ranges.js';
import { bookingView } from './views.js';

export interface CreateBookingInput {
  /** Required unless `holdId` is given; then, if sent, it must be the hold's. */
  eventTypeId?: string;
  /** Required unless `holdId` is given; then, if sent, it must be the hold's. */
  start?: string | number;
  /** Books a live hold's time (contract §9). */
  holdId?: string;
  guestName: string;
  guestEmail: string;
  guestTimeZone?: string;
  notes?: string;
  /** Checked against the event type's questions (contract §10). */
  answers?: Answers;
  metadata?: Metadata;
}

/** Who made a change: an API client, or the guest on a booking or manage page (webhooks' `data.actor`). */
export type Actor = 'api' | 'guest';

export async function createBooking(
  context: AppContext,
  caller: Pick<Caller, 'holderId'>,
  input: CreateBookingInput,
  actor: Actor = 'api',
): Promise<Booking> {
  if (input.holdId !== undefined) return bookHold(context, caller, input.holdId, input, actor);
  const missing = (['eventTypeId', 'start'] as const).filter((field) => input[field] === undefined);
  if (missing.length > 0) {
    throw invalidRequest(missing.map((field) => ({ field, message: 'is required (or a holdId)' })));
  }
  const start = instantField('start', input.start!);
  return transactionWithEvents(
    context,
    async (tx, events) => {
      const rules = await rulesToBook(tx, caller.holderId, input.eventTypeId!);
      const details = detailsOf(input, rules.eventType, actor);
      const now = context.now();
      const booking = newBooking(context.ids.newId('bkg'), rules.eventType, start, details, now);
      await takeTime(tx, context.zones, { rules, start, now, insert: () => tx.bookings.insert(booking) });
      await announceCreated(events, caller.holderId, rules.webhooks, booking, actor, now);
      return booking;
    },
    { ownerIds: [caller.holderId] },
  );
}

/**
 * Books a live hold's time as it was reserved (contract §9: notice, window and busy time are not
 * judged again) and ends the hold, in one transaction: ending it is one conditional statement, so
 * of a conversion and anything racing it for the hold (another conversion, a release, a booking of
 * its time just after it expired) exactly one wins.
 */
async function bookHold(
  context: AppContext,
  caller: Pick<Caller, 'holderId'>,
  holdId: string,
  input: CreateBookingInput,
  actor: Actor,
): Promise<Booking> {
  const start = input.start === undefined ? undefined : instantField('start', input.start);
  return transactionWithEvents(
    context,
    async (tx, events) => {
      const now = context.now();
      const hold = await tx.holds.get(caller.holderId, holdId, now);
      // Deleting an event type ends its holds, so a live hold's event type is there.
      const rules = hold && (await tx.decisions.rulesFor(caller.holderId, hold.eventTypeId));
      if (!hold || !rules) throw holdExpired(holdId);
      const eventType = rules.eventType;
      const mismatched = [
        ...(input.eventTypeId !== undefined && input.eventTypeId !== hold.eventTypeId ? ['eventTypeId'] : []),
        ...(start !== undefined && start !== hold.start ? ['start'] : []),
      ];
      if (mismatched.length > 0) {
        throw invalidRequest(mismatched.map((field) => ({ field, message: `is not the ${field} of hold ${holdId}` })));
      }
      const details = detailsOf(input, eventType, actor);
      const ended = await tx.holds.end(caller.holderId, holdId, now);
      if (!ended) throw holdExpired(holdId);
      const booking = bookingFromHold(context.ids.newId('bkg'), ended, details, now);
      // The hold kept its time from every other booking and hold, so nothing can refuse it here.
      await takeTime(tx, context.zones, {
        rules,
        start: hold.start,
        now,
        held: true,
        insert: () => tx.bookings.insert(booking),
      });
      await announceCreated(events, caller.holderId, rules.webhooks, booking, actor, now);
      return booking;
    },
    { ownerIds: [caller.holderId] },
  );
}

/** `booking.created` for a new booking, however it was made (outright, or from a hold). */
function announceCreated(
  events: TransactionEvents,
  holderId: string,
  webhooks: readonly Subscription[],
  booking: Booking,
  actor: Actor,
  now: Instant,
) {
  return events.add(
    { holderId, type: 'booking.created', data: { booking: bookingView(booking), actor }, now },
    subscribedTo(webhooks, 'booking.created'),
  );
}

/** The booking's details from the input, its answers checked against the event type's questions (400 per failing answer). */
function detailsOf(input: CreateBookingInput, eventType: EventType, actor: Actor): BookingDetails {
  const answers = input.answers ?? {};
  const errors = answerErrors(eventType.questions, answers);
  if (errors.length > 0) throw invalidRequest(errors);
  return {
    guestName: input.guestName,
    guestEmail: input.guestEmail,
    guestTimeZone: input.guestTimeZone === undefined ? null : timeZoneField('guestTimeZone', input.guestTimeZone),
    notes: input.notes ?? null,
    answers,
    metadata: input.metadata ?? {},
    source: actor === 'guest' ? 'page' : 'api',
  };
}

export function holdExpired(holdId: string): DomainError {
  return new DomainError(
    'hold-expired',
    `Hold ${holdId} is not live: it expired, was released or booked, or never existed for this account.`,
  );
}

export async function getBooking(context: AppContext, caller: Caller, id: string): Promise<Booking> {
  const booking = await context.store.bookings.get(caller.holderId, id);
  if (!booking) throw notFound(`Booking ${id}`);
  return booking;
}

export interface ListBookingsQuery {
  from?: string;
  to?: string;
  eventTypeId?: string;
  limit: number;
  after: PageAfter | null;
}

/** By start: the holder's confirmed bookings, or in account scope those of the account's holders, deleted ones too. */
export function listBookings(context: AppContext, scope: ListScope, query: ListBookingsQuery): Promise<Page<Booking>> {
  const { from, to } = queryRange(query, context.now());
  return pageOf(
    query.limit,
    (limit) => {
      const filter = { from, to, eventTypeId: query.eventTypeId ?? null, limit, after: query.after };
      return 'account' in scope
        ? context.store.bookings.listConfirmedOfAccount(scope.account, filter)
        : context.store.bookings.listConfirmed(scope.caller.holderId, filter);
    },
    (booking) => booking.start,
  );
}

export async function cancelBooking(
  context: AppContext,
  caller: Pick<Caller, 'holderId'>,
  id: string,
  reason: string | null,
  actor: Actor = 'api',
): Promise<Booking> {
  return transactionWithEvents(
    context,
    async (tx, events) => {
      // No calendar lock: the move is decided by the conditional update, and freeing time needs no
      // check.
      const booking = await tx.bookings.get(caller.holderId, id);
      if (!booking) throw notFound(`Booking ${id}`);
      const now = context.now();
      const result = withCancellation(booking, reason, now);
      if (!(await tx.bookings.update(result, booking.status))) throw movedMeanwhile(id);
      await events.add({
        holderId: caller.holderId,
        type: 'booking.cancelled',
        data: { booking: bookingView(result), actor },
        now,
      });
      return result;
    },
    { ownerIds: [caller.holderId] },
  );
}

/**
 * Sets (or, with `null`, removes) the integrator's metadata keys of a booking in any status; the
 * rest stay. More than `MAX_METADATA_KEYS` in all is a 400.
 */
export async function updateBookingMetadata(
  context: AppContext,
  caller: Caller,
  id: string,
  changes: Record<string, string | null>,
): Promise<Booking> {
  return context.store.transaction(
    async (tx) => {
      const booking = await tx.bookings.get(caller.holderId, id);
      if (!booking) throw notFound(`Booking ${id}`);
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
    },
    { ownerIds: [caller.holderId] },
  );
}

/** The new booking (confirmed, linked to the old one) and the old one (now `rescheduled`). */
export async function rescheduleBooking(
  context: AppContext,
  caller: Pick<Caller, 'holderId'>,
  id: string,
  input: { start: string | number; reason?: string },
  actor: Actor = 'api',
): Promise<{ booking: Booking; previous: Booking }> {
  const start = instantField('start', input.start);
  return transactionWithEvents(
    context,
    async (tx, events) => {
      const old = await tx.bookings.get(caller.holderId, id);
      if (!old) throw notFound(`Booking ${id}`);
      assertReschedulable(old);
      const rules = await rulesToBook(tx, caller.holderId, old.eventTypeId, () => eventTypeDeleted('this booking'));
      const now = context.now();
      const booking = newBooking(context.ids.newId('bkg'), rules.eventType, start, old, now, old.id);
      const previous = markRescheduled(old, booking.id, input.reason ?? null, now);
      await takeTime(tx, context.zones, {
        rules,
        start,
        now,
        moving: old.id,
        insert: async () => {
          // The old booking leaves the confirmed ones first, so the new one may overlap its time.
          if (!(await tx.bookings.update(previous, old.status))) throw movedMeanwhile(id);
          return tx.bookings.insert(booking);
        },
      });
      await events.add(
        {
          holderId: caller.holderId,
          type: 'booking.rescheduled',
          data: { booking: bookingView(booking), previousBooking: bookingView(previous), actor },
          now,
        },
        subscribedTo(rules.webhooks, 'booking.rescheduled'),
      );
      return { booking, previous };
    },
    { ownerIds: [caller.holderId] },
  );
}

function movedMeanwhile(id: string): DomainError {
  return new DomainError('invalid-state', `Booking ${id} was cancelled or rescheduled by a concurrent request.`);
}
