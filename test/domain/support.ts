// Shared builders for the domain tests. Nothing here computes expected values: expectations are
// written by hand as ISO strings in the tests and only converted with the platform's Date parser.
import {
  compileAvailability,
  normalizeAvailability,
  type Availability,
  type CompiledAvailability,
  type Weekday,
} from '../../src/domain/availability.js';
import type { Instant } from '../../src/domain/instant.js';
import { slotStarts, type Occupancy, type SlotContext, type SlotPolicy } from '../../src/domain/slots.js';
import { Zones } from '../../src/domain/zone.js';

/** The zones of the domain tests, shared as a process shares them. */
export const ZONES = new Zones();

export interface Slot {
  start: Instant;
  end: Instant;
}

/** The engine's starts as slots with their ends, as the API lists them. */
export function listSlots(context: SlotContext, from: Instant, to: Instant): Slot[] {
  const duration = context.policy.durationMinutes * 60_000;
  return Array.from(slotStarts(context, from, to), (start) => ({ start, end: start + duration }));
}

export type Pair = readonly [string, string];

export function emptyWeek(): Record<Weekday, Array<{ start: string; end: string }>> {
  return { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };
}

const toIntervals = (pairs: readonly Pair[]) => pairs.map(([start, end]) => ({ start, end }));

/** An availability document as a client would PUT it (not yet validated). */
export function availabilityDoc(
  timeZone: string,
  weekly: Partial<Record<Weekday, readonly Pair[]>>,
  overrides: ReadonlyArray<readonly [string, readonly Pair[]]> = [],
): Availability {
  const week = emptyWeek();
  for (const [day, pairs] of Object.entries(weekly) as Array<[Weekday, readonly Pair[]]>)
    week[day] = toIntervals(pairs);
  return {
    timeZone,
    weekly: week,
    overrides: overrides.map(([date, pairs]) => ({ date, intervals: toIntervals(pairs) })),
  };
}

/** Validates and compiles; a test availability that does not validate is a bug in the test. */
export function compiled(
  timeZone: string,
  weekly: Partial<Record<Weekday, readonly Pair[]>>,
  overrides: ReadonlyArray<readonly [string, readonly Pair[]]> = [],
): CompiledAvailability {
  const normalized = normalizeAvailability(availabilityDoc(timeZone, weekly, overrides));
  if (!normalized.ok) throw new Error(`test availability does not validate: ${JSON.stringify(normalized.errors)}`);
  return compileAvailability(normalized.value, ZONES.of(normalized.value.timeZone));
}

export function policy(p: Partial<SlotPolicy> & { durationMinutes: number }): SlotPolicy {
  return {
    slotIntervalMinutes: p.durationMinutes,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    minimumNoticeMinutes: 0,
    bookingWindowDays: null,
    maxBookingsPerDay: null,
    ...p,
  };
}

/** Epoch ms of an ISO string with offset, parsed by the platform (not by the code under test). */
export function ms(iso: string): number {
  const value = Date.parse(iso);
  if (Number.isNaN(value)) throw new Error(`bad ISO string in test: ${iso}`);
  return value;
}

/** The UTC `toISOString()` form of an ISO string with any offset. */
export function utc(iso: string): string {
  return new Date(ms(iso)).toISOString();
}

export function starts(slots: readonly Slot[]): string[] {
  return slots.map((s) => new Date(s.start).toISOString());
}

/** A confirmed booking as the engine sees it: occupied range = [start − before, end + after). */
export function occupancy(
  eventTypeId: string,
  startIso: string,
  durationMinutes: number,
  bufferBeforeMinutes = 0,
  bufferAfterMinutes = 0,
): Occupancy {
  const start = ms(startIso);
  return {
    eventTypeId,
    start,
    occupiedStart: start - bufferBeforeMinutes * 60_000,
    occupiedEnd: start + (durationMinutes + bufferAfterMinutes) * 60_000,
  };
}

/** Long before every test date, so that notice and window never interfere unless a test sets `now`. */
export const EARLY_NOW = ms('2025-01-01T00:00:00Z');

export function context(
  availability: CompiledAvailability,
  slotPolicy: SlotPolicy,
  options: { bookings?: Occupancy[]; now?: number; eventTypeId?: string } = {},
): SlotContext {
  return {
    availability,
    eventTypeId: options.eventTypeId ?? 'evt_a',
    policy: slotPolicy,
    bookings: options.bookings ?? [],
    now: options.now ?? EARLY_NOW,
  };
}
