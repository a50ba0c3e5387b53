import { compileAvailability } from '../domain/availability.js';
import {
  assertReschedulable,
  cancelBooking as cancelled,
  markRescheduled,
  newBooking,
  type Booking,
  type GuestDetails,
} from '../domain/booking.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { EventType } from '../domain/event-type.js';
import type { Instant } from '../domain/instant.js';
import { bookingCheckWindows, checkBookable, UNBOOKABLE_DETAIL } from '../domain/slots.js';
import type { StoreWrites } from '../storage/store.js';
import { loadAvailability } from './availability.js';
import type { AppContext, Caller } from './context.js';
import { newId } from './ids.js';
import { committingEvents, enqueueEvent } from './outbox.js';
import { instantField, timeZoneField } from './instants.js';
import { pageOf, type Page } from './paging.js';
import type { PageAfter } from '../storage/store.js';
import { queryRange } from './ranges.js';
import { bookableEventType } from './slots.js';
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
  return committingEvents(context, async (tx) => {
    const eventType = await bookableEventType(tx, caller.holderId, input.eventTypeId);
    // Overlaps need no lock: the database rules them out whatever runs concurrently (SQLite has one
    // writer; PostgreSQL's exclusion constraint rejects the second of two overlapping bookings).
    // A daily cap counts bookings, which only holding the calendar keeps true until the insert.
    if (eventType.maxBookingsPerDay !== null) await tx.lockCalendar(caller.holderId);
    const now = context.now();
    await assertBookable(tx, eventType, start, now, null);
    const booking = newBooking(newId('bkg'), eventType, start, guest, now);
    await tx.insertBooking(booking);
    await enqueueEvent(tx, {
      holderId: caller.holderId,
      type: 'booking.created',
      data: { booking: bookingView(booking) },
      now,
    });
    return booking;
  });
}

export async function getBooking(context: AppContext, caller: Caller, id: string): Promise<Booking> {
  const booking = await context.store.getBooking(caller.holderId, id);
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
      context.store.listConfirmedBookings(caller.holderId, {
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
  return committingEvents(context, async (tx) => {
    await tx.lockCalendar(caller.holderId);
    const booking = await tx.getBooking(caller.holderId, id);
    if (!booking) throw notFound(`Booking ${id}`);
    const now = context.now();
    const result = cancelled(booking, reason, now);
    if (!(await tx.updateBooking(result, booking.status))) throw movedMeanwhile(id);
    await enqueueEvent(tx, {
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
  return committingEvents(context, async (tx) => {
    await tx.lockCalendar(caller.holderId);
    const old = await tx.getBooking(caller.holderId, id);
    if (!old) throw notFound(`Booking ${id}`);
    assertReschedulable(old);
    const eventType = await tx.getEventType(caller.holderId, old.eventTypeId);
    if (!eventType) {
      throw new DomainError(
        'slot-unavailable',
        'The event type of this booking was deleted; it has no bookable times any more.',
      );
    }
    const now = context.now();
    await assertBookable(tx, eventType, start, now, old.id);
    const booking = newBooking(newId('bkg'), eventType, start, old, now, old.id);
    const previous = markRescheduled(old, booking.id, input.reason ?? null, now);
    if (!(await tx.updateBooking(previous, old.status))) throw movedMeanwhile(id);
    await tx.insertBooking(booking);
    await enqueueEvent(tx, {
      holderId: caller.holderId,
      type: 'booking.rescheduled',
      data: { booking: bookingView(booking), previousBooking: bookingView(previous) },
      now,
    });
    return { booking, previous };
  });
}

/** Judges `start` by contract §5 at `now`, ignoring `excludeBookingId` (the booking being moved). */
async function assertBookable(
  tx: StoreWrites,
  eventType: EventType,
  start: Instant,
  now: Instant,
  excludeBookingId: string | null,
): Promise<void> {
  const holderId = eventType.holderId;
  const exclude = excludeBookingId ?? undefined;
  const { availability } = await loadAvailability(tx, holderId);
  const windows = bookingCheckWindows(availability.timeZone, eventType, start);
  const [overlapping, sameDay] = await Promise.all([
    tx.occupanciesOverlapping(holderId, windows.overlapping.from, windows.overlapping.to, exclude),
    windows.sameDay
      ? tx.occupanciesStartingIn(holderId, eventType.id, windows.sameDay.from, windows.sameDay.to, exclude)
      : [],
  ]);
  // A booking of the same day that also overlaps is in both answers: count it once.
  const { from, to } = windows.overlapping;
  const bookings = [...overlapping, ...sameDay.filter((b) => !(b.occupiedStart < to && b.occupiedEnd > from))];
  const reason = checkBookable(
    { availability: compileAvailability(availability), eventTypeId: eventType.id, policy: eventType, bookings, now },
    start,
  );
  if (reason !== null) throw new DomainError('slot-unavailable', UNBOOKABLE_DETAIL[reason]);
}

function movedMeanwhile(id: string): DomainError {
  return new DomainError('invalid-state', `Booking ${id} was cancelled or rescheduled by a concurrent request.`);
}
