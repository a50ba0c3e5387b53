import { invalidRequest, notFound } from '../domain/errors.js';
import type { EventType } from '../domain/event-type.js';
import { MINUTE_MS } from '../domain/instant.js';
import { bookableSpan, occupancyWindow, slotStarts } from '../domain/slots.js';
import { Zone } from '../domain/zone.js';
import type { StoreReads } from '../storage/store.js';
import { calendarsOf, occupanciesIn } from './calendars.js';
import type { AppContext, Caller } from './context.js';
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

export async function listSlots(context: AppContext, caller: Caller, query: SlotsQuery): Promise<SlotList> {
  const { from, to } = queryRange(query);
  const zone = query.timeZone === undefined ? undefined : Zone.of(timeZoneField('timeZone', query.timeZone));
  const now = context.now();
  const calendars = calendarsOf(context.store);
  const calendar = await calendars.current(caller.holderId, now, caller.calendarVersion);
  if (!calendar) throw notFound(`Holder ${caller.holderId}`);
  const eventType = calendar.eventTypes.get(query.eventTypeId);
  if (!eventType) throw unknownEventType();
  const durationMs = eventType.durationMinutes * MINUTE_MS;
  const track = calendars.slotTrack(caller.holderId, calendar, eventType, from, to);
  if (track !== undefined) {
    const span = bookableSpan(eventType, now);
    const first = firstAtOrAfter(track, Math.max(from, span.from));
    const end = Math.max(first, firstAtOrAfter(track, Math.min(to, span.to)));
    return { starts: track, first, end, cached: true, durationMs, zone };
  }
  const window = occupancyWindow(from, to);
  const bookings =
    occupanciesIn(calendar, window.from, window.to) ??
    (await context.store.occupanciesOverlapping(caller.holderId, window.from, window.to));
  const starts = slotStarts(
    { availability: calendar.availability, eventTypeId: eventType.id, policy: eventType, bookings, now },
    from,
    to,
  );
  return { starts, first: 0, end: starts.length, cached: false, durationMs, zone };
}

/** The index of the first of the ascending `starts` at or after `instant` (`starts.length` when none is). */
function firstAtOrAfter(starts: Float64Array, instant: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! < instant) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A live event type of the holder, or a 400 on `eventTypeId`: a reference in the input, not the addressed resource. */
export async function bookableEventType(store: StoreReads, holderId: string, eventTypeId: string): Promise<EventType> {
  const eventType = await store.getEventType(holderId, eventTypeId);
  if (!eventType) throw unknownEventType();
  return eventType;
}

function unknownEventType() {
  return invalidRequest([{ field: 'eventTypeId', message: 'is not an event type of this account' }]);
}
