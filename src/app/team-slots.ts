import { invalidRequest } from '../domain/errors.js';
import { MINUTE_MS, type Instant } from '../domain/instant.js';
import { firstAtOrAfter } from '../domain/intervals.js';
import { bookableSpan, occupancyWindow, standingSlotStarts } from '../domain/slots.js';
import type { TeamEventType, TeamHost } from '../domain/team-event-type.js';
import { teamStandingStarts, type CountedBooking, type HostStarts, type TeamShape } from '../domain/team-slots.js';
import { scheduleOf, type Calendar } from './calendars.js';
import type { AppContext } from './context.js';
import { timeZoneField } from './instants.js';
import { holdersTimeIn } from './beyond-calendars.js';
import { queryRange } from './ranges.js';
import { seatsLeftOf, type SlotList, type SlotsQuery } from './slot-list.js';

export interface TeamSlotsQuery extends SlotsQuery {
  /** Round robin: only this host (and the fixed ones), contract §14. */
  hostId?: string;
}

/**
 * The slots of a team event type (contract §14): each host's standing starts (its schedule for
 * the type, everything that occupies its time, its busy time; the team's cap left to the team),
 * from the host's cached calendar and track exactly as a holder's own event type's, combined by
 * the team engine (`domain/team-slots.ts`) and cut to the query and the clock. A warm query reads
 * nothing: each host's calendar version comes from the holder cache, and the combined starts are
 * kept while the team type and every host's track are the same objects. A cold one reads the
 * hosts' versions and calendars in one statement per kind of record for all hosts together.
 */
export async function listTeamSlots(
  context: AppContext,
  team: TeamEventType,
  query: TeamSlotsQuery,
  /** A booking being moved: its own time counts as free for its hosts (as `rescheduleBooking` judges it). */
  moving?: string,
): Promise<SlotList> {
  const { from, to } = queryRange(query);
  const zone = query.timeZone === undefined ? undefined : context.zones.of(timeZoneField('timeZone', query.timeZone));
  const shape = shapeOf(team, query.hostId);
  const now = context.now();
  const durationMs = team.durationMinutes * MINUTE_MS;
  const span = bookableSpan(team, now);
  const calendars = await hostCalendars(context, team, now);
  const offers = context.teamSlots.offersOf(team);
  // A cached track includes every booking: a booking being moved needs its own computation.
  const tracks = team.hosts.map((host, index) =>
    moving === undefined
      ? context.calendars.slotTrack(host.holderId, calendars[index]!, offers[index]!, from, to)
      : undefined,
  );
  if (tracks.every((track) => track !== undefined)) {
    const starts = context.teamSlots.combined(team, shape, tracks, () =>
      teamStandingStarts(shape, hostStarts(team.hosts, tracks), capOf(context, team, calendars)),
    );
    const first = firstAtOrAfter(starts, Math.max(from, span.from));
    const end = Math.max(first, firstAtOrAfter(starts, Math.min(to, span.to)));
    // Seats are collective only: every host holds each seat, the first host's calendar counts them.
    const seats = seatsLeftOf(team.id, team, calendars[0]!.occupancies);
    return { starts, first, end, cached: true, durationMs, zone, ...(seats ? { seatsLeft: seats } : {}) };
  }
  // Beyond what the hosts' calendars decide, or a booking being moved left out.
  const cut = { from: Math.max(from, span.from), to: Math.min(to, span.to) };
  const times = await holdersTimeIn(
    context,
    team.hosts.map((host) => host.holderId),
    calendars,
    occupancyWindow(from, to),
    now,
    moving,
  );
  const starts = times.map(({ bookings, busy }, index) =>
    standingSlotStarts(
      {
        availability: scheduleOf(calendars[index]!, offers[index]!),
        eventTypeId: team.id,
        policy: offers[index]!.policy,
        bookings,
        busy,
      },
      cut.from,
      cut.to,
    ),
  );
  const combined = teamStandingStarts(shape, hostStarts(team.hosts, starts), {
    eventTypeId: team.id,
    maxBookingsPerDay: team.maxBookingsPerDay,
    zone: scheduleOf(calendars[0]!, offers[0]!).zone,
    bookings: times.flatMap((time) => time.bookings),
  });
  const seats = seatsLeftOf(team.id, team, times[0]!.bookings);
  return {
    starts: combined,
    first: 0,
    end: combined.length,
    cached: false,
    durationMs,
    zone,
    ...(seats ? { seatsLeft: seats } : {}),
  };
}

/** Who must be free for the query: every host, or for round robin the fixed ones and one other (`hostId`: that one). */
function shapeOf(team: TeamEventType, hostId: string | undefined): TeamShape {
  if (team.assignment === 'collective') {
    if (hostId !== undefined)
      throw invalidRequest([{ field: 'hostId', message: 'is only for round-robin event types: every host attends' }]);
    return { assignment: 'collective' };
  }
  if (hostId !== undefined && !team.hosts.some((host) => host.holderId === hostId && !host.fixed))
    throw invalidRequest([{ field: 'hostId', message: 'is not a host of this event type that round robin chooses' }]);
  return { assignment: 'round-robin', hostId: hostId ?? null };
}

/**
 * The hosts' calendars as of their current versions (the holder cache's: no read while nothing of
 * a host changed), those not cached loaded together: a handful of statements however many hosts.
 */
async function hostCalendars(context: AppContext, team: TeamEventType, now: Instant): Promise<Calendar[]> {
  const holders = await context.holders.findAll(team.hosts.map((host) => host.holderId));
  const versions = holders.map((holder, index) => {
    // A holder hosting a live team type is not deleted (contract §12); its row stays after deletion.
    if (!holder) throw new Error(`host ${team.hosts[index]!.holderId} of a team event type has no calendar`);
    return { holderId: holder.id, version: holder.calendarVersion };
  });
  return context.calendars.currentOf(versions, now);
}

function hostStarts(hosts: readonly TeamHost[], starts: readonly (Float64Array | undefined)[]): HostStarts[] {
  return hosts.map((host, index) => ({ holderId: host.holderId, fixed: host.fixed, starts: starts[index]! }));
}

/**
 * The team's daily cap over what the hosts' calendars hold: the type's bookings and holds of its
 * current hosts (a booking of a host no longer listed is not among them; the booking decision
 * counts it, reading the type's bookings by event type).
 */
function capOf(context: AppContext, team: TeamEventType, calendars: readonly Calendar[]) {
  const bookings: CountedBooking[] = [];
  if (team.maxBookingsPerDay !== null)
    for (const calendar of calendars)
      for (const occupancy of calendar.occupancies) if (occupancy.eventTypeId === team.id) bookings.push(occupancy);
  return {
    eventTypeId: team.id,
    maxBookingsPerDay: team.maxBookingsPerDay,
    zone: scheduleOf(calendars[0]!, context.teamSlots.offersOf(team)[0]!).zone,
    bookings,
  };
}
