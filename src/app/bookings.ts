import { compileAvailability } from '../domain/availability.js';
import {
  assertReschedulable,
  withCancellation,
  markRescheduled,
  newBooking,
  type Booking,
  type GuestDetails,
} from '../domain/booking.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { EventType } from '../domain/event-type.js';
import type { Instant } from '../domain/instant.js';
import { bookingCheckWindows, checkBookable, UNBOOKABLE_DETAIL } from '../domain/slots.js';
import type { PageAfter } from '../domain/page.js';
import type { Zones } from '../domain/zone.js';
import { loadAvailability } from './holder-availability.js';
import type { AppContext, Caller } from './context.js';
import { bookableEventType } from './event-types.js';
import { instantField, timeZoneField } from './instants.js';
import { transactionWithEvents } from './outbox.js';
import { pageOf, type Page } from './paging.js';
import type { Transaction } from './ports/store.js';
import { queryRange } from './ranges.js';
import { bookingView } from './views.js';

export interface CreateBookingInput {
  eventTypeId: string;
  start: string | number;
  guestName: string;
  guestEmail: string;
  guestTimeZone?: string;
  notes?: string;
}

export async function createBooking(context: AppContext, caller: Caller, input: CreateBookingInput): Promise<Booking> {
  const start = instantField('start', input.start);
  const guest: GuestDetails = {
    guestName: input.guestName,
    guestEmail: input.guestEmail,
    guestTimeZone: input.guestTimeZone === undefined ? null : timeZoneField('guestTimeZone', input.guestTimeZone),
    notes: input.notes ?? null,
  };
  return transactionWithEvents(context, async (tx, events) => {
    const eventType = await bookableEventType(tx.eventTypes, caller.holderId, input.eventTypeId);
    const now = context.now();
    const sameDay = await assertBookable(tx, context.zones, eventType, start, now, null);
    const booking = newBooking(context.ids.newId('bkg'), eventType, start, guest, now);
    await occupy(tx, eventType, booking, sameDay);
    await events.add({
      holderId: caller.holderId,
      type: 'booking.created',
      data: { booking: bookingView(booking) },
      now,
    });
    return booking;
  });
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

export function listBookings(context: AppContext, caller: Caller, query: ListBookingsQuery): Promise<Page<Booking>> {
  const { from, to } = queryRange(query, context.now());
  return pageOf(
    query.limit,
    (limit) =>
      context.store.bookings.listConfirmed(caller.holderId, {
        from,
        to,
        eventTypeId: query.eventTypeId ?? null,
        limit,
        after: query.after,
      }),
    (booking) => booking.start,
  );
}

export async function cancelBooking(
  context: AppContext,
  caller: Caller,
  id: string,
  reason: string | null,
): Promise<Booking> {
  return transactionWithEvents(context, async (tx, events) => {
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
      data: { booking: bookingView(result) },
      now,
    });
    return result;
  });
}

/** The new booking (confirmed, linked to the old one) and the old one (now `rescheduled`). */
export async function rescheduleBooking(
  context: AppContext,
  caller: Caller,
  id: string,
  input: { start: string | number; reason?: string },
): Promise<{ booking: Booking; previous: Booking }> {
  const start = instantField('start', input.start);
  return transactionWithEvents(context, async (tx, events) => {
    const old = await tx.bookings.get(caller.holderId, id);
    if (!old) throw notFound(`Booking ${id}`);
    assertReschedulable(old);
    const eventType = await tx.eventTypes.get(caller.holderId, old.eventTypeId);
    if (!eventType) {
      throw new DomainError(
        'slot-unavailable',
        'The event type of this booking was deleted; it has no bookable times any more.',
      );
    }
    const now = context.now();
    const sameDay = await assertBookable(tx, context.zones, eventType, start, now, old.id);
    const booking = newBooking(context.ids.newId('bkg'), eventType, start, old, now, old.id);
    const previous = markRescheduled(old, booking.id, input.reason ?? null, now);
    // The old booking leaves the confirmed ones first, so the new one may overlap its time.
    if (!(await tx.bookings.update(previous, old.status))) throw movedMeanwhile(id);
    await occupy(tx, eventType, booking, sameDay);
    await events.add({
      holderId: caller.holderId,
      type: 'booking.rescheduled',
      data: { booking: bookingView(booking), previousBooking: bookingView(previous) },
      now,
    });
    return { booking, previous };
  });
}

/**
 * Stores a booking that `assertBookable` allowed as the calendar read then, and makes that true
 * at commit. Overlaps: the database refuses the insert when a concurrent booking took the time
 * (PostgreSQL's exclusion constraint; SQLite has one writer). The daily cap counts bookings,
 * which no constraint does: with the booking written, the calendar lock queues the event type's
 * other bookings of the day, and the count read under it includes every one that committed
 * first. The lock comes after the insert (the lock order of `Transaction.lockCalendar`).
 */
async function occupy(tx: Transaction, eventType: EventType, booking: Booking, sameDay: CappedDay): Promise<void> {
  if (!(await tx.bookings.insert(booking)))
    throw new DomainError('slot-unavailable', UNBOOKABLE_DETAIL['overlaps-booking']);
  const limit = eventType.maxBookingsPerDay;
  if (limit === null || sameDay === null) return;
  await tx.lockCalendar(eventType.holderId);
  const ofTheDay = await tx.bookings.occupanciesStartingIn(eventType.holderId, eventType.id, sameDay.from, sameDay.to);
  if (ofTheDay.length > limit) throw new DomainError('slot-unavailable', UNBOOKABLE_DETAIL['daily-limit-reached']);
}

/** The local day whose bookings a daily cap counts; null without a cap. */
type CappedDay = ReturnType<typeof bookingCheckWindows>['sameDay'];

/**
 * Judges `start` by contract §5 at `now`, ignoring `excludeBookingId` (the booking being moved).
 * Returns the local day whose bookings the daily cap counts, when the event type has one.
 */
async function assertBookable(
  tx: Transaction,
  zones: Zones,
  eventType: EventType,
  start: Instant,
  now: Instant,
  excludeBookingId: string | null,
): Promise<CappedDay> {
  const holderId = eventType.holderId;
  const exclude = excludeBookingId ?? undefined;
  const { availability } = await loadAvailability(tx, holderId);
  const zone = zones.of(availability.timeZone);
  const windows = bookingCheckWindows(zone, eventType, start);
  const [overlapping, sameDay] = await Promise.all([
    tx.bookings.occupanciesOverlapping(holderId, windows.overlapping.from, windows.overlapping.to, exclude),
    windows.sameDay
      ? tx.bookings.occupanciesStartingIn(holderId, eventType.id, windows.sameDay.from, windows.sameDay.to, exclude)
      : [],
  ]);
  // A booking of the same day that also overlaps is in both answers: count it once.
  const { from, to } = windows.overlapping;
  const bookings = [...overlapping, ...sameDay.filter((b) => !(b.occupiedStart < to && b.occupiedEnd > from))];
  const reason = checkBookable(
    {
      availability: compileAvailability(availability, zone),
      eventTypeId: eventType.id,
      policy: eventType,
      bookings,
      now,
    },
    start,
  );
  if (reason !== null) throw new DomainError('slot-unavailable', UNBOOKABLE_DETAIL[reason]);
  return windows.sameDay;
}

function movedMeanwhile(id: string): DomainError {
  return new DomainError('invalid-state', `Booking ${id} was cancelled or rescheduled by a concurrent request.`);
}
