import type { Holder } from '../domain/api-key.js';
import type { Booking } from '../domain/booking.js';
import { DAY_MS } from '../domain/instant.js';
import type { AppContext } from './context.js';
import { linkedBooking } from './linked-bookings.js';

/** What a calendar file shows: bookings, the titles of their event types, and whose they are. */
export interface CalendarFileContent {
  holder: Holder;
  bookings: Booking[];
  /** Event type id → title (deleted event types too: their bookings stay). */
  titles: Map<string, string>;
}

/** A feed shows bookings from a month ago to a year ahead, at most this many. */
const FEED_PAST_MS = 31 * DAY_MS;
const FEED_AHEAD_MS = 366 * DAY_MS;
export const FEED_MAX_BOOKINGS = 5_000;

/** The booking an `icsUrl` token names (in any status: a cancelled one shows as cancelled); undefined for a token that opens nothing. */
export async function bookingFile(context: AppContext, token: string): Promise<CalendarFileContent | undefined> {
  const linked = await linkedBooking(context, 'ics', token);
  return linked && { holder: linked.holder, bookings: [linked.booking], titles: linked.titles };
}

/** The holder's bookings a `calendarFeedUrl` token opens; undefined for a token that opens nothing, or of an older generation. */
export async function holderFeed(context: AppContext, token: string): Promise<CalendarFileContent | undefined> {
  const subject = context.links.feedOf(token);
  if (subject === undefined) return undefined;
  const holder = await context.store.holders.get(subject.holderId);
  if (!holder || holder.feedGeneration !== subject.generation) return undefined;
  const now = context.now();
  const bookings = await context.store.bookings.listAnyStatus(
    holder.id,
    now - FEED_PAST_MS,
    now + FEED_AHEAD_MS,
    FEED_MAX_BOOKINGS,
  );
  const titles = await context.store.eventTypes.titles(
    holder.id,
    bookings.map((booking) => booking.eventTypeId),
  );
  return { holder, bookings, titles };
}
