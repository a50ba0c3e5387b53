import { invalidRequest, notFound } from '../domain/errors.js';
import { MINUTE_MS } from '../domain/instant.js';
import { firstAtOrAfter } from '../domain/intervals.js';
import { bookableSpan, occupancyWindow, slotStarts } from '../domain/slots.js';
import { offerOf, scheduleOf, type Calendar } from './calendars.js';
import { holdersTimeIn } from './beyond-calendars.js';
import { callerForEventTypeTime } from './account-scope.js';
import type { AppContext, Caller, Principal } from './context.js';
import { listTeamSlots } from './team-slots.js';
import { seatsLeftOf, type SlotList, type SlotsQuery } from './slot-list.js';

export type { SlotList, SlotsQuery } from './slot-list.js';
import { unknownEventType } from './event-types.js';
import { timeZoneField } from './instants.js';
import { queryRange } from './ranges.js';

/** `GET /slots`'s query: a team event type's may name a round-robin host (contract §14). */
export interface SlotsQueryOfAnyType extends SlotsQuery {
  hostId?: string;
}

/**
 * `GET /slots` for whoever asks: in account scope, the account's team event type's (contract §14)
 * or its holder's own; acting for a holder, the holder's own event type's or a team type's it
 * hosts. Another account's, or a team type the holder does not host, is an unknown `eventTypeId`
 * (400), as an id that does not exist. `requestVersion`: the calendar version read with the
 * request's key, if any.
 */
export async function listSlotsFor(
  context: AppContext,
  principal: Principal,
  query: SlotsQueryOfAnyType,
  requestVersion: number | null,
): Promise<SlotList> {
  const { hostId, ...own } = query;
  if (principal.actingFor === null) {
    const team = await context.teamEventTypes.find(query.eventTypeId);
    if (team && team.accountId === principal.accountId) return listTeamSlots(context, team, query);
  }
  const { caller, calendarVersion } = await callerForEventTypeTime(context, principal, query.eventTypeId);
  const version = calendarVersion ?? requestVersion;
  const calendar = await context.calendars.current(caller.holderId, context.now(), version);
  if (calendar && !calendar.eventTypes.has(query.eventTypeId)) {
    const team = await context.teamEventTypes.find(query.eventTypeId);
    if (team && team.accountId === caller.accountId && team.hosts.some((host) => host.holderId === caller.holderId))
      return listTeamSlots(context, team, query);
  }
  if (hostId !== undefined)
    throw invalidRequest([{ field: 'hostId', message: 'is only for round-robin team event types' }]);
  return slotsOf(context, caller.holderId, calendar, own);
}

/**
 * `knownCalendarVersion` is the holder's calendar version if the caller just read it (with the
 * API key): the cached calendar is then checked against it without another read.
 */
export async function listSlots(
  context: AppContext,
  caller: Pick<Caller, 'holderId'>,
  query: SlotsQuery,
  knownCalendarVersion: number | null = null,
  /** A booking being moved: its own time counts as free (as `rescheduleBooking` judges it). */
  moving?: string,
): Promise<SlotList> {
  const calendar = await context.calendars.current(caller.holderId, context.now(), knownCalendarVersion);
  return slotsOf(context, caller.holderId, calendar, query, moving);
}

/** `listSlots` over the holder's calendar just read (undefined: no such holder). */
async function slotsOf(
  context: AppContext,
  holderId: string,
  calendar: Calendar | undefined,
  query: SlotsQuery,
  moving?: string,
): Promise<SlotList> {
  const { from, to } = queryRange(query);
  const zone = query.timeZone === undefined ? undefined : context.zones.of(timeZoneField('timeZone', query.timeZone));
  const now = context.now();
  if (!calendar) throw notFound(`Holder ${holderId}`);
  const eventType = calendar.eventTypes.get(query.eventTypeId);
  if (!eventType) throw unknownEventType();
  const durationMs = eventType.durationMinutes * MINUTE_MS;
  // A cached track includes every booking: a booking being moved needs its own computation.
  const track =
    moving === undefined ? context.calendars.slotTrack(holderId, calendar, offerOf(eventType), from, to) : undefined;
  if (track !== undefined) {
    const span = bookableSpan(eventType, now);
    const first = firstAtOrAfter(track, Math.max(from, span.from));
    const end = Math.max(first, firstAtOrAfter(track, Math.min(to, span.to)));
    const seats = seatsLeftOf(eventType.id, eventType, calendar.occupancies);
    return { starts: track, first, end, cached: true, durationMs, zone, ...(seats ? { seatsLeft: seats } : {}) };
  }
  // No track: what the calendar cannot decide is read from the store.
  const { bookings, busy } = (
    await holdersTimeIn(context, [holderId], [calendar], occupancyWindow(from, to), now, moving)
  )[0]!;
  const starts = slotStarts(
    {
      availability: scheduleOf(calendar, eventType),
      eventTypeId: eventType.id,
      policy: eventType,
      bookings,
      busy,
      now,
    },
    from,
    to,
  );
  const seats = seatsLeftOf(eventType.id, eventType, bookings);
  return {
    starts,
    first: 0,
    end: starts.length,
    cached: false,
    durationMs,
    zone,
    ...(seats ? { seatsLeft: seats } : {}),
  };
}
