// The zones of an iCalendar file: each TZID read as an IANA zone (through Temporal) where it names
// one, else through the file's own VTIMEZONE definition, else as the holder's zone.
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { DAY_MS, type Instant } from './instant.js';
import type { Interval } from './intervals.js';
import {
  BusyLimitExceeded,
  forEachOccurrence,
  jcalDate,
  untilWall,
  WALL_SLACK_MS,
  type RecurrenceBudget,
  type Wall,
  type WallSpan,
} from './ical-recurrence.js';
import { ianaZoneOfWindowsName } from './windows-zones.js';
import { canonicalTimeZone } from './zone.js';

/** Wall-clock time ↔ instant in one zone. */
export interface Clock {
  /**
   * RFC 5545 §3.3.5: a wall time that a transition skips is read with the offset in force before
   * it (02:30 on a spring-forward night in Berlin is 03:30), a repeated one as its first occurrence.
   */
  toInstant(wall: Wall): Instant;
  toWall(instant: Instant): Wall;
}

export const UTC_CLOCK: Clock = { toInstant: (wall) => wall, toWall: (instant) => instant };

/**
 * A zone's offsets as a list of transitions: `offsets[i]` is in force from `changes[i - 1]` (or
 * from ever before) until `changes[i]` (or for ever after).
 */
class TransitionTable implements Clock {
  constructor(
    private readonly changes: readonly Instant[],
    private readonly offsets: readonly number[],
  ) {}

  /** Which offset is in force at `instant`: how many changes happened at or before it. */
  private segment(instant: Instant): number {
    let low = 0;
    let high = this.changes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.changes[middle]! <= instant) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  toWall(instant: Instant): Wall {
    return instant + this.offsets[this.segment(instant)]!;
  }

  toInstant(wall: Wall): Instant {
    // The instant lies within an offset of the wall time, so only the offsets in force around it can apply.
    const first = this.segment(wall - WALL_SLACK_MS);
    const last = this.segment(wall + WALL_SLACK_MS);
    if (first === last) return wall - this.offsets[first]!;
    let earliest: Instant | undefined;
    for (let i = first; i <= last; i++) {
      const candidate = wall - this.offsets[i]!;
      if (this.segment(candidate) === i && (earliest === undefined || candidate < earliest)) earliest = candidate;
    }
    if (earliest !== undefined) return earliest;
    // No offset reads it: the wall time lies in the gap a change opens, [change + before, change + after).
    for (let i = first; i < last; i++) {
      const change = this.changes[i]!;
      if (wall >= change + this.offsets[i]! && wall < change + this.offsets[i + 1]!) return wall - this.offsets[i]!;
    }
    return wall - this.offsets[first]!;
  }
}

/**
 * An IANA zone through Temporal. Its transitions around the window are read once (a few per year);
 * conversions there are table look-ups, and the rare ones elsewhere ask Temporal directly, whose
 * `compatible` disambiguation is RFC 5545's.
 */
class IanaClock implements Clock {
  private readonly table: TransitionTable;
  private readonly from: Instant;
  private readonly to: Instant;

  constructor(
    private readonly zone: string,
    window: Interval,
  ) {
    this.from = window.start - 2 * WALL_SLACK_MS;
    this.to = window.end + 2 * WALL_SLACK_MS;
    let zoned = Temporal.Instant.fromEpochMilliseconds(this.from).toZonedDateTimeISO(zone);
    const changes: Instant[] = [];
    const offsets = [zoned.offsetNanoseconds / 1e6];
    for (;;) {
      const next = zoned.getTimeZoneTransition('next');
      if (next === null || next.epochMilliseconds > this.to) break;
      changes.push(next.epochMilliseconds);
      offsets.push(next.offsetNanoseconds / 1e6);
      zoned = next;
    }
    this.table = new TransitionTable(changes, offsets);
  }

  toInstant(wall: Wall): Instant {
    if (wall - WALL_SLACK_MS >= this.from && wall + WALL_SLACK_MS <= this.to) return this.table.toInstant(wall);
    const date = new Date(wall);
    return new Temporal.PlainDateTime(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ).toZonedDateTime(this.zone, { disambiguation: 'compatible' }).epochMilliseconds;
  }

  toWall(instant: Instant): Wall {
    if (instant >= this.from && instant <= this.to) return this.table.toWall(instant);
    return (
      instant + Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(this.zone).offsetNanoseconds / 1e6
    );
  }
}

/** How far around the window a VTIMEZONE's own rules are laid out; beyond, its offsets are held. */
const DEFINITION_YEARS_BEFORE = 25;
const DEFINITION_YEARS_AFTER = 2;
const YEAR_MS = 366 * DAY_MS;

/** The UTC offset a TZOFFSETFROM or TZOFFSETTO gives, in milliseconds. */
function offsetOf(observance: ICAL.Component, name: string): number | undefined {
  const value = observance.getFirstPropertyValue(name);
  if (!(value instanceof ICAL.UtcOffset)) return undefined;
  const ms = value.toSeconds() * 1_000;
  return Number.isFinite(ms) && Math.abs(ms) < WALL_SLACK_MS ? ms : undefined;
}

/** An observance's onset: a local date-time (in the offset before it). */
function localWall(raw: unknown): Wall | undefined {
  const value = jcalDate(raw);
  return value !== undefined && !value.isDate && !value.utc ? value.wall : undefined;
}

/**
 * A VTIMEZONE read by expanding its observances (STANDARD and DAYLIGHT: an onset in local time of
 * the offset before, an RRULE or RDATEs, TZOFFSETFROM and TZOFFSETTO) with the same bounded
 * ical.js expansion as events, into a transition table. Not ICAL.Timezone: it lays out every year
 * from the definition's DTSTART (1601 in Outlook's) on first use, about a tenth of a second per
 * zone, and reads a skipped wall time with the offset after the gap, against RFC 5545.
 * Undefined when the definition is unusable.
 */
function definedZone(definition: ICAL.Component, window: Interval, budget: RecurrenceBudget) {
  const span: WallSpan = {
    from: window.start - DEFINITION_YEARS_BEFORE * YEAR_MS,
    to: window.end + DEFINITION_YEARS_AFTER * YEAR_MS,
  };
  const onsets: { at: Instant; before: number; after: number }[] = [];
  // Zones without transitions in the span (no DST) hold the offset of their latest observance.
  let latest: { start: Wall; after: number } | undefined;
  for (const observance of definition.getAllSubcomponents()) {
    if (observance.name !== 'standard' && observance.name !== 'daylight') continue;
    const before = offsetOf(observance, 'tzoffsetfrom');
    const after = offsetOf(observance, 'tzoffsetto');
    const start = localWall(observance.getFirstProperty('dtstart')?.jCal[3]);
    if (before === undefined || after === undefined || start === undefined) return undefined;
    if (start <= span.to && (latest === undefined || start > latest.start)) latest = { start, after };
    const onset = (wall: Wall) => {
      if (wall >= span.from && wall <= span.to) onsets.push({ at: wall - before, before, after });
    };
    onset(start);
    for (const property of observance.getAllProperties('rrule')) {
      const rule = property.getFirstValue() as ICAL.Recur;
      const until = untilWall(rule, false, (instant) => instant + before);
      forEachOccurrence(rule, start, false, until, span, budget, onset);
    }
    for (const property of observance.getAllProperties('rdate')) {
      for (const raw of property.jCal.slice(3)) {
        const wall = localWall(raw);
        if (wall !== undefined) onset(wall);
      }
    }
  }
  if (onsets.length === 0) return latest && new TransitionTable([], [latest.after]);
  onsets.sort((a, b) => a.at - b.at);
  // DTSTART is an onset of its own and usually also the rule's first occurrence.
  const distinct = onsets.filter((onset, i) => i === 0 || onset.at !== onsets[i - 1]!.at);
  return new TransitionTable(
    distinct.map((onset) => onset.at),
    [distinct[0]!.before, ...distinct.map((onset) => onset.after)],
  );
}

/**
 * The IANA zone a TZID names: an IANA name (Google, Apple and most servers write these), a
 * Windows name (Outlook, Exchange), or an IANA name behind a path prefix
 * (`/mozilla.org/20050126_1/Europe/Berlin`, `/freeassociation.sourceforge.net/Tzfile/…`).
 */
export function ianaZoneOfTzid(tzid: string): string | undefined {
  const name = tzid.trim();
  const named = canonicalTimeZone(name) ?? ianaZoneOfWindowsName(name);
  if (named !== undefined || !name.startsWith('/')) return named;
  for (let slash = name.indexOf('/', 1); slash !== -1; slash = name.indexOf('/', slash + 1)) {
    const zone = canonicalTimeZone(name.slice(slash + 1));
    if (zone !== undefined) return zone;
  }
  return undefined;
}

/**
 * The clocks of one calendar, each made once. A TZID is read, in order:
 * 1. as the IANA zone it names (ianaZoneOfTzid), even when the file defines it in a VTIMEZONE:
 *    the zone database knows the zone's future rule changes and its whole history, where an
 *    exported VTIMEZONE often carries only the rule current when it was written (Google's, and
 *    Outlook's for its Windows names), and a name such as Europe/Berlin means that zone;
 * 2. else through the file's VTIMEZONE of that TZID (Outlook's "Customized Time Zone" and the
 *    like), laid out DEFINITION_YEARS_BEFORE years before the window to DEFINITION_YEARS_AFTER
 *    after it;
 * 3. else (an unknown TZID without a definition, or an unusable definition) in the default zone,
 *    like a floating time.
 */
export class Clocks {
  private readonly byTzid = new Map<string, Clock>();
  private readonly byZone = new Map<string, Clock>();
  /** The default zone's clock: floating times and all-day dates. */
  readonly floating: Clock;

  constructor(
    private readonly definitions: ReadonlyMap<string, ICAL.Component>,
    defaultZone: string,
    private readonly window: Interval,
    private readonly budget: RecurrenceBudget,
  ) {
    this.floating = this.iana(defaultZone);
  }

  of(tzid: string): Clock {
    let clock = this.byTzid.get(tzid);
    if (clock === undefined) {
      clock = this.resolve(tzid);
      this.byTzid.set(tzid, clock);
    }
    return clock;
  }

  private resolve(tzid: string): Clock {
    const zone = ianaZoneOfTzid(tzid);
    if (zone !== undefined) return this.iana(zone);
    const definition = this.definitions.get(tzid);
    if (definition === undefined) return this.floating;
    try {
      return definedZone(definition, this.window, this.budget) ?? this.floating;
    } catch (error) {
      if (error instanceof BusyLimitExceeded) throw error;
      return this.floating; // ical.js refused one of its observances' rules
    }
  }

  private iana(zone: string): Clock {
    let clock = this.byZone.get(zone);
    if (clock === undefined) {
      clock = new IanaClock(zone, this.window);
      this.byZone.set(zone, clock);
    }
    return clock;
  }
}
