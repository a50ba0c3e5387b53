// Properties of the slot engine over random availabilities, policies, bookings, ranges and clocks,
// concentrated around the DST transitions of 2026–2027. The checks convert with Temporal directly
// (never through src/domain/zone.ts), so they judge the engine independently of its zone cache.
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  bookableSpan,
  bookingCheckWindows,
  checkBookable,
  occupancyWindow,
  slotStarts,
  standingSlotStarts,
} from '../../src/domain/slots.js';
import { listSlots } from './support.js';
import { contextOf, DAY, MIN, Reference, sample, scenario } from './slot-scenarios.js';

// About three seconds for the file; every property also sees the transition-day scenarios.
const RUNS = 120;

describe('listSlots properties (random zones, hours, overrides, policies, bookings, ranges around DST)', () => {
  it('when slots are listed, then each lies on the grid of an interval of its own local date and ends inside it', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const ref = new Reference(s);
        const duration = s.policy.durationMinutes * MIN;
        for (const slot of listSlots(contextOf(s), s.from, s.to)) {
          expect(slot.end - slot.start).toBe(duration);
          // Converting the start to local wall time gives its date; that date's intervals must hold it.
          // Membership is judged on instants (interval edges converted by the zone's rules), not by
          // comparing wall times: around a transition wall time is not monotonic (the second 02:30
          // of a fall-back night lies after 03:00+02; a gap edge 02:30 means 03:30).
          const local = Temporal.Instant.fromEpochMilliseconds(slot.start).toZonedDateTimeISO(ref.zone);
          expect(local.toPlainDate().equals(ref.localDate(slot.start))).toBe(true);
          expect(ref.onGrid(slot.start), `slot ${local.toString()} is off every interval grid`).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('when slots are listed, then none of them (with its buffers) overlaps a booking’s occupancy', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const p = s.policy;
        for (const slot of listSlots(contextOf(s), s.from, s.to)) {
          const occupiedStart = slot.start - p.bufferBeforeMinutes * MIN;
          const occupiedEnd = slot.end + p.bufferAfterMinutes * MIN;
          for (const b of s.bookings) {
            expect(occupiedStart < b.occupiedEnd && b.occupiedStart < occupiedEnd).toBe(false);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('when slots are listed, then they ascend strictly, start in [from, to), respect notice, window and the daily limit', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const ref = new Reference(s);
        const p = s.policy;
        const slots = listSlots(contextOf(s), s.from, s.to);
        for (let i = 1; i < slots.length; i++) expect(slots[i]!.start).toBeGreaterThan(slots[i - 1]!.start);
        for (const slot of slots) {
          expect(slot.start).toBeGreaterThanOrEqual(s.from);
          expect(slot.start).toBeLessThan(s.to);
          expect(slot.start).toBeGreaterThanOrEqual(s.now + p.minimumNoticeMinutes * MIN);
          if (p.bookingWindowDays !== null) expect(slot.start).toBeLessThan(s.now + p.bookingWindowDays * DAY);
          if (p.maxBookingsPerDay !== null) {
            expect(ref.ownBookingsOn(ref.localDate(slot.start))).toBeLessThan(p.maxBookingsPerDay);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('when any start in [from, to) is checked, then checkBookable accepts it exactly when listSlots lists it', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 40 }), (s, positions) => {
        const ref = new Reference(s);
        const ctx = contextOf(s);
        const listed = listSlots(ctx, s.from, s.to).map((slot) => slot.start);
        const listedSet = new Set(listed);
        const firstMinute = Math.ceil(s.from / MIN) * MIN;
        const minutes = Math.max(0, Math.ceil((s.to - firstMinute) / MIN));
        const randomMinutes = positions
          .map((p) => firstMinute + Math.floor((p / 1_000_000) * minutes) * MIN)
          .filter((t) => t < s.to);
        const candidates = [...sample(listed, 300), ...sample(ref.gridStarts(), 300), ...randomMinutes, s.from];
        for (const start of candidates) {
          if (start < s.from || start >= s.to) continue;
          const reason = checkBookable(ctx, start);
          expect(reason === null, `checkBookable(${new Date(start).toISOString()}) = ${reason}`).toBe(
            listedSet.has(start),
          );
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('when a start is checked against only the bookings bookingCheckWindows names, then the answer is the one against every booking', () => {
    // What a booking reads from the store: the candidate's own occupied span and, with a daily
    // cap, the event type's bookings of that local day.
    fc.assert(
      fc.property(scenario, fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 40 }), (s, positions) => {
        const ctx = contextOf(s);
        const ref = new Reference(s);
        const firstMinute = Math.ceil(s.from / MIN) * MIN;
        const minutes = Math.max(0, Math.ceil((s.to - firstMinute) / MIN));
        const randomMinutes = positions.map((p) => firstMinute + Math.floor((p / 1_000_000) * minutes) * MIN);
        for (const start of [...sample(ref.gridStarts(), 200), ...randomMinutes]) {
          const windows = bookingCheckWindows(ctx.availability.zone, s.policy, start);
          const { from, to } = windows.overlapping;
          const named = s.bookings.filter(
            (b) =>
              (b.occupiedStart < to && b.occupiedEnd > from) ||
              (windows.sameDay !== null &&
                b.eventTypeId === ctx.eventTypeId &&
                b.start >= windows.sameDay.from &&
                b.start < windows.sameDay.to),
          );
          expect(checkBookable({ ...ctx, bookings: named }, start), new Date(start).toISOString()).toBe(
            checkBookable(ctx, start),
          );
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('when the result is compared with a literal reading of the contract, then listSlots lists exactly the bookable grid starts', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const ref = new Reference(s);
        const expected = ref.gridStarts().filter((start) => ref.bookable(start));
        expect(listSlots(contextOf(s), s.from, s.to).map((slot) => slot.start)).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('when a range [a, c) is split at b, then [a, b) followed by [b, c) gives the same slots as [a, c)', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 1_000_000 }), (s, position) => {
        const ctx = contextOf(s);
        const b = s.from + Math.floor(((s.to - s.from) * position) / 1_000_000);
        const whole = listSlots(ctx, s.from, s.to);
        const split = [...listSlots(ctx, s.from, b), ...listSlots(ctx, b, s.to)];
        expect(split).toEqual(whole);
      }),
      { numRuns: RUNS },
    );
  });

  it('when standing slots of a wider range are cut to [from, to) and to what the clock allows, then they are the slots of [from, to), read with only that range’s bookings', () => {
    // What a cached slot track answers, against what a query computes afresh.
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (s, before, after) => {
        const ctx = contextOf(s);
        const standing = standingSlotStarts(ctx, s.from - before * DAY, s.to + after * DAY);
        const span = bookableSpan(s.policy, s.now);
        const [low, high] = [Math.max(s.from, span.from), Math.min(s.to, span.to)];
        const window = occupancyWindow(s.from, s.to);
        const ownBookings = s.bookings.filter((b) => b.occupiedStart < window.to && b.occupiedEnd > window.from);
        expect([...standing].filter((start) => start >= low && start < high)).toEqual([
          ...slotStarts({ ...ctx, bookings: ownBookings }, s.from, s.to),
        ]);
      }),
      { numRuns: RUNS },
    );
  });
});
