/**
 * Busy time from iCalendar text (issue 15, contract §11): the intervals a host's own calendar
 * (an ICS feed, or CalDAV objects put one after another) blocks within a window.
 *
 * ical.js parses (each VEVENT on its own, see splitCalendar in ical-text.ts) and expands recurrence
 * rules; ical-events.ts decides what an event blocks and when, and this module bounds and merges
 * what they add up to. Recurrence is expanded in the wall-clock
 * time of the series' zone, as RFC 5545 defines it (a weekly 10:00 in Berlin stays 10:00 across
 * the change to summer time), and each occurrence is placed in time by the zone's clock
 * (ical-zones.ts). ICAL.Event is not used: it relates overrides and EXDATEs by comparing ical.js
 * times, whose zones come from ical.js's process-wide TimezoneService (mutable shared state,
 * and blind to IANA names the file does not define); here they are related by instant.
 */
import ICAL from 'ical.js';
import { appointmentIdOfUid } from './appointment.js';
import { BusyLimitExceeded, RecurrenceBudget } from './ical-recurrence.js';
import { expand, overridesBySeries, readEvent, type BusyEvent } from './ical-events.js';
import { calendarsOf, splitCalendar } from './ical-text.js';
import { Clocks } from './ical-zones.js';
import type { Instant } from './instant.js';
import { merge, type Interval } from './intervals.js';
import { canonicalTimeZone } from './zone.js';

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
      /**
       * Sorted, clipped to the window, overlapping and touching intervals merged: every event but
       * those in `ofAppointments`.
       */
      intervals: Interval[];
      /**
       * The busy time of events whose UID has the form of a Slotwise appointment's
       * (`appointmentIdOfUid`), by appointment, kept apart: whether one is the holder's own, which
       * never blocks it (contract §16), only the store can say. Each appointment's intervals are
       * sorted and merged like `intervals`.
       */
      ofAppointments: AppointmentBusy[];
      /** VEVENTs left out because they were malformed (see busyFromICalendar). */
      skippedEvents: number;
    }
  | { ok: false; error: string };

/** The busy time of a calendar's events that name one Slotwise appointment by their UID. */
export interface AppointmentBusy {
  /** The appointment's id, or a seated occurrence's (`appointmentIdOfUid`). */
  appointmentId: string;
  intervals: Interval[];
}

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
 * - Appointments: an event whose UID names a Slotwise appointment (`<appointment id>@slotwise`,
 *   or a seated occurrence's `<event type id>.<start>@slotwise`, domain/appointment.ts) is counted and bounded like any, but its time goes to `ofAppointments`
 *   instead of `intervals`, so the caller can leave out the holder's own (contract §16).
 * - Errors: text that is not iCalendar, is cut short, or whose frame (calendar properties,
 *   VTIMEZONEs) is malformed gives `{ ok: false }` with a short reason; so does passing a limit.
 *   A single malformed VEVENT (an invalid date, a rule ical.js refuses, DTEND before DTSTART, no
 *   DTSTART, an unclosed block) is left out and counted in `skippedEvents`. Nothing is thrown, and
 *   the messages never quote the text.
 */
export function busyFromICalendar(text: string, window: Interval, defaultZone: string, limits: BusyLimits): BusyParse {
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
  window: Interval,
  defaultZone: string,
  limits: BusyLimits,
): BusyParse {
  const zone = canonicalTimeZone(defaultZone);
  if (zone === undefined)
    return { ok: false, error: `the default zone ${JSON.stringify(defaultZone)} is not an IANA time zone` };
  if (!(window.start < window.end)) return { ok: false, error: 'the window must start before it ends' };
  if (texts.length > limits.maxEvents)
    return { ok: false, error: `the calendar has more than ${limits.maxEvents} events` };
  const fetch: FetchBounds = { budget: new RecurrenceBudget(limits.maxRecurrenceSteps), events: 0 };
  const intervals: Interval[] = [];
  const ofAppointments = new Map<string, Interval[]>();
  let count = 0;
  let skippedEvents = 0;
  try {
    for (const text of texts) {
      const parsed = readBusy(text, window, zone, limits, fetch);
      if (!parsed.ok) return parsed;
      skippedEvents += parsed.skippedEvents;
      for (const interval of parsed.intervals) intervals.push(interval);
      count += parsed.intervals.length;
      for (const { appointmentId, intervals: times } of parsed.ofAppointments) {
        const seen = ofAppointments.get(appointmentId);
        if (seen) seen.push(...times);
        else ofAppointments.set(appointmentId, [...times]);
        count += times.length;
      }
      if (count > limits.maxIntervals)
        return { ok: false, error: `the calendar has more than ${limits.maxIntervals} busy occurrences in the window` };
    }
  } catch (error) {
    if (error instanceof BusyLimitExceeded) return { ok: false, error: error.message };
    return { ok: false, error: 'the calendar could not be read' };
  }
  return {
    ok: true,
    intervals: merge(intervals),
    ofAppointments: [...ofAppointments].map(([appointmentId, times]) => ({ appointmentId, intervals: merge(times) })),
    skippedEvents,
  };
}

/** What the texts of one fetch have spent together: recurrence steps, and VEVENTs seen. */
interface FetchBounds {
  budget: RecurrenceBudget;
  events: number;
}

function readBusy(
  text: string,
  window: Interval,
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
    collector.collectFor(event.uid === undefined ? undefined : appointmentIdOfUid(event.uid));
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
  return { ok: true, intervals: collector.merged(), ofAppointments: collector.ofAppointments(), skippedEvents };
}

/** Occurrences as they are expanded: an appointment's apart (`collectFor`), the rest together; all of them bounded as one. */
class BusyCollector {
  private readonly intervals: Interval[] = [];
  private readonly byAppointment = new Map<string, Interval[]>();
  private target: Interval[] = this.intervals;
  private total = 0;

  constructor(
    private readonly window: Interval,
    private readonly maxIntervals: number,
  ) {}

  /** The occurrences added next are an appointment's (by its id), or with undefined anyone's. */
  collectFor(appointmentId: string | undefined): void {
    if (appointmentId === undefined) {
      this.target = this.intervals;
      return;
    }
    let times = this.byAppointment.get(appointmentId);
    if (!times) this.byAppointment.set(appointmentId, (times = []));
    this.target = times;
  }

  /** How many occurrences the current target holds. */
  get size(): number {
    return this.target.length;
  }

  truncate(size: number): void {
    this.total -= this.target.length - size;
    this.target.length = size;
  }

  add(start: Instant, end: Instant): void {
    if (end <= start || end <= this.window.start || start >= this.window.end) return;
    if (this.total >= this.maxIntervals) {
      throw new BusyLimitExceeded(`the calendar has more than ${this.maxIntervals} busy occurrences in the window`);
    }
    this.total += 1;
    this.target.push({ start: Math.max(start, this.window.start), end: Math.min(end, this.window.end) });
  }

  merged(): Interval[] {
    return merge(this.intervals);
  }

  ofAppointments(): AppointmentBusy[] {
    return [...this.byAppointment]
      .filter(([, times]) => times.length > 0)
      .map(([appointmentId, times]) => ({ appointmentId, intervals: merge(times) }));
  }
}
