import type { Holder } from '../domain/api-key.js';
import type { Booking } from '../domain/booking.js';
import { DAY_MS, type Instant } from '../domain/instant.js';
import type { AppContext } from './context.js';
import { hostsOf, linkedBooking } from './linked-bookings.js';

/** What a calendar file shows: bookings, the titles of their event types, and whose they are. */
export interface CalendarFileContent {
  /** Whose calendar (a feed's holder), or whom the guest's booking is with (its hosts): `displayName`, else `name`. */
  holders: ReadonlyArray<Pick<Holder, 'name' | 'displayName'>>;
  bookings: Booking[];
  /** Event type id → title (deleted event types too: their bookings stay). */
  titles: Map<string, string>;
  /** The event types among them with seats (contract §15): the holder's feed shows their occurrences, not each seat. */
  seated?: ReadonlySet<string>;
}

/** A feed shows bookings from a month before its day to a year after it, at most this many. */
const FEED_PAST_MS = 31 * DAY_MS;
const FEED_AHEAD_MS = 367 * DAY_MS;
export const FEED_MAX_BOOKINGS = 5_000;

/**
 * The appointment of the booking an `icsUrl` token names (contract §16): its latest booking, in
 * any status (a cancelled one shows as cancelled), so the link a guest was given first shows the
 * appointment where it was moved; undefined for a token that opens nothing.
 */
export async function bookingFile(context: AppContext, token: string): Promise<CalendarFileContent | undefined> {
  const linked = await linkedBooking(context, 'ics', token);
  if (!linked) return undefined;
  // Only a moved booking has a later one.
  if (linked.booking.status !== 'rescheduled')
    return { holders: linked.hosts, bookings: [linked.booking], titles: linked.titles };
  const { owner } = linked;
  const reach = owner.kind === 'holder' ? { holderId: owner.holder.id } : { accountId: owner.account.id };
  const latest = await context.store.appointments.latest(reach, linked.booking.appointmentId);
  if (!latest) return undefined;
  // A round-robin reschedule may have changed its hosts (contract §14).
  const hosts = owner.kind === 'holder' ? linked.hosts : await hostsOf(context, latest.hostIds);
  return hosts && { holders: hosts, bookings: [latest], titles: linked.titles };
}

/** The holder a `calendarFeedUrl` opens, and the version of what its feed shows now. */
export interface FeedSubject {
  holder: Holder;
  /**
   * Everything the feed's text depends on: the link's generation, the holder's calendar version
   * (bumped by every change to its bookings and event types, by whichever process), the name it
   * shows and the day (its window moves a day at a time). Equal versions, equal feeds.
   */
  version: string;
  /** The start of the (UTC) day the feed's window is counted from. */
  day: Instant;
}

/**
 * The holder a `calendarFeedUrl` token opens, with its feed's version (two small reads, no
 * bookings); undefined for a token that opens nothing, or of an older generation.
 */
export async function feedSubject(context: AppContext, token: string): Promise<FeedSubject | undefined> {
  const subject = context.links.feedOf(token);
  if (subject === undefined) return undefined;
  const holder = await context.store.holders.get(subject.holderId);
  if (!holder || holder.feedGeneration !== subject.generation) return undefined;
  // Read before the bookings: a feed read meanwhile is at least as new as its version says.
  const calendarVersion = await context.store.holders.calendarVersion(holder.id);
  const day = Math.floor(context.now() / DAY_MS) * DAY_MS;
  const shownName = holder.displayName ?? holder.name;
  return { holder, day, version: JSON.stringify([holder.feedGeneration, calendarVersion, day, shownName]) };
}

/** The bookings of the holder's feed: its day's window, in any status (the file shows each appointment's latest). */
export async function holderFeed(context: AppContext, subject: FeedSubject): Promise<CalendarFileContent> {
  const { holder, day } = subject;
  const bookings = await context.store.bookings.listAnyStatus(
    holder.id,
    day - FEED_PAST_MS,
    day + FEED_AHEAD_MS,
    FEED_MAX_BOOKINGS,
  );
  const titles = await context.store.eventTypes.titles(
    holder.id,
    bookings.map((booking) => booking.eventTypeId),
  );
  const seated = new Set<string>();
  for (const eventTypeId of new Set(bookings.map((booking) => booking.eventTypeId)))
    if ((await context.store.notifications.emailFacts(eventTypeId, []))?.seated) seated.add(eventTypeId);
  return { holders: [holder], bookings, titles, seated };
}
