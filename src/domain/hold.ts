import { confirmedBooking, type BookedTime, type Booking, type BookingDetails } from './booking.js';
import { SECOND_MS, type Instant } from './instant.js';

/** How long a hold may live (contract §9), in seconds. */
export const HOLD_SECONDS = { min: 30, max: 1_800, default: 300 } as const;

/**
 * A time reserved while a guest finishes (contract §9): it occupies its time like a confirmed
 * booking (with the event type's buffers as they were when held) for as long as `now < expiresAt`,
 * and never changes: it is released, converted into a booking, or it expires.
 */
export interface Hold {
  id: string;
  /** As a booking's: the holder whose event type it is, null for a team hold. */
  holderId: string | null;
  /** The holders whose time it occupies (contract §14). */
  hostIds: string[];
  eventTypeId: string;
  start: Instant;
  end: Instant;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  expiresAt: Instant;
  createdAt: Instant;
  /** Made on a booking page: by whom (null for an API hold). */
  page: PageHoldOrigin | null;
}

/** Who made a page hold, as digests: the page counts live holds by both (contract §10). */
export interface PageHoldOrigin {
  /** The browser session (one live page hold each). */
  session: string;
  /** The client: an address, or an IPv6 /64 (a few live page holds each, whatever its sessions). */
  client: string;
}

/** Where a hold was made (contract §9, `source`): by API, or by a guest on a booking page. */
export const HOLD_SOURCES = ['api', 'page'] as const;
export type HoldSource = (typeof HOLD_SOURCES)[number];

export function sourceOf(hold: Hold): HoldSource {
  return hold.page === null ? 'api' : 'page';
}

/** A hold of `time` (`timeOf` an event type) living `lifeSeconds` from `now`. */
export function newHold(
  id: string,
  time: BookedTime,
  lifeSeconds: number,
  now: Instant,
  page: PageHoldOrigin | null = null,
): Hold {
  return {
    id,
    ...time,
    expiresAt: now + lifeSeconds * SECOND_MS,
    createdAt: now,
    page,
  };
}

/** A hold is live strictly before `expiresAt`: at that instant its time is free again. */
export function isLive(expiresAt: Instant, now: Instant): boolean {
  return now < expiresAt;
}

/** The booking a hold becomes: the held time exactly as reserved, buffers included. */
export function bookingFromHold(id: string, hold: Hold, details: BookingDetails, now: Instant): Booking {
  return confirmedBooking(id, hold, details, now);
}
