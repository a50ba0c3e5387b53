/**
 * Busy time from iCalendar text (issue 15, contract §11): the intervals a host's own calendar
 * (an ICS feed, or CalDAV objects put one after another) blocks within a window.
 *
 * ical.js parses (each VEVENT on its own, see splitCalendar) and expands recurrence rules;
 * this module decides what an event blocks and when. Recurrence is expanded in the wall-clock
 * time of the series' zone, as RFC 5545 defines it (a weekly 10:00 in Berlin stays 10:00 across
 * the change to summer time), and each occurrence is placed in time by the zone's clock
 * (ical-zones.ts). ICAL.Event is not used: it relates overrides and EXDATEs by comparing ical.js
 * times, whose zones come from ical.js's process-wide TimezoneService (mutable shared state,
 * and blind to IANA names the file does not define); here they are related by instant.
 */
import ICAL from 'ical.js';
import { DAY_MS, type Instant } from './instant.js';
import {
  BusyLimitExceeded,
  forEachOccurrence,
  jcalDate,
  RecurrenceBudget,
  untilWall,
  WALL_SLACK_MS,
  type Wall,
  type WallSpan,
} from './ical-recurrence.js';
import { Clocks, UTC_CLOCK, type Clock } from './ical-zones.js';
import { canonicalTimeZone } from './zone.js';

/** Half-open `[start, end)`, epoch milliseconds. */
export interface BusyInterval {
  start: Instant;
  end: Instant;
}

export interface BusyWindow {
  from: Instant;
  to: Instant;
}

/**
 * Bounds on what one calendar may cost, all its texts together (one fetch: an ICS file, or every
 * object of a CalDAV calendar); past any of them the calendar is refused as a whole.
 * Measured on a year's window: a realistic export of 2,000 events (200 of them series) needs
 * 10,000–20,000 recurrence steps and 600 intervals; suggested bounds are 20,000 events, 50,000
 * intervals and 100,000 steps.
 */
export interface BusyLimits {
  /** VEVENTs in the texts, overrides (RECURRENCE-ID) included; each text's counted before it is parsed. */
  maxEvents: number;
  /** Occurrences that overlap the window, before merging: bounds the result and its memory. */
  maxIntervals: number;
  /**
   * Work of recurrence expansion over the whole calendar (every text of the fetch): each occurrence a rule yields and each
   * candidate date-time ical.js examines and rejects (see RecurrenceBudget). Each occurrence
   * costs at least one step, so this also bounds occurrences per event; it replaces a per-event
   * bound because it bounds CPU whatever the rules are. A step costs ical.js one to about ten
   * microseconds (the most for rules that can never match), so 100,000 steps hold even a
   * hostile calendar to about a second.
   */
  maxRecurrenceSteps: number;
}

export type BusyParse =
  | {
      ok: true;
      /** Sorted, clipped to the window, overlapping and touching intervals merged. */
      intervals: BusyInterval[];
      /** VEVENTs left out because they were malformed (see busyFromICalendar). */
      skippedEvents: number;
    }
  | { ok: false; error: string };

/**
 * The busy intervals of `text` within `window`.
 *
 * - What blocks: every VEVENT occurrence, except events with STATUS:CANCELLED and transparent ones
 *   (TRANSP:TRANSPARENT, or without TRANSP Outlook's X-MICROSOFT-CDO-BUSYSTATUS:FREE). STATUS
 *   TENTATIVE (and CONFIRMED, or none) blocks: a meeting not yet confirmed is still one. VTODO,
 *   VJOURNAL, VFREEBUSY and other components block nothing.
 * - Recurrence: RRULE (all of RFC 5545 that ical.js expands), RDATE (dates, date-times, periods),
 *   EXDATE, and overrides: a VEVENT with the series' UID and a RECURRENCE-ID replaces the
 *   occurrence starting at that instant (the highest SEQUENCE wins among duplicates); a cancelled or
 *   transparent override removes it. An override is one occurrence (RANGE=THISANDFUTURE is read
 *   as this instance only), and one whose series is absent still blocks its own time. DTSTART is
 *   always an occurrence. EXRULE (deprecated by RFC 5545) is ignored.
 * - Time: a date-time with `Z` is UTC; with a TZID, see Clocks (an IANA or Windows zone name wins
 *   over the file's VTIMEZONE for it); without either it is floating and read in `defaultZone`
 *   (the holder's IANA zone). An all-day event (VALUE=DATE) blocks from local midnight of its
 *   first day to local midnight after its last in `defaultZone` (DTEND is exclusive; without
 *   DTEND or DURATION it lasts one day). A date-time event without DTEND or DURATION lasts no
 *   time and blocks nothing. A DTEND gives every occurrence the master's exact duration, a
 *   DURATION its nominal one (days on the wall clock, then hours), as RFC 5545 says.
 *   X-WR-TIMEZONE is not read: floating times are the holder's.
 * - Errors: text that is not iCalendar, is cut short, or whose frame (calendar properties,
 *   VTIMEZONEs) is malformed gives `{ ok: false }` with a short reason; so does passing a limit.
 *   A single malformed VEVENT (an invalid date, a rule ical.js refuses, DTEND before DTSTART, no
 *   DTSTART, an unclosed block) is left out and counted in `skippedEvents`. Nothing is thrown, and
 *   the messages never quote the text.
 */
export function busyFromICalendar(
  text: string,
  window: BusyWindow,
  defaultZone: string,
  limits: BusyLimits,
): BusyParse {
  return busyFromCalendars([text], window, defaultZone, limits);
}

/**
 * The busy time of several texts read in one fetch (a CalDAV calendar is one text per object; an
 * ICS address one text) over one window, merged, as busyFromICalendar reads one. The bounds are
 * the fetch's, not each text's: its events are counted over all texts (more texts than
 * `maxEvents` are refused before any is read), all of them share one recurrence budget, and the
 * merged result is held to `maxIntervals` too. So a calendar of many small objects costs no more
 * than one text of the same events (with a budget each, 100 objects of 45,000 minutes each cost
 * 100 budgets: issue 25).
 */
export function busyFromCalendars(
  texts: readonly string[],
  window: BusyWindow,
  defaultZone: string,
  limits: BusyLimits,
): BusyParse {
  const zone = canonicalTimeZone(defaultZone);
  if (zone === undefined)
    return { ok: false, error: `the default zone ${JSON.stringify(defaultZone)} is not an IANA time zone` };
  if (!(window.from < window.to)) return { ok: false, error: 'the window must start before it ends' };
  if (texts.length > limits.maxEvents)
    return { ok: false, error: `the calendar has more than ${limits.maxEvents} events` };
  const fetch: FetchBounds = { budget: new RecurrenceBudget(limits.maxRecurrenceSteps), events: 0 };
  const intervals: BusyInterval[] = [];
  let skippedEvents = 0;
  try {
    for (const text of texts) {
      const parsed = readBusy(text, window, zone, limits, fetch);
      if (!parsed.ok) return parsed;
      skippedEvents += parsed.skippedEvents;
      for (const interval of parsed.intervals) intervals.push(interval);
      if (intervals.length > limits.maxIntervals)
        return { ok: false, error: `the calendar has more than ${limits.maxIntervals} busy occurrences in the window` };
    }
  } catch (error) {
    if (error instanceof BusyLimitExceeded) return { ok: false, error: error.message };
    return { ok: false, error: 'the calendar could not be read' };
  }
  return { ok: true, intervals: mergeBusy(intervals), skippedEvents };
}

/** What the texts of one fetch have spent together: recurrence steps, and VEVENTs seen. */
interface FetchBounds {
  budget: RecurrenceBudget;
  events: number;
}

function readBusy(
  text: string,
  window: BusyWindow,
  defaultZone: string,
  limits: BusyLimits,
  fetch: FetchBounds,
): BusyParse {
  const split = splitCalendar(text, limits.maxEvents, fetch);
  if (typeof split === 'string') return { ok: false, error: `the calendar could not be parsed: ${split}` };
  const calendars = calendarsOf(split.frame);
  if (calendars === undefined) {
    return {
      ok: false,
      error: 'the calendar could not be parsed: its properties or time zone definitions are not valid iCalendar',
    };
  }
  const definitions = new Map<string, ICAL.Component>();
  for (const calendar of calendars) {
    for (const definition of calendar.getAllSubcomponents('vtimezone')) {
      const tzid = definition.getFirstPropertyValue('tzid');
      if (typeof tzid === 'string' && !definitions.has(tzid)) definitions.set(tzid, definition);
    }
  }
  const budget = fetch.budget;
  const clocks = new Clocks(definitions, defaultZone, window, budget);
  const events: BusyEvent[] = [];
  let skippedEvents = split.unclosedEvents;
  for (const block of split.events) {
    try {
      events.push(readEvent(new ICAL.Component(ICAL.parse(block)), clocks, window));
    } catch (error) {
      if (error instanceof BusyLimitExceeded) throw error;
      skippedEvents += 1;
    }
  }
  const collector = new BusyCollector(window, limits.maxIntervals);
  // ical.js refuses some rules only when it starts expanding them (FREQ=WEEKLY;BYMONTHDAY=1):
  // such an event is skipped too, with what it had added.
  const expandOrSkip = (event: BusyEvent, overridden: ReadonlyMap<Instant, BusyEvent> | undefined) => {
    const added = collector.size;
    try {
      expand(event, overridden, window, budget, collector);
    } catch (error) {
      if (error instanceof BusyLimitExceeded) throw error;
      collector.truncate(added);
      skippedEvents += 1;
    }
  };
  const overrides = overridesBySeries(events);
  for (const event of events) {
    if (event.uid !== undefined && event.replaces !== undefined) continue; // below, with its series
    if (event.blocks) expandOrSkip(event, event.uid === undefined ? undefined : overrides.get(event.uid));
  }
  for (const series of overrides.values()) {
    for (const override of series.values()) {
      if (override.blocks) expandOrSkip(override, undefined);
    }
  }
  return { ok: true, intervals: collector.merged(), skippedEvents };
}

interface CalendarText {
  /** Everything but the events: the calendars' own lines and their VTIMEZONEs. */
  frame: string;
  /** Each VEVENT's lines, with the components nested in it (VALARM). */
  events: string[];
  /** VEVENTs that their calendar's end (or the next calendar's start) cut off. */
  unclosedEvents: number;
}

/** `BEGIN:X` or `END:X` in upper case, or undefined for any other line. */
function componentMarker(line: string): string | undefined {
  return /^(BEGIN|END):/i.test(line) ? line.trimEnd().toUpperCase() : undefined;
}

/**
 * Splits the text into its VEVENT blocks and the rest by BEGIN/END lines alone (a line-level cut,
 * not parsing: ical.js parses each piece). ical.js refuses a whole text for one bad value (a
 * misspelt RRULE, a wrong date); parsed block by block, such an event is skipped and the rest of
 * the calendar still counts. Other top-level components (VTODO, VJOURNAL, VFREEBUSY…) are
 * dropped: they block nothing. Throws BusyLimitExceeded past `maxEvents` VEVENTs in the fetch's
 * texts so far (counted in `fetch`); a string is the
 * reason the text is not a calendar.
 */
function splitCalendar(text: string, maxEvents: number, fetch: FetchBounds): CalendarText | string {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\n|\r/);
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first += 1;
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last -= 1;
  if (first === lines.length || componentMarker(lines[first]!) !== 'BEGIN:VCALENDAR') {
    return 'it is not iCalendar text (it does not begin with BEGIN:VCALENDAR)';
  }
  if (componentMarker(lines[last]!) !== 'END:VCALENDAR') return 'it is cut short (it does not end with END:VCALENDAR)';
  const frame: string[] = [];
  const events: string[] = [];
  let unclosedEvents = 0;
  let event: string[] = [];
  // 0: between calendars; 1: in a VCALENDAR; 2 and more: inside one of its components.
  let depth = 0;
  let route: 'frame' | 'event' | 'drop' = 'frame';
  for (let i = first; i <= last; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const marker = componentMarker(line);
    if (marker === 'BEGIN:VCALENDAR' || marker === 'END:VCALENDAR') {
      if (depth > 1 && route === 'event') unclosedEvents += 1;
      route = 'frame';
      depth = marker === 'BEGIN:VCALENDAR' ? 1 : 0;
      frame.push(line);
      continue;
    }
    if (marker?.startsWith('BEGIN:')) {
      if (depth === 1) {
        route = marker === 'BEGIN:VEVENT' ? 'event' : marker === 'BEGIN:VTIMEZONE' ? 'frame' : 'drop';
        if (route === 'event') {
          fetch.events += 1;
          if (fetch.events > maxEvents) throw new BusyLimitExceeded(`the calendar has more than ${maxEvents} events`);
          event = [];
        }
      }
      depth += 1;
    }
    if (route === 'frame') frame.push(line);
    else if (route === 'event') event.push(line);
    if (marker?.startsWith('END:') && depth > 1) {
      depth -= 1;
      if (depth === 1) {
        if (route === 'event') events.push(event.join('\r\n'));
        route = 'frame';
      }
    }
  }
  return { frame: frame.join('\r\n'), events, unclosedEvents };
}

/** The VCALENDARs of the frame, or undefined when ical.js refuses it or it holds anything else. */
function calendarsOf(frame: string): ICAL.Component[] | undefined {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(frame);
  } catch {
    return undefined;
  }
  const roots = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
  const calendars = roots.map((root) => new ICAL.Component(root as unknown[]));
  return calendars.every((calendar) => calendar.name === 'vcalendar') ? calendars : undefined;
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

interface BusyEvent {
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

function readEvent(component: ICAL.Component, clocks: Clocks, window: BusyWindow): BusyEvent {
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
function overridesBySeries(events: BusyEvent[]): Map<string, Map<Instant, BusyEvent>> {
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
function startsReaching(event: BusyEvent, window: BusyWindow): WallSpan {
  return { from: window.from - event.reach - WALL_SLACK_MS, to: window.to + WALL_SLACK_MS };
}

/** Adds the occurrences of `event` that overlap the window, but those `overridden` replaces. */
function expand(
  event: BusyEvent,
  overridden: ReadonlyMap<Instant, BusyEvent> | undefined,
  window: BusyWindow,
  budget: RecurrenceBudget,
  collector: BusyCollector,
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

class BusyCollector {
  private readonly intervals: BusyInterval[] = [];

  constructor(
    private readonly window: BusyWindow,
    private readonly maxIntervals: number,
  ) {}

  get size(): number {
    return this.intervals.length;
  }

  truncate(size: number): void {
    this.intervals.length = size;
  }

  add(start: Instant, end: Instant): void {
    if (end <= start || end <= this.window.from || start >= this.window.to) return;
    if (this.intervals.length >= this.maxIntervals) {
      throw new BusyLimitExceeded(`the calendar has more than ${this.maxIntervals} busy occurrences in the window`);
    }
    this.intervals.push({ start: Math.max(start, this.window.from), end: Math.min(end, this.window.to) });
  }

  merged(): BusyInterval[] {
    return mergeBusy(this.intervals);
  }
}

/** The intervals sorted by start, overlapping and touching ones merged (a new array; the input is sorted in place). */
export function mergeBusy(intervals: BusyInterval[]): BusyInterval[] {
  const sorted = intervals.sort((a, b) => a.start - b.start);
  const merged: BusyInterval[] = [];
  for (const interval of sorted) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && interval.start <= previous.end) previous.end = Math.max(previous.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}
