import type { Instant } from '../domain/instant.js';
import { seatsLeft, type Occupancy, type SlotPolicy } from '../domain/slots.js';
import type { Zone } from '../domain/zone.js';

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
  /** True when `starts` is kept (a slot track, `CalendarCache.slotTrack`, or a team's combined starts): the same array until a calendar changes. */
  cached: boolean;
  durationMs: number;
  zone: Zone | undefined;
  /** A seated event type's (contract §15): the seats left at each of its starts. */
  seatsLeft?: (start: Instant) => number;
}

/**
 * The seats left at a seated event type's starts (contract §15), from the occupancies its slots
 * were computed with: an occurrence's seats less those taken, every seat where none is yet.
 * Undefined for an event type without seats.
 */
export function seatsLeftOf(
  eventTypeId: string,
  policy: SlotPolicy,
  occupancies: readonly Occupancy[],
): ((start: Instant) => number) | undefined {
  if (!policy.seats) return undefined;
  const occurrences = new Map<Instant, Occupancy>();
  for (const occupancy of occupancies)
    if (occupancy.seats !== undefined && occupancy.eventTypeId === eventTypeId)
      occurrences.set(occupancy.start, occupancy);
  return (start) => seatsLeft(policy, occurrences.get(start));
}
