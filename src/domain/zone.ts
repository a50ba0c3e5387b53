import { Temporal } from 'temporal-polyfill';
import { DAY_MS, MINUTE_MS, type Instant } from './instant.js';

/**
 * A local calendar day as a whole number of days since 1970-01-01. Pure calendar arithmetic on
 * it (weekday, next day, ISO text) needs no time zone; only the day's instants do.
 */
export type EpochDay = number;

export function epochDayFromIsoDate(date: string): EpochDay | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return undefined;
  }
  return ms / DAY_MS;
}

export function isoDateFromEpochDay(day: EpochDay): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday). */
export function weekdayIndex(day: EpochDay): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** Resolves an IANA zone name to its canonical spelling, or undefined when it is not one. */
export function canonicalTimeZone(name: string): string | undefined {
  // Temporal also accepts bare UTC offsets (`+01:00`) as zones; an availability needs a named zone
  // so that its future DST rules are known.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return undefined;
  try {
    return Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(name).timeZoneId;
  } catch {
    return undefined;
  }
}

interface DayFacts {
  /** First instant of the local day. */
  start: Instant;
  /** First instant of the next local day. */
  nextStart: Instant;
  /**
   * True when the day begins at wall-clock 00:00 and no offset change happens before it ends, so
   * a wall-clock minute m of the day is exactly `start + m minutes`. Only days with a transition
   * (two or so a year) go back to the zone library per edge.
   */
  uniform: boolean;
}

/** Local days whose facts a zone keeps by default: eleven years of them. */
export const DEFAULT_DAYS_PER_ZONE = 4_096;

/**
 * Wall-clock ↔ instant conversions for one IANA zone, asking the zone library once per local day
 * (and per interval edge on the rare days with a transition). Results are memoised: zone rules
 * do not change while the process runs.
 */
export class Zone {
  private readonly days = new Map<EpochDay, DayFacts>();
  private readonly irregularEdges = new Map<string, Instant>();

  /**
   * `id` must be a canonical zone id (see canonicalTimeZone). At most `maxDays` days are kept
   * (with the transition days' edges); past that the zone starts afresh.
   */
  constructor(
    readonly id: string,
    private readonly maxDays = DEFAULT_DAYS_PER_ZONE,
  ) {}

  /** Days whose facts are kept now (at most `maxDays`). */
  get cachedDays(): number {
    return this.days.size;
  }

  /** Instant of wall-clock `minuteOfDay` (0…1440) on `day`: gaps move forward, repeats take the earlier offset. */
  wallToInstant(day: EpochDay, minuteOfDay: number): Instant {
    if (minuteOfDay >= 1440) return this.dayFacts(day + 1).start + (minuteOfDay - 1440) * MINUTE_MS;
    const facts = this.dayFacts(day);
    if (facts.uniform || minuteOfDay === 0) return facts.start + minuteOfDay * MINUTE_MS;
    const key = `${day}:${minuteOfDay}`;
    let instant = this.irregularEdges.get(key);
    if (instant === undefined) {
      instant = plainDate(day)
        .toPlainDateTime({ hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60 })
        .toZonedDateTime(this.id, { disambiguation: 'compatible' }).epochMilliseconds;
      // Edges are asked for on transition days only, a few per day: bounded as the days are.
      if (this.irregularEdges.size >= this.maxDays) this.irregularEdges.clear();
      this.irregularEdges.set(key, instant);
    }
    return instant;
  }

  /** The local calendar day an instant falls on. */
  dayOf(instant: Instant): EpochDay {
    // Offsets stay within ±26 h, so the UTC day is at most two days off.
    let day = Math.floor(instant / DAY_MS);
    while (instant < this.dayFacts(day).start) day -= 1;
    while (instant >= this.dayFacts(day).nextStart) day += 1;
    return day;
  }

  startOfDay(day: EpochDay): Instant {
    return this.dayFacts(day).start;
  }

  /** UTC offset in milliseconds in force at `instant`. */
  offsetMsAt(instant: Instant): number {
    const day = this.dayOf(instant);
    const facts = this.dayFacts(day);
    // A uniform day starts at wall 00:00, so its offset is how far that instant is from UTC midnight of the same date.
    if (facts.uniform) return day * DAY_MS - facts.start;
    return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(this.id).offsetNanoseconds / 1e6;
  }

  private dayFacts(day: EpochDay): DayFacts {
    let facts = this.days.get(day);
    if (facts) return facts;
    if (this.days.size >= this.maxDays) {
      this.days.clear();
      this.irregularEdges.clear();
    }
    const startZoned = plainDate(day).toZonedDateTime({ timeZone: this.id });
    const nextStart = plainDate(day + 1).toZonedDateTime({ timeZone: this.id }).epochMilliseconds;
    const start = startZoned.epochMilliseconds;
    const transition = startZoned.getTimeZoneTransition('next');
    const uniform =
      startZoned.hour === 0 &&
      startZoned.minute === 0 &&
      (transition === null || transition.epochMilliseconds >= nextStart);
    facts = { start, nextStart, uniform };
    this.days.set(day, facts);
    return facts;
  }
}

function plainDate(day: EpochDay): Temporal.PlainDate {
  const date = new Date(day * DAY_MS);
  return new Temporal.PlainDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/**
 * The zones of a process, each made once so that what it learnt about its days is reused by
 * every calendar and answer in it (built by the composition root; see `Zone`). Bounded overall:
 * at most `maxZones` zones of at most `daysPerZone` days each, the least recently used zone let
 * go first, so no mix of zones and ranges a client asks for grows the heap past
 * `maxZones × daysPerZone` day facts (about 100 bytes each: ~26 MB by default).
 */
export class Zones {
  private readonly zones = new Map<string, Zone>();

  constructor(
    private readonly maxZones = 64,
    private readonly daysPerZone = DEFAULT_DAYS_PER_ZONE,
  ) {}

  /** `id` must be a canonical zone id (see canonicalTimeZone). */
  of(id: string): Zone {
    let zone = this.zones.get(id);
    if (zone) {
      // Most recently used last: a Map iterates in insertion order.
      this.zones.delete(id);
      this.zones.set(id, zone);
      return zone;
    }
    if (this.zones.size >= this.maxZones) this.zones.delete(this.zones.keys().next().value!);
    zone = new Zone(id, this.daysPerZone);
    this.zones.set(id, zone);
    return zone;
  }

  /** Zones kept now (at most `maxZones`). */
  get size(): number {
    return this.zones.size;
  }
}
