/**
 * The VEVENTs of busy time (busy-time.ts): what one event blocks and when its occurrences fall.
 * ical.js parses each VEVENT and expands its rules in the wall-clock time of its zone; overrides
 * and EXDATEs are related to the occurrences they replace by instant, not through ICAL.Event
 * (see busy-time.ts).
 */
import ICAL from 'ical.js';
import { DAY_MS, type Instant } from './instant.js';
import type { Interval } from './intervals.js';
import { forEachOccurrence, jcalDate, untilWall, WALL_SLACK_MS } from './ical-recurrence.js';
import type { RecurrenceBudget, Wall, WallSpan } from './ical-recurrence.js';
import { UTC_CLOCK, type Clock, type Clocks } from './ical-zones.js';

/** Where the occurrences of an event go, each as `[start, end)`. */
export interface OccurrenceSink {
  add(start: Instant, end: Instant): void;
}

/** A date or date-time value with the clock that places it in time. */
interface DateValue {
  wall: Wall;
  isDate: boolean;
  clock: Clock;
}

function readDate(raw: unknown, tzid: unknown, clocks: Clocks): DateValue {
  const value = jcalDate(raw);
  if (value === undefined) throw new Error('not a date');
  if (value.isDate) return { wall: value.wall, isDate: true, clock: clocks.floating };
  const clock = value.utc ? UTC_CLOCK : typeof tzid === 'string' ? clocks.of(tzid) : clocks.floating;
  return { wall: value.wall, isDate: false, clock };
}

function datesOf(property: ICAL.Property, clocks: Clocks): DateValue[] {
  const tzid = property.getParameter('tzid');
  return property.jCal.slice(3).map((raw) => readDate(raw, tzid, clocks));
}

function dateOf(component: ICAL.Component, name: string, clocks: Clocks): DateValue | undefined {
  const property = component.getFirstProperty(name);
  return property === null ? undefined : readDate(property.jCal[3], property.getParameter('tzid'), clocks);
}

/** How long an occurrence lasts: `days` whole days on the wall clock of its zone, then `ms` exactly. */
interface Length {
  days: number;
  ms: number;
}

export interface BusyEvent {
  uid: string | undefined;
  /** The instant of RECURRENCE-ID: this VEVENT stands for that occurrence of its series. */
  replaces: Instant | undefined;
  sequence: number;
  blocks: boolean;
  start: DateValue;
  /**
   * DTEND of a date-time event: its exact distance from DTSTART is the length of every
   * occurrence, computed when first needed (most events lie outside the window and never need it).
   */
  end: DateValue | undefined;
  length: Length | undefined;
  /** An upper bound of the length from wall times alone (no zone lookup). */
  reach: number;
  rules: ICAL.Recur[];
  /** RDATEs, each with its own length when it is a PERIOD. */
  extraStarts: { start: DateValue; length: Length | undefined }[];
  excluded: Set<Instant>;
  /** EXDATEs given as dates for a date-time series: the local days whose occurrences are excluded. */
  excludedDays: Set<number>;
}

function upper(component: ICAL.Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' ? value.trim().toUpperCase() : undefined;
}

function blocksTime(component: ICAL.Component): boolean {
  if (upper(component, 'status') === 'CANCELLED') return false;
  const transparency = upper(component, 'transp');
  if (transparency !== undefined) return transparency !== 'TRANSPARENT';
  return upper(component, 'x-microsoft-cdo-busystatus') !== 'FREE';
}

function nominalLength(duration: ICAL.Duration): Length {
  if (duration.isNegative) throw new Error('negative duration');
  return {
    days: duration.weeks * 7 + duration.days,
    ms: ((duration.hours * 60 + duration.minutes) * 60 + duration.seconds) * 1_000,
  };
}

export function readEvent(component: ICAL.Component, clocks: Clocks, window: Interval): BusyEvent {
  if (component.name !== 'vevent') throw new Error('not a VEVENT');
  const start = dateOf(component, 'dtstart', clocks);
  if (start === undefined) throw new Error('no DTSTART');
  const end = dateOf(component, 'dtend', clocks);
  const duration = component.getFirstPropertyValue('duration');
  let length: Length | undefined;
  let reach: number;
  if (end !== undefined) {
    if (end.isDate !== start.isDate || (end.clock === start.clock && end.wall < start.wall)) {
      throw new Error('DTEND does not fit DTSTART');
    }
    // The zones of DTSTART and DTEND may differ, each by less than WALL_SLACK_MS from its wall time.
    reach = end.wall - start.wall + 2 * WALL_SLACK_MS;
    if (start.isDate) length = { days: (end.wall - start.wall) / DAY_MS, ms: 0 };
  } else {
    length = duration instanceof ICAL.Duration ? nominalLength(duration) : { days: start.isDate ? 1 : 0, ms: 0 };
    reach = length.days * DAY_MS + length.ms;
  }
  const recurrenceId = dateOf(component, 'recurrence-id', clocks);
  const uid = component.getFirstPropertyValue('uid');
  const sequence = Number(component.getFirstPropertyValue('sequence'));
  const event: BusyEvent = {
    uid: typeof uid === 'string' ? uid : undefined,
    replaces: recurrenceId && recurrenceId.clock.toInstant(recurrenceId.wall),
    sequence: Number.isSafeInteger(sequence) ? sequence : 0,
    blocks: blocksTime(component),
    start,
    end: length === undefined ? end : undefined,
    length,
    reach,
    rules: [],
    extraStarts: [],
    excluded: new Set(),
    excludedDays: new Set(),
  };
  // An override is one occurrence: the rules, extra dates and exclusions are its series'.
  if (recurrenceId !== undefined) return event;
  for (const property of component.getAllProperties('rrule')) {
    const rule = property.getFirstValue() as ICAL.Recur;
    if (!rule.freq) throw new Error('RRULE without FREQ');
    event.rules.push(rule);
  }
  for (const property of component.getAllProperties('rdate')) {
    if (property.type === 'period') {
      const tzid = property.getParameter('tzid');
      for (const raw of property.jCal.slice(3) as unknown[]) {
        const [from, until] = Array.isArray(raw) ? (raw as unknown[]) : [];
        const periodStart = readDate(from, tzid, clocks);
        const periodLength =
          typeof until === 'string' && until.startsWith('P')
            ? nominalLength(ICAL.Duration.fromString(until))
            : exactLength(periodStart, readDate(until, tzid, clocks));
        event.reach = Math.max(event.reach, periodLength.days * DAY_MS + periodLength.ms);
        event.extraStarts.push({ start: periodStart, length: periodLength });
      }
    } else {
      for (const date of datesOf(property, clocks)) event.extraStarts.push({ start: date, length: undefined });
    }
  }
  const reachable = startsReaching(event, window);
  for (const property of component.getAllProperties('exdate')) {
    for (const date of datesOf(property, clocks)) {
      if (date.isDate && !start.isDate) event.excludedDays.add(date.wall / DAY_MS);
      // An EXDATE far from the window can only exclude occurrences that are not counted anyway.
      else if (date.wall >= reachable.from - WALL_SLACK_MS && date.wall <= reachable.to + WALL_SLACK_MS) {
        event.excluded.add(date.clock.toInstant(date.wall));
      }
    }
  }
  return event;
}

/** The time from `start` to `end`; none when, in two different zones, the end comes first. */
function exactLength(start: DateValue, end: DateValue): Length {
  return { days: 0, ms: Math.max(0, end.clock.toInstant(end.wall) - start.clock.toInstant(start.wall)) };
}

function lengthOf(event: BusyEvent): Length {
  event.length ??= exactLength(event.start, event.end!);
  return event.length;
}

/** Per series UID, its overrides by the instant they replace; among duplicates the highest SEQUENCE. */
export function overridesBySeries(events: BusyEvent[]): Map<string, Map<Instant, BusyEvent>> {
  const bySeries = new Map<string, Map<Instant, BusyEvent>>();
  for (const event of events) {
    if (event.uid === undefined || event.replaces === undefined) continue;
    let series = bySeries.get(event.uid);
    if (series === undefined) {
      series = new Map();
      bySeries.set(event.uid, series);
    }
    const known = series.get(event.replaces);
    if (known === undefined || event.sequence >= known.sequence) series.set(event.replaces, event);
  }
  return bySeries;
}

/** The wall-clock starts (in the series' zone) whose occurrence can reach into the window. */
function startsReaching(event: BusyEvent, window: Interval): WallSpan {
  return { from: window.start - event.reach - WALL_SLACK_MS, to: window.end + WALL_SLACK_MS };
}

/** Adds the occurrences of `event` that overlap the window, but those `overridden` replaces. */
export function expand(
  event: BusyEvent,
  overridden: ReadonlyMap<Instant, BusyEvent> | undefined,
  window: Interval,
  budget: RecurrenceBudget,
  collector: OccurrenceSink,
): void {
  const clock = event.start.clock;
  const span = startsReaching(event, window);
  const seen = new Set<Instant>();
  const occurrence = (wall: Wall, start: Instant, length: Length) => {
    if (seen.has(start)) return;
    seen.add(start);
    if (event.excluded.has(start) || event.excludedDays.has(Math.floor(wall / DAY_MS)) || overridden?.has(start)) {
      return;
    }
    const end = length.days === 0 ? start + length.ms : clock.toInstant(wall + length.days * DAY_MS) + length.ms;
    collector.add(start, end);
  };
  const atWall = (wall: Wall) => occurrence(wall, clock.toInstant(wall), lengthOf(event));
  if (event.start.wall >= span.from && event.start.wall <= span.to) atWall(event.start.wall);
  for (const rule of event.rules) {
    // An UNTIL long before the span only has to stay before it: no need to ask the zone.
    const toWall = (instant: Instant) => (instant < span.from - WALL_SLACK_MS ? instant : clock.toWall(instant));
    const until = untilWall(rule, event.start.isDate, toWall);
    forEachOccurrence(rule, event.start.wall, event.start.isDate, until, span, budget, atWall);
  }
  for (const extra of event.extraStarts) {
    // Its own zone may differ from the series' by less than two slacks.
    if (extra.start.wall < span.from - WALL_SLACK_MS || extra.start.wall > span.to + WALL_SLACK_MS) continue;
    const start = extra.start.clock.toInstant(extra.start.wall);
    occurrence(clock.toWall(start), start, extra.length ?? lengthOf(event));
  }
}
