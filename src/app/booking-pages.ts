import type { Holder } from '../domain/api-key.js';
import type { EventType } from '../domain/event-type.js';
import type { Booking } from '../domain/booking.js';
import { newHold, type Hold } from '../domain/hold.js';
import { DAY_MS, formatUtc, parseInstant, type Instant } from '../domain/instant.js';
import { bookableSpan } from '../domain/slots.js';
import { epochDayFromIsoDate, isoDateFromEpochDay } from '../domain/zone.js';
import { eventTypeDeleted, rulesToBook, takeTime } from './booking-decision.js';
import { createBooking, type CreateBookingInput } from './bookings.js';
import { instantField } from './instants.js';
import type { AppContext } from './context.js';
import { scheduleOf, type Calendar } from './calendars.js';
import { linkedBooking } from './linked-bookings.js';
import { listSlots } from './slots.js';

/** What a holder's booking page shows: who, and the event types guests may book. */
export interface PublicProfile {
  holder: Holder;
  /** Live public event types, by title. */
  eventTypes: EventType[];
}

/**
 * The holder behind `/book/{handle}`, with its public event types; undefined when there is no
 * such handle or nothing public to book (contract §10: both look the same to a guest).
 */
export async function publicProfile(context: AppContext, handle: string): Promise<PublicProfile | undefined> {
  const found = await holderCalendar(context, handle);
  if (!found) return undefined;
  const eventTypes = [...found.calendar.eventTypes.values()]
    .filter((eventType) => eventType.public)
    .sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  return eventTypes.length > 0 ? { holder: found.holder, eventTypes } : undefined;
}

/**
 * The holder at a handle and its calendar, through the calendar cache: a page view costs one
 * indexed read (the holder with its calendar version) while nothing changed, as a slot query does.
 */
async function holderCalendar(context: AppContext, handle: string) {
  const found = await context.store.holders.findByHandle(handle);
  if (!found) return undefined;
  const calendar = await context.calendars.current(found.holder.id, context.now(), found.calendarVersion);
  return calendar && { holder: found.holder, calendar };
}

/** The name guests see. */
export function shownName(holder: Holder): string {
  return holder.displayName ?? holder.name;
}

/** A public event type's page: whose it is, and the zone its hours are kept in. */
export interface PublicEventType {
  holder: Holder;
  eventType: EventType;
  /**
   * The zone of the schedule the event type is booked in (contract §13): where a guest's zone
   * falls back to when the browser tells none, so the times read as the hours were set.
   */
  zone: string;
  /** The holder's calendar version as just read (null: read it again when the slots are listed). */
  calendarVersion: number | null;
}

/** The live public event type at `/book/{handle}/{slug}`; undefined for anything else (all look the same). */
export async function publicEventType(
  context: AppContext,
  handle: string,
  slug: string,
): Promise<PublicEventType | undefined> {
  const found = await holderCalendar(context, handle);
  if (!found) return undefined;
  const { holder, calendar } = found;
  const eventType = [...calendar.eventTypes.values()].find((candidate) => candidate.public && candidate.slug === slug);
  if (!eventType) return undefined;
  return { holder, eventType, zone: zoneFor(calendar, eventType), calendarVersion: calendar.version };
}

/** A month of an event type's free times, as a guest in `zone` sees them. */
export interface MonthOfSlots {
  /** `YYYY-MM`, the month shown: the one asked for, moved into the bookable months. */
  month: string;
  /** Local date (`YYYY-MM-DD`) → its free starts, ascending; only days with any. */
  days: Map<string, Instant[]>;
  /** The months before and after, when they hold bookable time; null otherwise. */
  previous: string | null;
  next: string | null;
}

/** How far ahead a page computes slots when the booking window is unlimited (contract §10). */
const PAGE_HORIZON_MS = 365 * DAY_MS;

/**
 * The free starts of `month` (or of the first bookable month) in `zoneName`, never past the
 * booking window or a year ahead: what a month of the booking page's calendar shows.
 */
export async function monthOfSlots(
  context: AppContext,
  page: PublicEventType,
  zoneName: string,
  month: string | undefined,
  /** A booking being moved: its own time is offered too. */
  moving?: string,
): Promise<MonthOfSlots> {
  const zone = context.zones.of(zoneName);
  const now = context.now();
  const span = bookableSpan(page.eventType, now);
  const horizon = Math.min(span.to, now + PAGE_HORIZON_MS);
  const firstMonth = monthOf(isoDateFromEpochDay(zone.dayOf(Math.max(now, span.from))));
  const lastMonth = monthOf(isoDateFromEpochDay(zone.dayOf(horizon - 1)));
  const shown = month === undefined || month < firstMonth ? firstMonth : month > lastMonth ? lastMonth : month;
  const from = Math.max(zone.startOfDay(epochDayFromIsoDate(`${shown}-01`)!), now);
  const to = Math.min(zone.startOfDay(epochDayFromIsoDate(`${nextMonth(shown)}-01`)!), horizon);
  const days = new Map<string, Instant[]>();
  if (from < to) {
    const list = await listSlots(
      context,
      { holderId: page.holder.id },
      { eventTypeId: page.eventType.id, from: formatUtc(from), to: formatUtc(to) },
      page.calendarVersion,
      moving,
    );
    // Starts ascend, so their days do: each day's text is made once, not once per start.
    let day: number | undefined;
    let starts: Instant[] = [];
    for (let i = list.first; i < list.end; i++) {
      const start = list.starts[i]!;
      const startDay = zone.dayOf(start);
      if (startDay !== day) {
        day = startDay;
        starts = [];
        days.set(isoDateFromEpochDay(day), starts);
      }
      starts.push(start);
    }
  }
  return {
    month: shown,
    days,
    previous: shown > firstMonth ? previousMonth(shown) : null,
    next: shown < lastMonth ? nextMonth(shown) : null,
  };
}

/** `YYYY-MM` of a `YYYY-MM-DD`. */
function monthOf(date: string): string {
  return date.slice(0, 7);
}

function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

function previousMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

/** A page's hold lasts this long (contract §10: at most 10 minutes). */
export const PAGE_HOLD_SECONDS = 600;

/** Who is at a booking page: its browser session and its client, as the request names them. */
export interface PageVisitor {
  /** A digest of the browser session (the token itself is never stored). */
  session: string;
  /** The client: an address, or an IPv6 /64 (`http/client-address.ts`). */
  client: string;
}

/**
 * Holds the time a guest picked on a booking page (contract §10), or gives no hold (null) when
 * the time is free but the holder's page holds (`PUBLIC_HOLDS_PER_HOLDER`) or this client's
 * (`PUBLIC_HOLDS_PER_CLIENT`) are all live: a page hold is a convenience, never a gate, and the
 * guest then books the time straight from the form (`bookOnPage`). The browser session's
 * previous hold at this holder ends first (one live page hold per session). Both counts are read
 * after the new hold is written, under the calendar lock (its lock order), so no two sessions can
 * both take the last place; a hold past either cap is removed again in the same transaction.
 * 409 `slot-unavailable` when the time is not bookable, 400 on `start` for no instant.
 */
export async function holdOnPage(
  context: AppContext,
  page: PublicEventType,
  start: string,
  visitor: PageVisitor,
): Promise<Hold | null> {
  const { holder } = page;
  const at = instantField('start', start);
  // The client is kept as a keyed digest: a hold row never holds a guest's address.
  const origin = { session: visitor.session, client: context.secrets.sign('page-clients', visitor.client) };
  return context.store.transaction(
    async (tx) => {
      const now = context.now();
      await tx.holds.endPageHoldsOf(holder.id, origin.session, now);
      const rules = await rulesToBook(tx, holder.id, page.eventType.id, () => eventTypeDeleted('this page'));
      const id = context.ids.newId('hld');
      let hold: Hold | undefined;
      const kept = await takeTime(tx, context.zones, {
        rules,
        start: at,
        now,
        insert: (taken) =>
          tx.holds.insert((hold = newHold(id, taken.time, PAGE_HOLD_SECONDS, now, origin)), taken.occurrence),
        underLock: async () => {
          const live = await tx.holds.countLivePageHolds(holder.id, origin.client, now);
          if (live.ofHolder <= context.pages.holdsPerHolder && live.ofClient <= context.pages.holdsPerClient)
            return true;
          await tx.holds.end({ holderId: holder.id }, id, now);
          return false;
        },
      });
      return kept ? hold! : null;
    },
    { ownerIds: [holder.id] },
  );
}

/** The session's live hold, for the form that books it; undefined once it is gone or is another session's. */
export async function pageHold(
  context: AppContext,
  page: PublicEventType,
  holdId: string,
  pageSession: string,
): Promise<Hold | undefined> {
  const hold = await context.store.holds.get({ holderId: page.holder.id }, holdId, context.now());
  return hold && hold.page?.session === pageSession && hold.eventTypeId === page.eventType.id ? hold : undefined;
}

/**
 * Whether `start` is a free time of the page's event type now, as its picker would offer it: what
 * the form of a time that is not held shows (its booking is judged again when it is sent).
 * Null for anything that is not an instant.
 */
export async function freeOnPage(context: AppContext, page: PublicEventType, start: string): Promise<Instant | null> {
  const parsed = parseInstant(start);
  if (!parsed.ok) return null;
  const at = parsed.value;
  const list = await listSlots(
    context,
    { holderId: page.holder.id },
    { eventTypeId: page.eventType.id, from: formatUtc(at), to: formatUtc(at + 1) },
    page.calendarVersion,
  );
  return list.end > list.first ? at : null;
}

/**
 * Books a guest's time from the page's form: the session's live hold when it has one for it
 * (contract §9's conversion), else the time straight, judged at this moment like any booking
 * (a hold that could not be given, or that ran out while the guest typed).
 */
export function bookOnPage(
  context: AppContext,
  page: PublicEventType,
  hold: Hold | null,
  start: Instant,
  details: Omit<CreateBookingInput, 'eventTypeId' | 'start' | 'holdId'>,
): Promise<Booking> {
  const caller = { holderId: page.holder.id, accountId: page.holder.accountId };
  return hold
    ? createBooking(context, caller, { ...details, holdId: hold.id }, 'guest')
    : createBooking(context, caller, { ...details, eventTypeId: page.eventType.id, start }, 'guest');
}

/** What a guest's manage link shows. */
export interface GuestBooking {
  booking: Booking;
  holder: Holder;
  /** The event type's title (a deleted one's too: the booking stays). */
  title: string;
  /** Where its times are shown: the guest's zone, else its event type's (see `pageZone`). */
  zone: string;
}

/** The booking a manage link was made for; undefined for a link that opens nothing. */
export async function guestBooking(
  context: AppContext,
  token: string,
  use: 'manage' | 'confirmation' = 'manage',
): Promise<GuestBooking | undefined> {
  const linked = await linkedBooking(context, use, token);
  if (!linked) return undefined;
  const { holder, booking, titles } = linked;
  const zone = booking.guestTimeZone ?? (await pageZone(context, holder.id, booking.eventTypeId));
  return { booking, holder, title: titles.get(booking.eventTypeId) ?? '', zone };
}

/**
 * The zone a page shows an event type's times in when the guest's is unknown: its schedule's (as
 * its booking page does), or the holder's default schedule's for an event type deleted since.
 * From the calendar cache: one read of the calendar version while nothing changed.
 */
async function pageZone(context: AppContext, holderId: string, eventTypeId: string): Promise<string> {
  const calendar = await context.calendars.current(holderId, context.now());
  if (!calendar) throw new Error(`holder ${holderId} of a linked booking has no calendar`);
  return zoneFor(calendar, calendar.eventTypes.get(eventTypeId));
}

function zoneFor(calendar: Calendar, eventType: EventType | undefined): string {
  const schedule = eventType
    ? scheduleOf(calendar, eventType)
    : calendar.schedules.get(calendar.defaultScheduleId)!.availability;
  return schedule.zone.id;
}

/** Whether a guest may still change the booking: confirmed, and not yet started (contract §10). */
export function changeable(booking: Booking, now: Instant): boolean {
  return booking.status === 'confirmed' && booking.start > now;
}

/**
 * A booking the guest may move, with its event type as a page to pick the new time from (the
 * event type's rules, public or not); undefined when the link opens nothing or it may not change.
 */
export async function reschedulable(
  context: AppContext,
  token: string,
): Promise<{ found: GuestBooking; page: PublicEventType } | undefined> {
  const found = await guestBooking(context, token);
  if (!found || !changeable(found.booking, context.now())) return undefined;
  const calendar = await context.calendars.current(found.holder.id, context.now());
  const eventType = calendar?.eventTypes.get(found.booking.eventTypeId);
  if (!calendar || !eventType) return undefined;
  return {
    found,
    page: { holder: found.holder, eventType, zone: zoneFor(calendar, eventType), calendarVersion: calendar.version },
  };
}
