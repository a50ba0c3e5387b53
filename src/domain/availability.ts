import type { FieldError } from './errors.js';
import { canonicalTimeZone, epochDayFromIsoDate, weekdayIndex, type EpochDay, type Zone } from './zone.js';

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

/** `HH:MM`, or `24:00` (valid only as an end). */
export const WALL_TIME_PATTERN = '^(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]|24:00)$';
const WALL_TIME = new RegExp(WALL_TIME_PATTERN);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Checks what a schema cannot: a real zone, `start < end`, no overlapping intervals in a day,
 * real and distinct override dates. Returns the availability with the zone's canonical spelling,
 * intervals sorted by start and overrides sorted by date, or every problem with its path.
 */
export function normalizeAvailability(
  input: Availability,
): { ok: true; value: Availability } | { ok: false; errors: FieldError[] } {
  const errors = availabilityRuleErrors(input);
  const timeZone = canonicalTimeZone(input.timeZone);
  if (errors.length > 0 || !timeZone) return { ok: false, errors };
  const weekly = Object.fromEntries(WEEKDAYS.map((day) => [day, sortIntervals(input.weekly[day] ?? [])])) as Record<
    Weekday,
    TimeInterval[]
  >;
  const overrides = input.overrides
    .map((o) => ({ date: o.date, intervals: sortIntervals(o.intervals) }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  return { ok: true, value: { timeZone, weekly, overrides } };
}

/**
 * The rule problems of an availability document that may also be malformed: parts of the wrong
 * shape are skipped (the schema reports those), so one answer can list every failing field.
 */
export function availabilityRuleErrors(input: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const document = isRecord(input) ? input : {};
  if (typeof document.timeZone === 'string' && !canonicalTimeZone(document.timeZone)) {
    errors.push({ field: 'timeZone', message: 'must be an IANA time zone name, e.g. Europe/Berlin' });
  }
  const weekly = isRecord(document.weekly) ? document.weekly : {};
  for (const day of WEEKDAYS)
    checkIntervals(wellFormedIntervals(weekly[day], `weekly.${day}`, errors), `weekly.${day}`, errors);

  const seen = new Map<string, number>();
  const overrides = Array.isArray(document.overrides) ? document.overrides : [];
  overrides.forEach((override: unknown, index) => {
    if (!isRecord(override)) return;
    const path = `overrides[${index}]`;
    const date = override.date;
    if (typeof date === 'string') {
      if (!ISO_DATE.test(date) || epochDayFromIsoDate(date) === undefined) {
        errors.push({ field: `${path}.date`, message: 'must be a real calendar date YYYY-MM-DD' });
      } else if (seen.has(date)) {
        errors.push({ field: `${path}.date`, message: `repeats the date of overrides[${seen.get(date)}]` });
      } else {
        seen.set(date, index);
      }
    }
    checkIntervals(wellFormedIntervals(override.intervals, `${path}.intervals`, errors), `${path}.intervals`, errors);
  });
  return errors;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The intervals with two well-formed times, at their original positions (null elsewhere); a
 * time string that is not `HH:MM` is reported.
 */
function wellFormedIntervals(value: unknown, path: string, errors: FieldError[]): Array<TimeInterval | null> {
  if (!Array.isArray(value)) return [];
  return value.map((item: unknown, index) => {
    if (!isRecord(item)) return null;
    let wellFormed = true;
    for (const edge of ['start', 'end'] as const) {
      const time = item[edge];
      if (typeof time === 'string' && WALL_TIME.test(time)) continue;
      wellFormed = false;
      if (typeof time === 'string')
        errors.push({ field: `${path}[${index}].${edge}`, message: 'must be a time HH:MM (end may be 24:00)' });
    }
    return wellFormed ? { start: item.start as string, end: item.end as string } : null;
  });
}

function sortIntervals(intervals: TimeInterval[]): TimeInterval[] {
  return intervals
    .map((i) => ({ start: i.start, end: i.end }))
    .sort((a, b) => minuteOfDay(a.start) - minuteOfDay(b.start));
}

function checkIntervals(intervals: Array<TimeInterval | null>, path: string, errors: FieldError[]): void {
  const valid: Array<{ index: number; start: number; end: number }> = [];
  intervals.forEach((interval, index) => {
    if (interval === null) return;
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
  // Compare with the earlier interval reaching furthest, not just the previous one: in
  // 09:00–17:00, 10:00–11:00, 12:00–13:00 the third overlaps the first.
  let furthest = valid[0];
  for (let i = 1; i < valid.length; i++) {
    const current = valid[i]!;
    if (current.start < furthest!.end) {
      errors.push({ field: `${path}[${current.index}]`, message: `overlaps ${path}[${furthest!.index}]` });
    }
    if (current.end > furthest!.end) furthest = current;
  }
}

/** Open wall-clock ranges of one local day in minutes, touching ranges merged. */
export type DayRanges = ReadonlyArray<readonly [number, number]>;

/** An availability prepared for the slot engine: per-weekday and per-date minute ranges. */
export interface CompiledAvailability {
  zone: Zone;
  weekly: DayRanges[];
  overrides: Map<EpochDay, DayRanges>;
}

/** `zone` is the availability's zone, as the caller keeps it (see `Zones`). */
export function compileAvailability(availability: Availability, zone: Zone): CompiledAvailability {
  return {
    zone,
    weekly: WEEKDAYS.map((day) => mergeTouching(availability.weekly[day] ?? [])),
    overrides: new Map(availability.overrides.map((o) => [epochDayFromIsoDate(o.date)!, mergeTouching(o.intervals)])),
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
