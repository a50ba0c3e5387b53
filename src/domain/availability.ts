import type { FieldError } from './errors.js';
import { canonicalTimeZone, epochDayFromIsoDate, weekdayIndex, type EpochDay } from './zone.js';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Wall-clock times `HH:MM`; `end` may be `24:00`. */
export interface TimeInterval {
  start: string;
  end: string;
}

export interface DateOverride {
  /** Local calendar date `YYYY-MM-DD` in the availability's zone. */
  date: string;
  /** Replaces the weekly intervals of that date; empty means the day is off. */
  intervals: TimeInterval[];
}

export interface Availability {
  timeZone: string;
  weekly: Record<Weekday, TimeInterval[]>;
  overrides: DateOverride[];
}

export function defaultAvailability(): Availability {
  const workday = (): TimeInterval[] => [{ start: '09:00', end: '17:00' }];
  return {
    timeZone: 'UTC',
    weekly: {
      monday: workday(),
      tuesday: workday(),
      wednesday: workday(),
      thursday: workday(),
      friday: workday(),
      saturday: [],
      sunday: [],
    },
    overrides: [],
  };
}

/** Minutes since local midnight, 0…1440. */
export function minuteOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * Checks what a schema cannot: a real zone, `start < end`, no overlapping intervals in a day,
 * real and distinct override dates. Returns the availability with the zone's canonical spelling
 * and overrides sorted by date, or the list of every problem with its path.
 */
export function normalizeAvailability(
  input: Availability,
): { ok: true; value: Availability } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const timeZone = canonicalTimeZone(input.timeZone);
  if (!timeZone) errors.push({ field: 'timeZone', message: 'must be an IANA time zone name, e.g. Europe/Berlin' });

  for (const day of WEEKDAYS) checkIntervals(input.weekly[day] ?? [], `weekly.${day}`, errors);

  const seen = new Map<string, number>();
  input.overrides.forEach((override, index) => {
    const path = `overrides[${index}]`;
    if (epochDayFromIsoDate(override.date) === undefined) {
      errors.push({ field: `${path}.date`, message: 'must be a real calendar date YYYY-MM-DD' });
    } else if (seen.has(override.date)) {
      errors.push({ field: `${path}.date`, message: `repeats the date of overrides[${seen.get(override.date)}]` });
    } else {
      seen.set(override.date, index);
    }
    checkIntervals(override.intervals, `${path}.intervals`, errors);
  });

  if (errors.length > 0 || !timeZone) return { ok: false, errors };
  const weekly = Object.fromEntries(
    WEEKDAYS.map((day) => [day, sortIntervals(input.weekly[day] ?? [])]),
  ) as Record<Weekday, TimeInterval[]>;
  const overrides = input.overrides
    .map((o) => ({ date: o.date, intervals: sortIntervals(o.intervals) }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  return { ok: true, value: { timeZone, weekly, overrides } };
}

function sortIntervals(intervals: TimeInterval[]): TimeInterval[] {
  return intervals.map((i) => ({ start: i.start, end: i.end })).sort((a, b) => minuteOfDay(a.start) - minuteOfDay(b.start));
}

function checkIntervals(intervals: TimeInterval[], path: string, errors: FieldError[]): void {
  const valid: Array<{ index: number; start: number; end: number }> = [];
  intervals.forEach((interval, index) => {
    const at = `${path}[${index}]`;
    if (interval.start === '24:00') {
      errors.push({ field: `${at}.start`, message: 'must be before 24:00' });
      return;
    }
    const start = minuteOfDay(interval.start);
    const end = minuteOfDay(interval.end);
    if (end <= start) {
      errors.push({ field: `${at}.end`, message: `must be after start ${interval.start}` });
      return;
    }
    valid.push({ index, start, end });
  });
  valid.sort((a, b) => a.start - b.start);
  for (let i = 1; i < valid.length; i++) {
    const previous = valid[i - 1]!;
    const current = valid[i]!;
    if (current.start < previous.end) {
      errors.push({ field: `${path}[${current.index}]`, message: `overlaps ${path}[${previous.index}]` });
    }
  }
}

/** Open wall-clock ranges of one local day in minutes, touching ranges merged. */
export type DayRanges = ReadonlyArray<readonly [number, number]>;

/** An availability prepared for the slot engine: per-weekday and per-date minute ranges. */
export interface CompiledAvailability {
  timeZone: string;
  weekly: DayRanges[];
  overrides: Map<EpochDay, DayRanges>;
}

export function compileAvailability(availability: Availability): CompiledAvailability {
  return {
    timeZone: availability.timeZone,
    weekly: WEEKDAYS.map((day) => mergeTouching(availability.weekly[day] ?? [])),
    overrides: new Map(
      availability.overrides.map((o) => [epochDayFromIsoDate(o.date)!, mergeTouching(o.intervals)]),
    ),
  };
}

export function rangesOn(availability: CompiledAvailability, day: EpochDay): DayRanges {
  return availability.overrides.get(day) ?? availability.weekly[weekdayIndex(day)]!;
}

function mergeTouching(intervals: TimeInterval[]): DayRanges {
  const ranges = intervals
    .map((i) => [minuteOfDay(i.start), minuteOfDay(i.end)] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}
