import { notFound } from '../domain/errors.js';
import { MINUTE_MS } from '../domain/instant.js';
import { firstAtOrAfter } from '../domain/intervals.js';
import { bookableSpan, occupancyWindow, slotStarts } from '../domain/slots.js';
import type { Zone } from '../domain/zone.js';
import { scheduleOf } from './calendars.js';
import { occupanciesAt } from './occupancies.js';
import type { AppContext, Caller } from './context.js';
import { unknownEventType } from './event-types.js';
import { timeZoneField } from './instants.js';
import { queryRange } from './ranges.js';

export interface SlotsQuery {
  eventTypeId: string;
  from?: string;
  to?: string;
  timeZone?: string;
}

/**
 * The bookable starts are `starts[first]` up to, not including, `starts[end]`, ascending; each
 * slot lasts `durationMs`; `zone` is the zone to show them in (UTC when absent).
 */
export interface SlotList {
  starts: Float64Array;
  first: number;
  end: number;
  /** True when `starts` is a cached slot track (see `CalendarCache.slotTrack`): the same array until the calendar changes. */
  cached: boolean;
  durationMs: number;
  zone: Zone | undefined;
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
  const { from, to } = queryRange(query);
  const zone = query.timeZone === undefined ? undefined : context.zones.of(timeZoneField('timeZone', query.timeZone));
  const now = context.now();
  const calendars = context.calendars;
  const calendar = await calendars.current(caller.holderId, now, knownCalendarVersion);
  if (!calendar) throw notFound(`Holder ${caller.holderId}`);
  const eventType = calendar.eventTypes.get(query.eventTypeId);
  if (!eventType) throw unknownEventType();
  const durationMs = eventType.durationMinutes * MINUTE_MS;
  // A cached track includes every booking: a booking being moved needs its own computation.
  const track = moving === undefined ? calendars.slotTrack(caller.holderId, calendar, eventType, from, to) : undefined;
  if (track !== undefined) {
    const span = bookableSpan(eventType, now);
    const first = firstAtOrAfter(track, Math.max(from, span.from));
    const end = Math.max(first, firstAtOrAfter(track, Math.min(to, span.to)));
    return { starts: track, first, end, cached: true, durationMs, zone };
  }
  // No track: either the range reaches beyond what the calendar decides, and so its bookings
  // beyond what the calendar holds (`occupancyWindow` is the inverse of `rangeDecidedBy`), or a
  // booking being moved must be left out. Either way they are read from the store.
  const window = occupancyWindow(from, to);
  const bookings = occupanciesAt(
    await context.store.bookings.occupanciesOverlapping(caller.holderId, window.from, window.to, moving),
    now,
  ).live;
  // The calendar's busy time when it covers the window (a superset does no harm), else the store's.
  const busy =
    window.from >= calendar.coveredFrom && window.to <= calendar.coveredTo
      ? calendar.busy
      : await context.store.busyTime.overlapping(caller.holderId, window.from, window.to);
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
  return { starts, first: 0, end: starts.length, cached: false, durationMs, zone };
}
