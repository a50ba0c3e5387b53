import { DomainError } from './errors.js';
import { MINUTE_MS, type Instant } from './instant.js';
import type { EventType } from './event-type.js';
import type { Occupancy } from './slots.js';

export const BOOKING_STATUSES = ['confirmed', 'cancelled', 'rescheduled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export interface Booking {
  id: string;
  holderId: string;
  eventTypeId: string;
  start: Instant;
  end: Instant;
  /** Buffers as they were when booked: later edits of the event type do not move existing bookings. */
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  status: BookingStatus;
  guestName: string;
  guestEmail: string;
  guestTimeZone: string | null;
  notes: string | null;
  cancellationReason: string | null;
  cancelledAt: Instant | null;
  rescheduledFromId: string | null;
  rescheduledToId: string | null;
  createdAt: Instant;
  updatedAt: Instant;
}

export interface GuestDetails {
  guestName: string;
  guestEmail: string;
  guestTimeZone: string | null;
  notes: string | null;
}

export function newBooking(
  id: string,
  eventType: EventType,
  start: Instant,
  guest: GuestDetails,
  now: Instant,
  rescheduledFromId: string | null = null,
): Booking {
  return {
    id,
    holderId: eventType.holderId,
    eventTypeId: eventType.id,
    start,
    end: start + eventType.durationMinutes * MINUTE_MS,
    bufferBeforeMinutes: eventType.bufferBeforeMinutes,
    bufferAfterMinutes: eventType.bufferAfterMinutes,
    status: 'confirmed',
    guestName: guest.guestName,
    guestEmail: guest.guestEmail,
    guestTimeZone: guest.guestTimeZone,
    notes: guest.notes,
    cancellationReason: null,
    cancelledAt: null,
    rescheduledFromId,
    rescheduledToId: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The time a booking (or a hold, which has the same fields) occupies: buffers included. */
export function occupancyOf(
  booking: Pick<Booking, 'eventTypeId' | 'start' | 'end' | 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
): Occupancy {
  return {
    eventTypeId: booking.eventTypeId,
    start: booking.start,
    occupiedStart: booking.start - booking.bufferBeforeMinutes * MINUTE_MS,
    occupiedEnd: booking.end + booking.bufferAfterMinutes * MINUTE_MS,
  };
}

function requireConfirmed(booking: Booking, move: string): void {
  if (booking.status !== 'confirmed') {
    throw new DomainError('invalid-state', `Only a confirmed booking can be ${move}; this one is ${booking.status}.`);
  }
}

export function withCancellation(booking: Booking, reason: string | null, now: Instant): Booking {
  requireConfirmed(booking, 'cancelled');
  return { ...booking, status: 'cancelled', cancellationReason: reason, cancelledAt: now, updatedAt: now };
}

/** Marks `booking` as moved to `replacementId`; the caller creates the replacement in the same transaction. */
export function markRescheduled(booking: Booking, replacementId: string, reason: string | null, now: Instant): Booking {
  requireConfirmed(booking, 'rescheduled');
  return {
    ...booking,
    status: 'rescheduled',
    rescheduledToId: replacementId,
    cancellationReason: reason,
    updatedAt: now,
  };
}

/** Fails with invalid-state before any bookability check, per the contract's check order. */
export function assertReschedulable(booking: Booking): void {
  requireConfirmed(booking, 'rescheduled');
}
