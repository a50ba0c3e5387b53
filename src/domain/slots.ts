import { rangesOn, type CompiledAvailability } from './availability.js';
import { DAY_MS, MINUTE_MS, type Instant } from './instant.js';
import { firstAtOrAfter, intersect, merge, OverlapCursor, subtract, type Interval } from './intervals.js';
import type { EpochDay, Zone } from './zone.js';

/** The parts of an event type that decide where it can be booked. */
export interface SlotPolicy {
  durationMinutes: number;
  slotIntervalMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minimumNoticeMinutes: number;
  bookingWindowDays: number | null;
  maxBookingsPerDay: number | null;
  /**
   * Guests one occurrence takes (contract §15): a start where an occurrence of the event type
   * already is stays bookable while it has seats left, whatever else the rules say but the clock.
   * Null or absent: one guest, every start its own booking.
   */
  seats?: number | null;
}

/** What occupies time as the engine sees it (a confirmed booking or a live hold): its start and the time it blocks, buffers included. */
export interface Occupancy {
  eventTypeId: string;
  start: Instant;
  occupiedStart: Instant;
  occupiedEnd: Instant;
  /**
   * An occurrence of a seated event type (contract §15): how many seats (confirmed bookings and
   * live holds) it has; they occupy its time together. Absent for what is not seated.
   */
  seats?: number;
}

/** What decides an event type's slots apart from the clock. */
export interface StandingSlotContext {
  availability: CompiledAvailability;
  eventTypeId: string;
  policy: SlotPolicy;
  /** The holder's occupancies (confirmed bookings and live holds, every event type) that overlap `occupancyWindow(from, to)`. */
  bookings: readonly Occupancy[];
  /**
   * Busy time from the holder's calendar sources (contract §11), in any order, overlapping or
   * not; at least those overlapping `occupancyWindow(from, to)`. None when absent.
   */
  busy?: readonly Interval[];
}

export interface SlotContext extends StandingSlotContext {
  now: Instant;
}

export type UnbookableReason =
  | 'outside-availability'
  | 'before-minimum-notice'
  | 'beyond-booking-window'
  | 'daily-limit-reached'
  | 'overlaps-booking'
  | 'overlaps-busy-time'
  | 'no-seats-left';

export const UNBOOKABLE_DETAIL: Record<UnbookableReason, string> = {
  'outside-availability':
    'The start is not a slot of the availability for this event type (outside the open hours or off the slot grid).',
  'before-minimum-notice': 'The start is in the past or closer to now than the minimum notice of the event type.',
  'beyond-booking-window': 'The start lies beyond the booking window of the event type.',
  'daily-limit-reached': 'The event type already has its maximum number of bookings on that day.',
  'overlaps-booking': 'The time, with buffers, overlaps another confirmed booking.',
  'overlaps-busy-time': "The time, with buffers, overlaps busy time in the holder's own calendar.",
  'no-seats-left': 'Every seat at this start is taken.',
};

/**
 * The span whose overlapping confirmed bookings a slot computation over `[from, to)` needs: every
 * booking that can overlap a candidate (buffers included) and every booking starting on a local
 * day that the range touches (for the daily limit). Local days extend at most ~26 h beyond UTC.
 */
export function occupancyWindow(from: Instant, to: Instant): { from: Instant; to: Instant } {
  return { from: from - OCCUPANCY_MARGIN_MS, to: to + OCCUPANCY_MARGIN_MS };
}

/** The widest range whose slots the bookings overlapping `[from, to)` decide: the inverse of `occupancyWindow`. */
export function rangeDecidedBy(from: Instant, to: Instant): { from: Instant; to: Instant } {
  return { from: from + OCCUPANCY_MARGIN_MS, to: to - OCCUPANCY_MARGIN_MS };
}

const OCCUPANCY_MARGIN_MS = 2 * DAY_MS;

/**
 * The bookings that can change `checkBookable`'s answer for one start: those whose occupancy
 * overlaps the candidate's own (buffers included), and, when the event type caps its bookings per
 * day, its bookings starting on the candidate's local day. A check reads only these, however many
 * bookings lie around it.
 */
export function bookingCheckWindows(
  zone: Zone,
  policy: SlotPolicy,
  start: Instant,
): { overlapping: { from: Instant; to: Instant }; sameDay: { from: Instant; to: Instant } | null } {
  const overlapping = {
    from: start - policy.bufferBeforeMinutes * MINUTE_MS,
    to: start + (policy.durationMinutes + policy.bufferAfterMinutes) * MINUTE_MS,
  };
  if (policy.maxBookingsPerDay === null) return { overlapping, sameDay: null };
  const day = zone.dayOf(start);
  return { overlapping, sameDay: { from: zone.startOfDay(day), to: zone.startOfDay(day + 1) } };
}

/**
 * The starts that the two clock-bound rules allow at `now`, `[from, to)`: no sooner than the
 * minimum notice, and inside the booking window.
 */
export function bookableSpan(policy: SlotPolicy, now: Instant): { from: Instant; to: Instant } {
  return {
    from: now + policy.minimumNoticeMinutes * MINUTE_MS,
    to: policy.bookingWindowDays === null ? Number.POSITIVE_INFINITY : now + policy.bookingWindowDays * DAY_MS,
  };
}

/**
 * Every bookable start in `[from, to)`, ascending; see contract §5 for the rules. Each slot ends
 * the event type's duration after its start. A typed array: an answer can hold ~18,000 starts,
 * and a plain array that large lives in the old generation until a full collection, where a typed
 * array's memory goes with its short-lived handle.
 */
export function slotStarts(context: SlotContext, from: Instant, to: Instant): Float64Array {
  const span = bookableSpan(context.policy, context.now);
  return standingSlotStarts(context, Math.max(from, span.from), Math.min(to, span.to));
}

/**
 * Every start in `[from, to)` that the calendar allows whatever the time: on the availability
 * grid, under the daily cap and clear of other bookings. Only the calendar changes these;
 * `slotStarts` at any moment is exactly those of them inside `bookableSpan`, so a caller may keep
 * them for a wide range and cut each query's answer out of them.
 */
export function standingSlotStarts(context: StandingSlotContext, from: Instant, to: Instant): Float64Array {
  const starts = new StartList();
  if (from >= to) return starts.done();
  const rules = new Rules(context);
  const { zone, step, duration } = rules;
  const lastDay = zone.dayOf(to - 1);
  let ascending = true;
  for (let day = zone.dayOf(from); day <= lastDay; day++) {
    for (const [startMinute, endMinute] of rangesOn(context.availability, day)) {
      const rangeStart = zone.wallToInstant(day, startMinute);
      const rangeEnd = zone.wallToInstant(day, endMinute);
      const firstStep = from > rangeStart ? Math.ceil((from - rangeStart) / step) : 0;
      for (let start = rangeStart + firstStep * step; start + duration <= rangeEnd && start < to; start += step) {
        if (rules.calendarRejection(start, day) === null) {
          if (start <= starts.last) ascending = false;
          starts.push(start);
        }
      }
    }
  }
  // Occurrences with seats left: their starts are bookable whatever the grid (contract §15), and
  // their own time kept them out above.
  const joinable = joinableStarts(context, from, to);
  if (joinable.length > 0) {
    for (const start of joinable) starts.push(start);
    ascending = false;
  }
  return ascending ? starts.done() : sortedUnique(starts.done());
}

/** The occurrence of the seated event type that starts at `start`; undefined for none (or an event type without seats). */
export function occurrenceAt<Booking extends Occupancy>(
  context: Pick<StandingSlotContext, 'policy' | 'eventTypeId'> & { bookings: readonly Booking[] },
  start: Instant,
): Booking | undefined {
  if (!context.policy.seats) return undefined;
  return context.bookings.find(
    (booking) => booking.seats !== undefined && booking.start === start && booking.eventTypeId === context.eventTypeId,
  );
}

/** Seats an occurrence has left under the policy (none when it was lowered below those taken: they stay, no more join). */
export function seatsLeft(policy: SlotPolicy, occurrence: Occupancy | undefined): number {
  const seats = policy.seats ?? 1;
  return Math.max(0, seats - (occurrence?.seats ?? 0));
}

function joinableStarts(context: StandingSlotContext, from: Instant, to: Instant): Instant[] {
  const { policy, eventTypeId } = context;
  if (!policy.seats) return [];
  const starts: Instant[] = [];
  for (const booking of context.bookings)
    if (
      booking.seats !== undefined &&
      booking.eventTypeId === eventTypeId &&
      booking.start >= from &&
      booking.start < to &&
      seatsLeft(policy, booking) > 0
    )
      starts.push(booking.start);
  return starts;
}

/** Standing starts as computed once: what `standingSlotStartsSince` derives newer ones from. */
export interface StandingSlots {
  context: StandingSlotContext;
  from: Instant;
  to: Instant;
  /** `standingSlotStarts(context, from, to)`. */
  starts: Float64Array;
}

/**
 * `standingSlotStarts(context, from, to)`, derived from `previous` when the two contexts differ
 * only in bookings and busy time: the previous starts are kept except on the local days that a
 * booking or busy span added or removed since can change, and outside the previous range, which
 * are computed afresh. Undefined when a full computation is needed: another availability (a
 * different object), event type or policy, or no part of the range in common.
 */
export function standingSlotStartsSince(
  previous: StandingSlots,
  context: StandingSlotContext,
  from: Instant,
  to: Instant,
): Float64Array | undefined {
  if (
    previous.context.availability !== context.availability ||
    previous.context.eventTypeId !== context.eventTypeId ||
    !sameStandingPolicy(previous.context.policy, context.policy)
  )
    return undefined;
  const keptFrom = Math.max(from, previous.from);
  const keptTo = Math.min(to, previous.to);
  if (keptFrom >= keptTo) return undefined;
  // Computed afresh: the range beyond the previous one, and the days a change reaches. Kept: the rest.
  const range = [{ start: from, end: to }];
  const fresh = intersect(
    [{ start: from, end: keptFrom }, { start: keptTo, end: to }, ...changedDays(previous.context, context)],
    range,
  );
  const pieces = [
    ...subtract(range, fresh).map(({ start, end }) => ({ start, starts: startsIn(previous.starts, start, end) })),
    ...fresh.map(({ start, end }) => ({ start, starts: standingSlotStarts(near(context, start, end), start, end) })),
  ].sort((a, b) => a.start - b.start);
  const starts = new Float64Array(pieces.reduce((length, piece) => length + piece.starts.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    starts.set(piece.starts, offset);
    offset += piece.starts.length;
  }
  return starts;
}

/**
 * The context with only the bookings and busy time that decide starts in `[from, to)`: a few days'
 * worth instead of the holder's every booking, which is what computing a few days costs most.
 */
function near(context: StandingSlotContext, from: Instant, to: Instant): StandingSlotContext {
  const window = occupancyWindow(from, to);
  return {
    ...context,
    bookings: context.bookings.filter((b) => b.occupiedStart < window.to && b.occupiedEnd > window.from),
    busy: context.busy?.filter((b) => b.start < window.to && b.end > window.from),
  };
}

/** Whether the two agree on everything `standingSlotStarts` reads (notice and window are cut per query). */
export function sameStandingPolicy(a: SlotPolicy, b: SlotPolicy): boolean {
  return (
    a.durationMinutes === b.durationMinutes &&
    a.slotIntervalMinutes === b.slotIntervalMinutes &&
    a.bufferBeforeMinutes === b.bufferBeforeMinutes &&
    a.bufferAfterMinutes === b.bufferAfterMinutes &&
    a.maxBookingsPerDay === b.maxBookingsPerDay &&
    (a.seats ?? null) === (b.seats ?? null)
  );
}

/**
 * The spans, in whole local days, whose standing starts can differ between two contexts that
 * differ only in bookings and busy time. A booking or busy span added or removed changes the
 * starts whose occupied time (buffers included) it overlaps and, when it counts towards the daily
 * cap, every start of its local day. A start is counted on the day it is generated for, which is
 * the local day it falls in unless a clock change moves a day's edge past it; one day of margin
 * either side makes that harmless.
 */
function changedDays(previous: StandingSlotContext, context: StandingSlotContext): Interval[] {
  const { policy } = context;
  const zone = context.availability.zone;
  const reachBefore = (policy.durationMinutes + policy.bufferAfterMinutes) * MINUTE_MS;
  const reachAfter = policy.bufferBeforeMinutes * MINUTE_MS;
  const days = (first: Instant, last: Instant): Interval => ({
    start: zone.startOfDay(zone.dayOf(first) - 1),
    end: zone.startOfDay(zone.dayOf(last) + 2),
  });
  const spans: Interval[] = [];
  // A booking starts inside its occupied time: its local day is among those spanned.
  for (const booking of changed(previous.bookings, context.bookings, byBooking)) {
    spans.push(days(booking.occupiedStart - reachBefore, booking.occupiedEnd + reachAfter));
  }
  for (const busy of changed(previous.busy ?? [], context.busy ?? [], byBusy)) {
    spans.push(days(busy.start - reachBefore, busy.end + reachAfter));
  }
  return spans;
}

/** Bookings in an order that puts the ones the engine cannot tell apart next to each other. */
function byBooking(a: Occupancy, b: Occupancy): number {
  return (
    a.occupiedStart - b.occupiedStart ||
    a.occupiedEnd - b.occupiedEnd ||
    a.start - b.start ||
    (a.seats ?? 0) - (b.seats ?? 0) ||
    (a.eventTypeId < b.eventTypeId ? -1 : a.eventTypeId > b.eventTypeId ? 1 : 0)
  );
}

function byBusy(a: Interval, b: Interval): number {
  return a.start - b.start || a.end - b.end;
}

/**
 * What is in one list and not the other, as multisets of what the engine reads of them: one walk
 * over both in `order`. Calendars keep them in that order already, so nothing is sorted or
 * allocated per item on the way of a booking.
 */
function changed<T>(before: readonly T[], after: readonly T[], order: (a: T, b: T) => number): T[] {
  const sortedBefore = inOrder(before, order);
  const sortedAfter = inOrder(after, order);
  const differing: T[] = [];
  let i = 0;
  let j = 0;
  while (i < sortedBefore.length && j < sortedAfter.length) {
    const comparison = order(sortedBefore[i]!, sortedAfter[j]!);
    if (comparison < 0) differing.push(sortedBefore[i++]!);
    else if (comparison > 0) differing.push(sortedAfter[j++]!);
    else {
      i++;
      j++;
    }
  }
  while (i < sortedBefore.length) differing.push(sortedBefore[i++]!);
  while (j < sortedAfter.length) differing.push(sortedAfter[j++]!);
  return differing;
}

function inOrder<T>(items: readonly T[], order: (a: T, b: T) => number): readonly T[] {
  for (let i = 1; i < items.length; i++) if (order(items[i - 1]!, items[i]!) > 0) return [...items].sort(order);
  return items;
}

/** The ascending `starts` in `[from, to)`, as a view. */
function startsIn(starts: Float64Array, from: Instant, to: Instant): Float64Array {
  return starts.subarray(firstAtOrAfter(starts, from), firstAtOrAfter(starts, to));
}

/** A growing list of instants in a typed array. */
class StartList {
  private values = new Float64Array(256);
  private length = 0;
  last = Number.NEGATIVE_INFINITY;

  push(start: Instant): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = start;
    this.last = start;
  }

  done(): Float64Array {
    return this.values.subarray(0, this.length);
  }
}

/**
 * An interval edge inside a spring-forward gap moves forward by the gap, so an interval ending in
 * the gap can overlap the next interval of the same date in real time (New York 02:00–02:05 ends at
 * 03:05 EDT, after 03:00–03:10 begins): their grids may then interleave or share starts.
 */
function sortedUnique(starts: Float64Array): Float64Array {
  starts.sort();
  return starts.filter((start, index) => index === 0 || start !== starts[index - 1]);
}

/** Why `start` is not bookable, or null when it is: exactly the starts `listSlots` lists. */
export function checkBookable(context: SlotContext, start: Instant): UnbookableReason | null {
  const occurrence = occurrenceAt(context, start);
  if (occurrence) {
    // Joining an occurrence: only its seats and the clock decide (contract §15).
    if (seatsLeft(context.policy, occurrence) === 0) return 'no-seats-left';
    return clockRejection(context, start);
  }
  const rules = new Rules(context);
  const day = rules.zone.dayOf(start);
  const onGrid = rangesOn(context.availability, day).some(([startMinute, endMinute]) => {
    const rangeStart = rules.zone.wallToInstant(day, startMinute);
    const rangeEnd = rules.zone.wallToInstant(day, endMinute);
    return start >= rangeStart && (start - rangeStart) % rules.step === 0 && start + rules.duration <= rangeEnd;
  });
  if (!onGrid) return 'outside-availability';
  return clockRejection(context, start) ?? rules.calendarRejection(start, day);
}

/** §5 rule 2: the minimum notice and the booking window at `now`. */
function clockRejection(context: SlotContext, start: Instant): UnbookableReason | null {
  const span = bookableSpan(context.policy, context.now);
  if (start < span.from) return 'before-minimum-notice';
  if (start >= span.to) return 'beyond-booking-window';
  return null;
}

/** The rules of contract §5 beyond the grid and the clock, for one event type. */
class Rules {
  readonly zone: Zone;
  readonly step: number;
  readonly duration: number;
  private readonly bufferBefore: number;
  private readonly bufferAfter: number;
  /** Occupied time (buffers included) and busy time, merged: slots are asked with ascending starts. */
  private readonly occupied: OverlapCursor;
  private readonly busy: OverlapCursor;
  private bookingsPerDay: Map<EpochDay, number> | undefined;

  constructor(private readonly context: StandingSlotContext) {
    const { policy } = context;
    this.zone = context.availability.zone;
    this.step = policy.slotIntervalMinutes * MINUTE_MS;
    this.duration = policy.durationMinutes * MINUTE_MS;
    this.bufferBefore = policy.bufferBeforeMinutes * MINUTE_MS;
    this.bufferAfter = policy.bufferAfterMinutes * MINUTE_MS;
    this.occupied = new OverlapCursor(
      merge(context.bookings.map((b) => ({ start: b.occupiedStart, end: b.occupiedEnd }))),
    );
    this.busy = new OverlapCursor(merge(context.busy ?? []));
  }

  /** For a start already known to be on the grid of local `day`. */
  calendarRejection(start: Instant, day: EpochDay): UnbookableReason | null {
    const limit = this.context.policy.maxBookingsPerDay;
    if (limit !== null && this.countOn(day) >= limit) return 'daily-limit-reached';
    const from = start - this.bufferBefore;
    const to = start + this.duration + this.bufferAfter;
    if (this.occupied.overlaps(from, to)) return 'overlaps-booking';
    if (this.busy.overlaps(from, to)) return 'overlaps-busy-time';
    return null;
  }

  private countOn(day: EpochDay): number {
    if (!this.bookingsPerDay) {
      this.bookingsPerDay = new Map();
      for (const booking of this.context.bookings) {
        if (booking.eventTypeId !== this.context.eventTypeId) continue;
        const bookingDay = this.zone.dayOf(booking.start);
        this.bookingsPerDay.set(bookingDay, (this.bookingsPerDay.get(bookingDay) ?? 0) + 1);
      }
    }
    return this.bookingsPerDay.get(day) ?? 0;
  }
}
