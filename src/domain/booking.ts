import { DomainError } from './errors.js';
import { MINUTE_MS, type Instant } from './instant.js';
import type { EventType } from './event-type.js';
import type { TeamEventType } from './team-event-type.js';
import type { Answers } from './questions.js';
import type { Location } from './location.js';
import type { Occupancy } from './slots.js';

export const BOOKING_STATUSES = ['confirmed', 'cancelled', 'rescheduled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Where a booking was made (contract §10): through the API, or by a guest on a booking page. */
export const BOOKING_SOURCES = ['api', 'page'] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];

/** The languages a guest's e-mails are written in (contract §16): the booking pages' languages. */
export const GUEST_LANGUAGES = ['en', 'de'] as const;
export type GuestLanguage = (typeof GUEST_LANGUAGES)[number];

/** The integrator's own string values on a booking (contract §10). */
export type Metadata = Record<string, string>;
export const METADATA_KEY_PATTERN = '^[A-Za-z0-9_.-]{1,40}$';
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_VALUE = 500;

export interface Booking {
  id: string;
  /** The holder whose event type it is; null for a team booking, which is its account's (contract §14). */
  holderId: string | null;
  /** The holders whose time it occupies (contract §14), fixed when booked: for a personal event type, its holder. */
  hostIds: string[];
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
  /** The language of the guest's e-mails: the booking page's, or as the API was told (default `en`). */
  guestLanguage: GuestLanguage;
  notes: string | null;
  cancellationReason: string | null;
  cancelledAt: Instant | null;
  rescheduledFromId: string | null;
  rescheduledToId: string | null;
  /**
   * The appointment it belongs to (contract §16): the id of the first booking of its chain of
   * reschedules, which names the appointment's iCalendar UID (domain/appointment.ts).
   */
  appointmentId: string;
  /** How often the appointment was moved before this booking: 0 for its first booking. */
  moves: number;
  answers: Answers;
  metadata: Metadata;
  source: BookingSource;
  /** The event type's location when the booking was made or moved (contract §16); later edits leave it. */
  location: Location | null;
  createdAt: Instant;
  updatedAt: Instant;
}

/** What a booking says besides its time: the guest's details and answers, the integrator's metadata, where it was made. */
export interface BookingDetails {
  guestName: string;
  guestEmail: string;
  guestTimeZone: string | null;
  guestLanguage: GuestLanguage;
  notes: string | null;
  answers: Answers;
  metadata: Metadata;
  /** A rescheduled booking keeps the source of the one it replaces: it is the same appointment, moved. */
  source: BookingSource;
  /** The event type's location as it is when the booking is made or moved. */
  location: Location | null;
}

/** Where and when a booking is: the holder, event type, time and the buffers it keeps. */
export type BookedTime = Pick<
  Booking,
  'holderId' | 'hostIds' | 'eventTypeId' | 'start' | 'end' | 'bufferBeforeMinutes' | 'bufferAfterMinutes'
>;

/**
 * A confirmed booking of `time` (for a hold, the held time as it was reserved): a new appointment,
 * or with `movedFrom` the next booking of that one's appointment.
 */
export function confirmedBooking(
  id: string,
  time: BookedTime,
  details: BookingDetails,
  now: Instant,
  movedFrom: Pick<Booking, 'id' | 'appointmentId' | 'moves'> | null = null,
): Booking {
  return {
    id,
    holderId: time.holderId,
    hostIds: time.hostIds,
    eventTypeId: time.eventTypeId,
    start: time.start,
    end: time.end,
    bufferBeforeMinutes: time.bufferBeforeMinutes,
    bufferAfterMinutes: time.bufferAfterMinutes,
    status: 'confirmed',
    guestName: details.guestName,
    guestEmail: details.guestEmail,
    guestTimeZone: details.guestTimeZone,
    guestLanguage: details.guestLanguage,
    notes: details.notes,
    cancellationReason: null,
    cancelledAt: null,
    rescheduledFromId: movedFrom?.id ?? null,
    rescheduledToId: null,
    appointmentId: movedFrom?.appointmentId ?? id,
    moves: movedFrom === null ? 0 : movedFrom.moves + 1,
    answers: details.answers,
    metadata: details.metadata,
    source: details.source,
    location: details.location,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The time an event type takes from `start`, with its buffers as they are now: a holder's own
 * type takes its holder's; a team type (contract §14) the hosts chosen for it, and has no holder.
 */
export function timeOf(eventType: EventType, start: Instant): BookedTime;
export function timeOf(eventType: TeamEventType, start: Instant, hostIds: readonly string[]): BookedTime;
export function timeOf(eventType: EventType | TeamEventType, start: Instant, hostIds?: readonly string[]): BookedTime {
  return {
    holderId: eventType.holderId,
    hostIds: eventType.holderId === null ? [...(hostIds ?? [])] : [eventType.holderId],
    eventTypeId: eventType.id,
    start,
    end: start + eventType.durationMinutes * MINUTE_MS,
    bufferBeforeMinutes: eventType.bufferBeforeMinutes,
    bufferAfterMinutes: eventType.bufferAfterMinutes,
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
