// Random scenarios for the slot-engine properties and an independent reference reading of
// contract §5. The reference converts with Temporal directly (never through src/domain/zone.ts),
// so it judges the engine independently of its zone cache.
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import {
  compileAvailability,
  normalizeAvailability,
  WEEKDAYS,
  type Availability,
  type TimeInterval,
  type Weekday,
} from '../../src/domain/availability.js';
import type { Occupancy, SlotContext, SlotPolicy } from '../../src/domain/slots.js';
import { Zones } from '../../src/domain/zone.js';

const zones = new Zones();

export const MIN = 60_000;
export const DAY = 86_400_000;

/**
 * The zones under test with their 2026–2027 transitions: local date and the wall minute where the
 * clock jumps (a gap opens or an hour repeats there). Zones without DST get ordinary anchor dates.
 */
export const ZONES: Record<string, ReadonlyArray<readonly [string, number]>> = {
  // 02:00 → 03:00 in March, 03:00 → 02:00 in October.
  'Europe/Berlin': [
    ['2026-03-29', 120],
    ['2026-10-25', 120],
    ['2027-03-28', 120],
    ['2027-10-31', 120],
  ],
  // 02:00 → 03:00 in March, 02:00 → 01:00 in November.
  'America/New_York': [
    ['2026-03-08', 120],
    ['2026-11-01', 60],
    ['2027-03-14', 120],
    ['2027-11-07', 60],
  ],
  // 03:00 → 02:00 in April, 02:00 → 03:00 in October.
  'Australia/Adelaide': [
    ['2026-04-05', 120],
    ['2026-10-04', 120],
    ['2027-04-04', 120],
    ['2027-10-03', 120],
  ],
  // 02:00 → 01:30 in April, 02:00 → 02:30 in October: clock changes of half an hour.
  'Australia/Lord_Howe': [
    ['2026-04-05', 120],
    ['2026-10-04', 120],
    ['2027-04-04', 120],
    ['2027-10-03', 120],
  ],
  // 03:45 → 02:45 in April, 02:45 → 03:45 in September.
  'Pacific/Chatham': [
    ['2026-04-05', 165],
    ['2026-09-27', 165],
    ['2027-04-04', 165],
    ['2027-09-26', 165],
  ],
  // 24:00 → 23:00 on a Saturday in April, 00:00 → 01:00 on a Sunday in September.
  'America/Santiago': [
    ['2026-04-04', 1380],
    ['2026-09-06', 0],
    ['2027-04-03', 1380],
    ['2027-09-05', 0],
  ],
  'Asia/Kolkata': [
    ['2026-03-29', 120],
    ['2026-11-01', 60],
  ],
  'Asia/Tehran': [
    ['2026-03-21', 0],
    ['2026-09-22', 1380],
  ],
  UTC: [
    ['2026-10-25', 120],
    ['2027-03-14', 120],
  ],
};

// ---------------------------------------------------------------------------------------------
// Generators

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (minute: number) => `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;

/** Where interval edges fall: anywhere in the day, or clustered around the clock change at `hot`. */
export interface EdgeBias {
  hot: number;
  clustered: boolean;
}

const clamp = (minute: number) => Math.min(1440, Math.max(0, minute));

/** A wall-clock minute 0…1440, biased to quarter hours and to the hours around the clock change. */
const wallMinute = ({ hot, clustered }: EdgeBias) =>
  clustered
    ? fc.oneof(
        fc.integer({ min: -4, max: 8 }).map((n) => clamp(hot + n * 15)),
        fc.integer({ min: -12, max: 24 }).map((n) => clamp(hot + n * 5)),
        fc.integer({ min: -90, max: 150 }).map((d) => clamp(hot + d)),
      )
    : fc.oneof(
        fc.integer({ min: 0, max: 96 }).map((q) => q * 15),
        fc.integer({ min: -6, max: 10 }).map((q) => clamp(hot + q * 15)),
        fc.integer({ min: 0, max: 1440 }),
      );

/** Valid intervals of one day: sorted cut points paired up, so they never overlap but may touch. */
const intervalCount = fc.oneof(
  { arbitrary: fc.constant(0), weight: 1 },
  { arbitrary: fc.constant(1), weight: 3 },
  { arbitrary: fc.constant(2), weight: 3 },
  { arbitrary: fc.constant(3), weight: 1 },
);

export const dayIntervals = (
  bias: EdgeBias,
  count: fc.Arbitrary<number> = intervalCount,
): fc.Arbitrary<TimeInterval[]> =>
  count
    .chain((count) => fc.array(wallMinute(bias), { minLength: 2 * count, maxLength: 2 * count }))
    .map((points) => {
      const sorted = [...points].sort((x, y) => x - y);
      const intervals: TimeInterval[] = [];
      for (let i = 0; i + 1 < sorted.length; i += 2) {
        const start = sorted[i]!;
        const end = sorted[i + 1]!;
        if (start < end) intervals.push({ start: hhmm(start), end: hhmm(end) });
      }
      return intervals;
    })
    // Clients may send intervals in any order.
    .chain((intervals) => fc.shuffledSubarray(intervals, { minLength: intervals.length, maxLength: intervals.length }));

export const weekly = (bias: EdgeBias): fc.Arbitrary<Record<Weekday, TimeInterval[]>> =>
  fc.record({
    monday: dayIntervals(bias),
    tuesday: dayIntervals(bias),
    wednesday: dayIntervals(bias),
    thursday: dayIntervals(bias),
    friday: dayIntervals(bias),
    saturday: dayIntervals(bias),
    sunday: dayIntervals(bias),
  });

const multipleOf5 = (min: number, max: number) => fc.integer({ min: min / 5, max: max / 5 }).map((n) => n * 5);

export const slotPolicy: fc.Arbitrary<SlotPolicy> = fc
  .record({
    durationMinutes: fc.oneof(
      { arbitrary: fc.constantFrom(5, 10, 15, 20, 30, 45, 60), weight: 3 },
      { arbitrary: multipleOf5(5, 480), weight: 1 },
    ),
    explicitInterval: fc.option(multipleOf5(5, 120)),
    bufferBeforeMinutes: fc.oneof(fc.constant(0), multipleOf5(0, 60)),
    bufferAfterMinutes: fc.oneof(fc.constant(0), multipleOf5(0, 60)),
    minimumNoticeMinutes: fc.oneof(
      { arbitrary: fc.constant(0), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: 240 }), weight: 2 },
      { arbitrary: fc.integer({ min: 0, max: 3 * 1440 }), weight: 1 },
    ),
    bookingWindowDays: fc.oneof(
      { arbitrary: fc.constant(null), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: 40 }), weight: 1 },
    ),
    maxBookingsPerDay: fc.option(fc.integer({ min: 1, max: 3 })),
  })
  .map(({ explicitInterval, ...rest }) => ({ ...rest, slotIntervalMinutes: explicitInterval ?? rest.durationMinutes }));

const NO_DST = new Set(['Asia/Kolkata', 'Asia/Tehran', 'UTC']);

export interface Scenario {
  doc: Availability;
  policy: SlotPolicy;
  bookings: Occupancy[];
  from: number;
  to: number;
  now: number;
}

export const EVENT_TYPE = 'evt_a';

const zoneAndTransition = fc
  .constantFrom(...Object.keys(ZONES))
  .chain((zone) => fc.constantFrom(...ZONES[zone]!).map(([anchor, hot]) => ({ zone, anchor, hot })))
  .chain((t) => fc.boolean().map((clustered) => ({ ...t, bias: { hot: t.hot, clustered } })));

const broadScenario: fc.Arbitrary<Scenario> = zoneAndTransition
  .chain(({ zone, anchor, bias }) =>
    fc.record({
      zone: fc.constant(zone),
      anchor: fc.constant(anchor),
      weekly: weekly(bias),
      overrides: fc.uniqueArray(
        fc.record({
          // Often on the transition date itself.
          dayOffset: fc.oneof(fc.constant(0), fc.integer({ min: -12, max: 64 })),
          intervals: dayIntervals(bias),
        }),
        { maxLength: 4, selector: (o) => o.dayOffset },
      ),
      policy: slotPolicy,
      // Mostly a few days that include the transition (fast); sometimes anything up to the 62-day maximum.
      fromOffset: fc.oneof(
        { arbitrary: fc.integer({ min: -3 * DAY, max: DAY / 2 }), weight: 4 },
        { arbitrary: fc.integer({ min: -40 * DAY, max: 2 * DAY }), weight: 1 },
      ),
      length: fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 4 * DAY }), weight: 1 },
        { arbitrary: fc.integer({ min: 3_600_000, max: 4 * DAY }), weight: 3 },
        { arbitrary: fc.integer({ min: 1, max: 62 * DAY }), weight: 1 },
      ),
      // Whole minutes mostly; any millisecond sometimes.
      minuteAligned: fc.boolean(),
      // `now` mostly before the range (everything open), sometimes inside or after it.
      nowOffset: fc.oneof(
        { arbitrary: fc.integer({ min: -7 * DAY, max: 0 }), weight: 3 },
        { arbitrary: fc.integer({ min: -5 * DAY, max: 10 * DAY }), weight: 1 },
      ),
      bookings: fc.array(
        fc.record({
          eventTypeId: fc.constantFrom(EVENT_TYPE, EVENT_TYPE, 'evt_other'),
          position: fc.integer({ min: 0, max: 10_000 }),
          durationMinutes: multipleOf5(5, 240),
          bufferBeforeMinutes: fc.constantFrom(0, 0, 10, 30),
          bufferAfterMinutes: fc.constantFrom(0, 0, 15, 45),
        }),
        { maxLength: 10 },
      ),
    }),
  )
  .map((r) => {
    const anchorMs = Date.parse(`${r.anchor}T00:00:00Z`);
    const align = (t: number) => (r.minuteAligned ? Math.floor(t / MIN) * MIN : t);
    const from = align(anchorMs + r.fromOffset);
    const to = Math.max(from + 1, align(from + r.length));
    const now = align(from + r.nowOffset);
    const anchorDate = Temporal.PlainDate.from(r.anchor);
    const doc: Availability = {
      timeZone: r.zone,
      weekly: r.weekly,
      overrides: r.overrides.map((o) => ({
        date: anchorDate.add({ days: o.dayOffset }).toString(),
        intervals: o.intervals,
      })),
    };
    // Bookings spread over the range and two days either side of it.
    const span = to - from + 4 * DAY;
    const bookings = r.bookings.map((b): Occupancy => {
      const start = Math.floor((from - 2 * DAY + (span * b.position) / 10_000) / MIN) * MIN;
      return {
        eventTypeId: b.eventTypeId,
        start,
        occupiedStart: start - b.bufferBeforeMinutes * MIN,
        occupiedEnd: start + (b.durationMinutes + b.bufferAfterMinutes) * MIN,
      };
    });
    return { doc, policy: r.policy, bookings, from, to, now };
  });

/**
 * Two intervals on either side of the clock change at `hot`: the first ends within the hour after
 * it (inside a spring-forward gap), the second starts in the hour after that.
 */
const straddlingPair = (hot: number): fc.Arbitrary<TimeInterval[]> =>
  fc
    .record({
      start1: fc.integer({ min: -24, max: -1 }),
      end1: fc.integer({ min: 1, max: 11 }),
      start2: fc.integer({ min: 12, max: 23 }),
      end2: fc.integer({ min: 24, max: 48 }),
    })
    .map(({ start1, end1, start2, end2 }) =>
      [
        [clamp(hot + start1 * 5), clamp(hot + end1 * 5)],
        [clamp(hot + start2 * 5), clamp(hot + end2 * 5)],
      ]
        .filter(([start, end]) => start! < end!)
        .map(([start, end]) => ({ start: hhmm(start!), end: hhmm(end!) })),
    );

/**
 * The local date of a clock change with two or three intervals crowded around it (edges in the gap,
 * in the repeated hour, just after), short events, nothing else in the way: the hardest case for
 * turning wall-clock intervals into instants.
 */
const transitionDayScenario: fc.Arbitrary<Scenario> = fc
  .constantFrom(...Object.keys(ZONES).filter((zone) => !NO_DST.has(zone)))
  .chain((zone) => fc.constantFrom(...ZONES[zone]!).map(([anchor, hot]) => ({ zone, anchor, hot })))
  .chain(({ zone, anchor, hot }) =>
    fc
      .record({
        weekly: weekly({ hot, clustered: false }),
        intervals: fc.oneof(
          dayIntervals({ hot, clustered: true }, fc.integer({ min: 2, max: 3 })),
          straddlingPair(hot),
        ),
        durationMinutes: fc.constantFrom(5, 10, 15, 20, 30, 45, 60),
        explicitInterval: fc.option(multipleOf5(5, 60)),
      })
      .map(({ weekly: week, intervals, durationMinutes, explicitInterval }): Scenario => {
        const anchorMs = Date.parse(`${anchor}T00:00:00Z`);
        return {
          doc: { timeZone: zone, weekly: week, overrides: [{ date: anchor, intervals }] },
          policy: {
            durationMinutes,
            slotIntervalMinutes: explicitInterval ?? durationMinutes,
            bufferBeforeMinutes: 0,
            bufferAfterMinutes: 0,
            minimumNoticeMinutes: 0,
            bookingWindowDays: null,
            maxBookingsPerDay: null,
          },
          bookings: [],
          from: anchorMs - DAY,
          to: anchorMs + 2 * DAY,
          now: anchorMs - 30 * DAY,
        };
      }),
  );

export const scenario: fc.Arbitrary<Scenario> = fc.oneof(
  { arbitrary: broadScenario, weight: 3 },
  { arbitrary: transitionDayScenario, weight: 1 },
);

export function contextOf(s: Scenario): SlotContext {
  const normalized = normalizeAvailability(s.doc);
  if (!normalized.ok) throw new Error(`generated availability must validate: ${JSON.stringify(normalized.errors)}`);
  return {
    availability: compileAvailability(normalized.value, zones.of(normalized.value.timeZone)),
    eventTypeId: EVENT_TYPE,
    policy: s.policy,
    bookings: s.bookings,
    now: s.now,
  };
}

// ---------------------------------------------------------------------------------------------
// Independent reference: contract §5 read literally, with Temporal doing every zone conversion.

interface LocalDay {
  date: Temporal.PlainDate;
  start: number;
  nextStart: number;
}

export class Reference {
  readonly zone: string;
  private readonly days: LocalDay[] = [];
  private readonly rangeCache = new Map<string, Array<[number, number]>>();

  constructor(readonly s: Scenario) {
    this.zone = s.doc.timeZone;
    // Every local date that can hold a start in [from, to), with a day of margin on each side.
    let date = Temporal.Instant.fromEpochMilliseconds(s.from - 2 * DAY)
      .toZonedDateTimeISO(this.zone)
      .toPlainDate();
    const last = Temporal.Instant.fromEpochMilliseconds(s.to + 2 * DAY)
      .toZonedDateTimeISO(this.zone)
      .toPlainDate();
    while (Temporal.PlainDate.compare(date, last) <= 0) {
      const next = date.add({ days: 1 });
      this.days.push({
        date,
        start: date.toZonedDateTime({ timeZone: this.zone }).epochMilliseconds,
        nextStart: next.toZonedDateTime({ timeZone: this.zone }).epochMilliseconds,
      });
      date = next;
    }
  }

  /** The local date of an instant (instants are assumed inside the prepared span). */
  localDate(instant: number): Temporal.PlainDate {
    let lo = 0;
    let hi = this.days.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.days[mid]!.start <= instant) lo = mid;
      else hi = mid - 1;
    }
    const day = this.days[lo]!;
    if (instant < day.start || instant >= day.nextStart) throw new Error('instant outside the reference span');
    return day.date;
  }

  /** The intervals of a local date (override or weekly), touching ones merged, as instants. */
  ranges(date: Temporal.PlainDate): Array<[number, number]> {
    const iso = date.toString();
    const cached = this.rangeCache.get(iso);
    if (cached) return cached;
    const override = this.s.doc.overrides.find((o) => o.date === iso);
    const weekday = WEEKDAYS[date.dayOfWeek - 1]!;
    const intervals = override ? override.intervals : this.s.doc.weekly[weekday];
    const minutes = intervals
      .map((i) => [toMinute(i.start), toMinute(i.end)] as [number, number])
      .sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [start, end] of minutes) {
      const last = merged[merged.length - 1];
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else merged.push([start, end]);
    }
    const ranges = merged.map(([start, end]): [number, number] => [this.wall(date, start), this.wall(date, end)]);
    this.rangeCache.set(iso, ranges);
    return ranges;
  }

  /** Wall minute of a date → instant: gaps move forward, repeats take the earlier offset. */
  private wall(date: Temporal.PlainDate, minute: number): number {
    const day = minute === 1440 ? date.add({ days: 1 }) : date;
    const m = minute % 1440;
    return day
      .toPlainDateTime({ hour: Math.floor(m / 60), minute: m % 60 })
      .toZonedDateTime(this.zone, { disambiguation: 'compatible' }).epochMilliseconds;
  }

  /** Every grid start in [from, to) (bookable or not), deduplicated and ascending. */
  gridStarts(): number[] {
    const { policy, from, to } = this.s;
    const step = policy.slotIntervalMinutes * MIN;
    const duration = policy.durationMinutes * MIN;
    const found = new Set<number>();
    for (const day of this.days) {
      for (const [rangeStart, rangeEnd] of this.ranges(day.date)) {
        for (let start = rangeStart; start + duration <= rangeEnd; start += step) {
          if (start >= from && start < to) found.add(start);
        }
      }
    }
    return [...found].sort((a, b) => a - b);
  }

  onGrid(start: number): boolean {
    const step = this.s.policy.slotIntervalMinutes * MIN;
    const duration = this.s.policy.durationMinutes * MIN;
    return this.ranges(this.localDate(start)).some(
      ([rangeStart, rangeEnd]) =>
        start >= rangeStart && (start - rangeStart) % step === 0 && start + duration <= rangeEnd,
    );
  }

  ownBookingsOn(date: Temporal.PlainDate): number {
    return this.s.bookings.filter((b) => b.eventTypeId === EVENT_TYPE && this.localDate(b.start).equals(date)).length;
  }

  overlapsBooking(start: number): boolean {
    const p = this.s.policy;
    const occupiedStart = start - p.bufferBeforeMinutes * MIN;
    const occupiedEnd = start + (p.durationMinutes + p.bufferAfterMinutes) * MIN;
    return this.s.bookings.some((b) => occupiedStart < b.occupiedEnd && b.occupiedStart < occupiedEnd);
  }

  bookable(start: number): boolean {
    const p = this.s.policy;
    if (!this.onGrid(start)) return false;
    if (start < this.s.now + p.minimumNoticeMinutes * MIN) return false;
    if (p.bookingWindowDays !== null && start >= this.s.now + p.bookingWindowDays * DAY) return false;
    if (p.maxBookingsPerDay !== null && this.ownBookingsOn(this.localDate(start)) >= p.maxBookingsPerDay) return false;
    return !this.overlapsBooking(start);
  }
}

function toMinute(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** Up to `n` elements spread evenly over `items` (keeps the long-range runs fast). */
export function sample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}
