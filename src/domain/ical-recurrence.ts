// Recurrence rules expanded by ical.js, in wall-clock time, bounded in work and skipped ahead to
// the part of the series that matters. Shared by events (busy-time.ts) and by the observances of
// VTIMEZONE definitions (ical-zones.ts), which recur the same way.
import ICAL from 'ical.js';
import { DAY_MS, type Instant } from './instant.js';

/**
 * A wall-clock time (local date and time, no zone) as the epoch milliseconds its fields would
 * have in UTC, so that days and hours are plain arithmetic. Which instant it is depends on a zone
 * (see ical-zones.ts).
 */
export type Wall = number;

/**
 * A wall-clock time and its instant differ by the UTC offset, which iCalendar writes with two
 * hour digits: less than 100 hours, so less than this, whatever a VTIMEZONE claims.
 */
export const WALL_SLACK_MS = 5 * DAY_MS;

function wallOf(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Wall {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC reads years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// jCal's form of DATE and DATE-TIME values (ical.js has already unfolded and reformatted them).
const JCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z?))?$/;

/**
 * A DATE or DATE-TIME value as ical.js's parser leaves it in jCal, checked: ical.js itself rolls
 * an impossible date over when it makes a time of it (2026-02-30 becomes 2 March), which would
 * block a day the calendar never named. Undefined when it is not a real date or time.
 */
export function jcalDate(raw: unknown): { wall: Wall; isDate: boolean; utc: boolean } | undefined {
  const parts = typeof raw === 'string' ? JCAL_DATE.exec(raw) : null;
  if (parts === null) return undefined;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (parts[4] === undefined) return { wall: wallOf(year, month, day), isDate: true, utc: false };
  const [hour, minute, second] = [Number(parts[4]), Number(parts[5]), Number(parts[6])];
  // A leap second (60) is read as the next minute's start.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  return { wall: wallOf(year, month, day, hour, minute, second), isDate: false, utc: parts[7] === 'Z' };
}

/** A floating ICAL.Time (no zone): ical.js then expands a rule purely in wall-clock time. */
function icalTime(wall: Wall, isDate: boolean): ICAL.Time {
  const date = new Date(wall);
  return new ICAL.Time(
    {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
      isDate,
    },
    ICAL.Timezone.localTimezone,
  );
}

function wallOfTime(time: ICAL.Time): Wall {
  return wallOf(time.year, time.month, time.day, time.hour, time.minute, time.second);
}

/** A limit of BusyLimits was passed: the whole calendar is refused with this message. */
export class BusyLimitExceeded extends Error {}

/**
 * The work a calendar's recurrence rules may cost. ical.js examines candidate date-times one by
 * one and filters them by the rule's BY-parts; a rule such as `FREQ=SECONDLY;BYMONTH=2` or one
 * that can never match (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`) spins inside a single `next()`
 * call for a very long time or forever. Every candidate it examines (`check_contracting_rules`,
 * and the days of a month it tries against BYDAY, `is_day_in_byday`), every year it lays out
 * (`expand_year_days`) and every occurrence is counted here, and the count is bounded, so no rule
 * can hold the process. The iterator class is made per budget because ical.js starts examining
 * candidates in its constructor already.
 */
export class RecurrenceBudget {
  private stepsLeft: number;
  readonly Iterator: typeof ICAL.RecurIterator;

  constructor(readonly maxSteps: number) {
    this.stepsLeft = maxSteps;
    const budget = this;
    this.Iterator = class MeteredRecurIterator extends ICAL.RecurIterator {
      override check_contracting_rules(): boolean {
        budget.step();
        return super.check_contracting_rules();
      }
      override expand_year_days(year: number): number {
        budget.step();
        return super.expand_year_days(year);
      }
      override is_day_in_byday(time: ICAL.Time): 0 | 1 {
        budget.step();
        return super.is_day_in_byday(time);
      }
    };
  }

  step(): void {
    this.stepsLeft -= 1;
    if (this.stepsLeft < 0) {
      throw new BusyLimitExceeded(
        `the calendar's recurring events need more than ${this.maxSteps} expansion steps (a rule repeats too often, e.g. every second or minute, or can never match)`,
      );
    }
  }
}

const FIXED_PERIOD_MS: Partial<Record<string, number>> = {
  SECONDLY: 1_000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: DAY_MS,
  WEEKLY: 7 * DAY_MS,
};
const PERIOD_MONTHS: Partial<Record<string, number>> = { MONTHLY: 1, YEARLY: 12 };

/**
 * A start for the expansion of an open-ended rule (no COUNT) that lies a whole number of periods
 * after `start` and not after `target`: the occurrences from it on are those of the original
 * series from it on, because every BY-part selects within a period (a day, an ISO week from the
 * same WKST, a month, a year) and the defaults ical.js takes from DTSTART (time of day, weekday,
 * day of month, month) are kept. A series begun in 1990 is then expanded from just before the
 * window, not day by day from 1990. With COUNT the occurrences before the window must be counted,
 * so such a rule is expanded from its start (bounded by the budget).
 */
function skipAhead(rule: ICAL.Recur, start: Wall, target: Wall): Wall {
  if (rule.count || start >= target) return start;
  const interval = rule.interval >= 1 ? rule.interval : 1;
  const fixed = FIXED_PERIOD_MS[rule.freq];
  if (fixed !== undefined) return start + Math.floor((target - start) / (fixed * interval)) * fixed * interval;
  const months = PERIOD_MONTHS[rule.freq];
  if (months === undefined) return start;
  const from = new Date(start);
  const to = new Date(target);
  const period = months * interval;
  // One month short of the target, so that the day and time of day cannot carry it past.
  const available = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() - 1;
  // The new start keeps DTSTART's day of month, so it must exist there (a 31st, a 29 February):
  // step back period by period until it does (within 12 periods for months, 400 years for years).
  for (let periods = Math.floor(available / period); periods > 0; periods -= 1) {
    const monthIndex = from.getUTCFullYear() * 12 + from.getUTCMonth() + periods * period;
    const year = Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    if (from.getUTCDate() <= daysInMonth(year, month)) {
      return wallOf(year, month, from.getUTCDate(), from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds());
    }
  }
  return start;
}

// BY-parts that choose the days of a month or year; without them a MONTHLY or YEARLY rule
// recurs on DTSTART's day of the month.
const DAY_PARTS = ['BYMONTHDAY', 'BYDAY', 'BYYEARDAY', 'BYWEEKNO'];

/**
 * ical.js can emit a date that its rule excludes where the day it recurs on is one some months
 * lack: `FREQ=YEARLY` from 29 February yields 1 March in common years, and
 * `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30` yields 2 March (both normalised from impossible dates).
 * RFC 5545 skips such dates: drop them rather than block a phantom day.
 */
function namedDayExists(rule: ICAL.Recur, time: ICAL.Time, startDay: number): boolean {
  const months = rule.parts.BYMONTH as number[] | undefined;
  if (months !== undefined && !months.includes(time.month)) return false;
  const days = rule.parts.BYMONTHDAY as number[] | undefined;
  if (days === undefined) {
    const impliedDay =
      (rule.freq === 'MONTHLY' || rule.freq === 'YEARLY') && !DAY_PARTS.some((part) => part in rule.parts);
    return !impliedDay || time.day === startDay;
  }
  const length = daysInMonth(time.year, time.month);
  return days.some((day) => day === time.day || length + 1 + day === time.day);
}

export interface WallSpan {
  from: Wall;
  to: Wall;
}

// BY-parts that select within one day or one week, by weekday and time of day only.
const REPEATING_PARTS = ['BYDAY', 'BYHOUR', 'BYMINUTE', 'BYSECOND', 'BYSETPOS'];

/**
 * The period after which a DAILY or WEEKLY rule repeats exactly ("every weekday at 9", "Mondays
 * and Wednesdays", "daily"): after one whole period, its occurrences are the previous period's
 * plus the period (INTERVAL days or weeks; for a DAILY rule with BYDAY, a multiple of INTERVAL
 * days that is also whole weeks). Undefined for rules with BY-parts that name months, month or
 * year days or week numbers, whose pattern changes from period to period.
 */
function repeatPeriod(rule: ICAL.Recur): number | undefined {
  if (rule.freq !== 'DAILY' && rule.freq !== 'WEEKLY') return undefined;
  if (!Object.keys(rule.parts).every((part) => REPEATING_PARTS.includes(part))) return undefined;
  // An ordinal weekday (1MO) has no meaning in these rules; leave such a rule to ical.js alone.
  const weekdays = (rule.parts.BYDAY ?? []) as string[];
  if (!weekdays.every((day) => /^[A-Z]{2}$/.test(day))) return undefined;
  const interval = rule.interval >= 1 ? rule.interval : 1;
  if (rule.freq === 'WEEKLY') return interval * 7 * DAY_MS;
  return (weekdays.length === 0 || interval % 7 === 0 ? interval : interval * 7) * DAY_MS;
}

/**
 * Calls `visit` with the wall-clock start of each occurrence that `rule` (with DTSTART `start`)
 * generates within `span`, in order. `until` is the rule's UNTIL as a wall time of the series'
 * zone (UNTIL is written in UTC for zoned series; the caller converts it). DTSTART itself is
 * not necessarily among them: the caller counts it once on its own.
 *
 * ical.js spends about ten microseconds per occurrence, so for a rule with a repeat period it
 * lays out two periods (the first may differ: ical.js starts it at DTSTART) and the rest
 * repeats the second, shifted by whole periods, counted against COUNT as ical.js counts.
 * The rule's UNTIL is overwritten (with `until` bounded by the span): expand a rule once.
 */
export function forEachOccurrence(
  rule: ICAL.Recur,
  start: Wall,
  isDate: boolean,
  until: Wall | undefined,
  span: WallSpan,
  budget: RecurrenceBudget,
  visit: (wall: Wall) => void,
): void {
  if (start > span.to || (until !== undefined && until < span.from)) return;
  const last = Math.min(until ?? span.to, span.to);
  // Past `last` nothing is visited; an UNTIL there also bounds the years ical.js lays out
  // for a YEARLY rule before its first occurrence (it otherwise looks up to the year 20000).
  rule.until = icalTime(last, false);
  const period = repeatPeriod(rule);
  const first = skipAhead(rule, start, span.from);
  const iterator = new budget.Iterator({ rule, dtstart: icalTime(first, isDate) });
  const startDay = new Date(start).getUTCDate();
  // With a repeat period: the occurrences of the second period, once the third begins.
  let repeated: Wall[] | undefined;
  const secondPeriod: Wall[] = [];
  let produced = 0;
  for (let time = iterator.next(); time !== null; time = iterator.next()) {
    budget.step();
    const wall = wallOfTime(time);
    if (wall > span.to) return;
    if (period !== undefined && wall >= first + period) {
      if (wall >= first + 2 * period && secondPeriod.length > 0) {
        repeated = secondPeriod;
        break;
      }
      secondPeriod.push(wall);
    }
    produced += 1;
    if (wall >= span.from && namedDayExists(rule, time, startDay)) visit(wall);
  }
  if (repeated === undefined || period === undefined) return;
  for (let shift = period; ; shift += period) {
    for (const wall of repeated) {
      if (wall + shift > last || (rule.count && produced >= rule.count)) return;
      budget.step();
      produced += 1;
      if (wall + shift >= span.from) visit(wall + shift);
    }
  }
}

/**
 * The rule's UNTIL as a wall time of the series' zone, or undefined without one. RFC 5545 writes
 * it in UTC for a zoned series (`toWall` reads that instant in the series' zone) and as a local
 * value for a floating or all-day one. A bare date ending a series of date-times (against the
 * RFC, but written) includes its whole day.
 */
export function untilWall(
  rule: ICAL.Recur,
  seriesIsDate: boolean,
  toWall: (instant: Instant) => Wall,
): Wall | undefined {
  const until = rule.until;
  if (until === null) return undefined;
  const wall = wallOfTime(until);
  if (until.isDate) return seriesIsDate ? wall : wall + DAY_MS - 1_000;
  return until.zone === ICAL.Timezone.utcTimezone ? toWall(wall) : wall;
}
