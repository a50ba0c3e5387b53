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
}
