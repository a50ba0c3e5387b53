import type { Holder } from '../domain/api-key.js';
import type { EventType, EventTypeSettings } from '../domain/event-type.js';
import type { Booking } from '../domain/booking.js';
import { newHold, type Hold } from '../domain/hold.js';
import { DAY_MS, formatUtc, parseInstant, type Instant } from '../domain/instant.js';
import { bookableSpan } from '../domain/slots.js';
import type { TeamEventType } from '../domain/team-event-type.js';
import { epochDayFromIsoDate, isoDateFromEpochDay } from '../domain/zone.js';
import {
  eventTypeDeleted,
  isTeam,
  lockCalendars,
  rulesToBook,
  takeTime,
  type BookingRules,
} from './booking-decision.js';
import { createBooking, ownersOfTeam, teamRulesToBook, type ActingOn, type CreateBookingInput } from './bookings.js';
import { instantField } from './instants.js';
import type { AppContext } from './context.js';
import { scheduleOf, type Calendar } from './calendars.js';
import { hostsOf, linkedBooking } from './linked-bookings.js';
import { transactionOfOwners } from './owner-scope.js';
import type { PageOwner } from './page-owners.js';
import type { HoldEnding, Reach, Transaction } from './ports/store.js';
import { listSlots } from './slots.js';
import { listTeamSlots } from './team-slots.js';

export { ownerHandle, ownerName, shownName, type PageOwner } from './page-owners.js';

/** What a booking page's list shows: whose it is, and the event types guests may book. */
export interface PublicProfile {
  owner: PageOwner;
  /** Live public event types, by title. */
  eventTypes: EventTypeSettings[];
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
  return eventTypes.length > 0 ? { owner: { kind: 'holder', holder: found.holder }, eventTypes } : undefined;
}

/**
 * The account behind `/team/{accountHandle}`, with its public team event types (contract §14);
 * undefined, as for a holder, when there is no such handle or nothing public to book.
 */
export async function publicTeamProfile(context: AppContext, handle: string): Promise<PublicProfile | undefined> {
  const account = await context.store.accounts.findByHandle(handle);
  if (!account) return undefined;
  const eventTypes = await context.store.teamEventTypes.listPublic(account.id);
  return eventTypes.length > 0 ? { owner: { kind: 'team', account }, eventTypes } : undefined;
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

/**
 * A public event type's page: whose it is, who attends, and the zone its hours are kept in. The
 * event type says which kind: a holder's own (`holderId`), or a team's (`holderId` null).
 */
export interface PublicEventType {
  owner: PageOwner;
  eventType: EventType | TeamEventType;
  /** Who may attend: the holder, or the team type's hosts in their order (round robin books the fixed ones and one other). */
  hosts: Holder[];
  /**
   * The zone of the schedule the event type is booked in (contract §13; a team's, its first
   * host's, as its daily cap counts days): where a guest's zone falls back to when the browser
   * tells none, so the times read as the hours were set.
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
  return {
    owner: { kind: 'holder', holder },
    eventType,
    hosts: [holder],
    zone: zoneFor(calendar, eventType),
    calendarVersion: calendar.version,
  };
}

/** The live public team event type at `/team/{accountHandle}/{slug}` (contract §14); undefined for anything else. */
export async function publicTeamEventType(
  context: AppContext,
  handle: string,
  slug: string,
): Promise<PublicEventType | undefined> {
  const account = await context.store.accounts.findByHandle(handle);
  const found = account && (await context.store.teamEventTypes.findPublic(account.id, slug));
  if (!account || !found) return undefined;
  // The cached type, as slot queries use it: its combined slots are kept by identity.
  const team = (await context.teamEventTypes.find(found.id)) ?? found;
  return teamPage(context, { kind: 'team', account }, team);
}

/** A team event type as a page to pick times from; undefined if one of its hosts is not stored. */
async function teamPage(
  context: AppContext,
  owner: PageOwner,
  team: TeamEventType,
): Promise<PublicEventType | undefined> {
  const [hosts, zone] = await Promise.all([
    hostsOf(
      context,
      team.hosts.map((host) => host.holderId),
    ),
    teamZone(context, team.hosts[0]!),
  ]);
  return hosts && { owner, eventType: team, hosts, zone, calendarVersion: null };
}

/** The zone a team type's times are kept in: its first host's schedule's (contract §14, as its daily cap). */
async function teamZone(context: AppContext, firstHost: { holderId: string; scheduleId: string | null }) {
  const calendar = await context.calendars.current(firstHost.holderId, context.now());
  if (!calendar) throw new Error(`host ${firstHost.holderId} of a team event type has no calendar`);
  return scheduleOf(calendar, firstHost).zone.id;
}

/** The free starts of the page's event type in [from, to): a holder's, or a team's (any host for round robin). */
function pageSlots(context: AppContext, page: PublicEventType, from: Instant, to: Instant, moving?: string) {
  const { eventType } = page;
  const query = { eventTypeId: eventType.id, from: formatUtc(from), to: formatUtc(to) };
  return eventType.holderId === null
    ? listTeamSlots(context, eventType, query, moving)
    : listSlots(context, { holderId: eventType.holderId }, query, page.calendarVersion, moving);
}

/** A month of an event type's free times, as a guest in `zone` sees them. */
export interface MonthOfSlots {
  /** `YYYY-MM`, the month shown: the one asked for, moved into the bookable months. */
  month: string;
  /** Local date (`YYYY-MM-DD`) → its free starts, ascending; only days with any. */
  days: Map<string, Instant[]>;
  /** A seated event type's (contract §15): the seats left at each start shown; null for one without seats. */
  seatsLeft: Map<Instant, number> | null;
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
  let seatsLeft: Map<Instant, number> | null = null;
  if (from < to) {
    const list = await pageSlots(context, page, from, to, moving);
    if (list.seatsLeft) {
      seatsLeft = new Map();
      for (let i = list.first; i < list.end; i++) seatsLeft.set(list.starts[i]!, list.seatsLeft(list.starts[i]!));
    }
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
    seatsLeft,
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
 * the time is free but a host's page holds (`PUBLIC_HOLDS_PER_HOLDER`) or this client's there
 * (`PUBLIC_HOLDS_PER_CLIENT`) are all live: a page hold is a convenience, never a gate, and the
 * guest then books the time straight from the form (`bookOnPage`). The browser session's
 * previous hold on this owner's pages ends first (one live page hold per session). A team
 * type's hold occupies the hosts it would book (contract §14), and counts against each of them:
 * the caps are counted per host, over every page hold occupying it, its own pages' and the
 * team pages' it hosts. The counts are read after the new hold is written, under each host's
 * calendar lock (its lock order), so no two sessions can both take the last place; a hold past
 * a cap is removed again in the same transaction. 409 `slot-unavailable` when the time is not
 * bookable, 400 on `start` for no instant.
 */
export async function holdOnPage(
  context: AppContext,
  page: PublicEventType,
  start: string,
  visitor: PageVisitor,
): Promise<Hold | null> {
  const { eventType } = page;
  const at = instantField('start', start);
  // The client is kept as a keyed digest: a hold row never holds a guest's address.
  const origin = { session: visitor.session, client: context.secrets.sign('page-clients', visitor.client) };
  const withinCaps = async (tx: Transaction, hold: Hold, ending: HoldEnding, now: Instant): Promise<boolean> => {
    for (const hostId of hold.hostIds) {
      const live = await tx.holds.countLivePageHolds(hostId, origin.client, now);
      if (live.ofHost > context.pages.holdsPerHolder || live.ofClient > context.pages.holdsPerClient) {
        await tx.holds.end(ending, hold.id, now);
        return false;
      }
    }
    return true;
  };
  /** Takes the time as the hold, then counts the caps under the hosts' calendar locks. */
  const takeHold = async (
    tx: Transaction,
    rules: BookingRules,
    now: Instant,
    ending: (hold: Hold) => HoldEnding,
  ): Promise<Hold | null> => {
    const id = context.ids.newId('hld');
    let hold: Hold | undefined;
    const kept = await takeTime(tx, context.zones, {
      rules,
      start: at,
      now,
      insert: (taken) => tx.holds.insert((hold = newHold(id, taken.time, PAGE_HOLD_SECONDS, now, origin)), taken.seat),
      underLock: async () => {
        // A team hold's hosts' calendar locks, under which their own pages' holds are counted
        // too; a holder's own type's decision took its holder's already.
        if (isTeam(rules)) await lockCalendars(tx, hold!.hostIds);
        return withinCaps(tx, hold!, ending(hold!), now);
      },
    });
    return kept ? hold! : null;
  };
  if (eventType.holderId !== null) {
    const holderId = eventType.holderId;
    return context.store.transaction(
      async (tx) => {
        const now = context.now();
        await tx.holds.endPageHoldsOf(holderId, origin.session, now);
        const rules = await rulesToBook(tx, holderId, eventType.id, () => eventTypeDeleted('this page'));
        return takeHold(tx, rules, now, () => ({ holderId }));
      },
      { ownerIds: [holderId] },
    );
  }
  const { accountId } = eventType;
  const expected = [accountId, ...eventType.hosts.map((host) => host.holderId)];
  return transactionOfOwners(context, expected, async (tx, _events, needs) => {
    const now = context.now();
    const previous = await tx.holds.livePageHoldsOfSession({ accountId }, origin.session, now);
    needs(previous.flatMap((hold) => hold.hostIds));
    for (const hold of previous) await tx.holds.end({ accountId, hostIds: hold.hostIds }, hold.id, now);
    const rules = await teamRulesToBook(tx, accountId, eventType.id, now, () => eventTypeDeleted('this page'));
    needs(ownersOfTeam(accountId, rules));
    return takeHold(tx, rules, now, (hold) => ({ accountId, hostIds: hold.hostIds }));
  });
}

/** The session's live hold, for the form that books it; undefined once it is gone or is another session's. */
export async function pageHold(
  context: AppContext,
  page: PublicEventType,
  holdId: string,
  pageSession: string,
): Promise<Hold | undefined> {
  const { eventType } = page;
  const reach: Reach =
    eventType.holderId === null ? { accountId: eventType.accountId } : { holderId: eventType.holderId };
  const hold = await context.store.holds.get(reach, holdId, context.now());
  return hold && hold.page?.session === pageSession && hold.eventTypeId === eventType.id ? hold : undefined;
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
  const list = await pageSlots(context, page, at, at + 1);
  return list.end > list.first ? at : null;
}

/**
 * Books a guest's time from the page's form: the session's live hold when it has one for it
 * (contract §9's conversion), else the time straight, judged at this moment like any booking
 * (a hold that could not be given, or that ran out while the guest typed). A team type's booking
 * is the account's, on the hosts the service chooses as for the API (contract §14).
 */
export function bookOnPage(
  context: AppContext,
  page: PublicEventType,
  hold: Hold | null,
  start: Instant,
  details: Omit<CreateBookingInput, 'eventTypeId' | 'start' | 'holdId'>,
): Promise<Booking> {
  const { eventType } = page;
  // A holder's page has its holder as its one host.
  const booker =
    eventType.holderId === null
      ? {
          holderId: null,
          accountId: eventType.accountId,
          hostIds: hold?.hostIds ?? eventType.hosts.map((host) => host.holderId),
        }
      : { holderId: eventType.holderId, accountId: page.hosts[0]!.accountId };
  return hold
    ? createBooking(context, booker, { ...details, holdId: hold.id }, 'guest')
    : createBooking(context, booker, { ...details, eventTypeId: eventType.id, start }, 'guest');
}

/** What a guest's manage link shows. */
export interface GuestBooking {
  booking: Booking;
  /** Whose pages it was booked on. */
  owner: PageOwner;
  /** Who attends, in the booking's `hostIds` order. */
  hosts: Holder[];
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
  const { owner, booking, hosts, titles } = linked;
  const zone = booking.guestTimeZone ?? (await pageZone(context, booking));
  return { booking, owner, hosts, title: titles.get(booking.eventTypeId) ?? '', zone };
}

/** Who a guest acts as on the booking (contract §10): its holder, or its team's account with its hosts. */
export function guestActor(found: GuestBooking): ActingOn {
  const { booking, owner } = found;
  return owner.kind === 'team'
    ? { holderId: null, accountId: owner.account.id, hostIds: booking.hostIds }
    : { holderId: owner.holder.id, accountId: owner.holder.accountId };
}

/**
 * The zone a page shows an event type's times in when the guest's is unknown: its schedule's (as
 * its booking page does), or the holder's (a team's first host's) default schedule's for an event
 * type deleted since. From the calendar cache: one read of the calendar version while nothing changed.
 */
async function pageZone(context: AppContext, booking: Booking): Promise<string> {
  if (booking.holderId === null) {
    const team = await context.teamEventTypes.find(booking.eventTypeId);
    return teamZone(context, team?.hosts[0] ?? { holderId: booking.hostIds[0]!, scheduleId: null });
  }
  const calendar = await context.calendars.current(booking.holderId, context.now());
  if (!calendar) throw new Error(`holder ${booking.holderId} of a linked booking has no calendar`);
  return zoneFor(calendar, calendar.eventTypes.get(booking.eventTypeId));
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
  const { owner, booking } = found;
  if (owner.kind === 'team') {
    const team = await context.teamEventTypes.find(booking.eventTypeId);
    const page = team && team.accountId === owner.account.id && (await teamPage(context, owner, team));
    return page ? { found, page } : undefined;
  }
  const calendar = await context.calendars.current(owner.holder.id, context.now());
  const eventType = calendar?.eventTypes.get(booking.eventTypeId);
  if (!calendar || !eventType) return undefined;
  return {
    found,
    page: {
      owner,
      eventType,
      hosts: [owner.holder],
      zone: zoneFor(calendar, eventType),
      calendarVersion: calendar.version,
    },
  };
}
