// standingSlotStartsSince: a slot track kept up to date by what each change occupies (issue 16)
// must be exactly the track computed afresh. Random availabilities, policies and bookings come from
// the slot-engine scenarios (DST zones, transitions, half-hour changes on Lord Howe); on top of
// them, a random sequence of bookings and busy time added and removed, clock-bound rules changed,
// and the range moved, as a calendar reloaded later covers later days.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interval } from '../../src/domain/intervals.js';
import {
  standingSlotStarts,
  standingSlotStartsSince,
  type Occupancy,
  type StandingSlotContext,
  type StandingSlots,
} from '../../src/domain/slots.js';
import { contextOf, DAY, EVENT_TYPE, MIN, scenario, type Scenario } from './slot-scenarios.js';

// Each run computes the full track after every step (up to 67 days): a few seconds for the file.
const RUNS = 100;

const multipleOf5 = (min: number, max: number) => fc.integer({ min: min / 5, max: max / 5 }).map((n) => n * 5);

/** Where in the range (and two days either side) a change lands, in ten-thousandths. */
const position = fc.integer({ min: 0, max: 10_000 });

type Change =
  | { kind: 'book'; eventTypeId: string; position: number; minutes: number; before: number; after: number }
  | { kind: 'cancel'; index: number }
  | { kind: 'busy'; position: number; minutes: number }
  | { kind: 'free'; index: number }
  | { kind: 'notice'; minimumNoticeMinutes: number; bookingWindowDays: number | null }
  | { kind: 'move'; shift: number };

const change: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('book' as const),
      eventTypeId: fc.constantFrom(EVENT_TYPE, EVENT_TYPE, 'evt_other'),
      position,
      minutes: multipleOf5(5, 240),
      before: fc.constantFrom(0, 0, 10, 30),
      after: fc.constantFrom(0, 0, 15, 45),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), index: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('busy' as const),
      position,
      minutes: fc.oneof(multipleOf5(5, 240), fc.integer({ min: 1, max: 3 * 1440 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('free' as const), index: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('notice' as const),
      minimumNoticeMinutes: fc.integer({ min: 0, max: 3 * 1440 }),
      bookingWindowDays: fc.option(fc.integer({ min: 1, max: 60 })),
    }),
  },
  // A later reload covers later days; a clock set back, earlier ones.
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('move' as const), shift: fc.integer({ min: -DAY, max: 3 * DAY }) }),
  },
);

/** The scenario's range, or the 67 days a cached calendar decides from its start. */
const startingPoint = fc.record({
  scenario,
  wholeTrack: fc.boolean(),
  busy: fc.array(fc.record({ position, minutes: multipleOf5(5, 600) }), { maxLength: 4 }),
});

const rangeOf = (s: Scenario, wholeTrack: boolean) => ({ from: s.from, to: wholeTrack ? s.from + 67 * DAY : s.to });

/** An instant at `position` ten-thousandths of `[from − 2 days, to + 2 days)`, on a minute. */
function placed(from: number, to: number, at: number): number {
  const span = to - from + 4 * DAY;
  return Math.floor((from - 2 * DAY + (span * at) / 10_000) / MIN) * MIN;
}

function applied(
  context: StandingSlotContext,
  range: { from: number; to: number },
  step: Change,
): { context: StandingSlotContext; range: { from: number; to: number } } {
  const bookings = [...context.bookings];
  const busy = [...(context.busy ?? [])];
  switch (step.kind) {
    case 'book': {
      const start = placed(range.from, range.to, step.position);
      const booking: Occupancy = {
        eventTypeId: step.eventTypeId,
        start,
        occupiedStart: start - step.before * MIN,
        occupiedEnd: start + (step.minutes + step.after) * MIN,
      };
      return { context: { ...context, bookings: [...bookings, booking] }, range };
    }
    case 'cancel':
      if (bookings.length > 0) bookings.splice(step.index % bookings.length, 1);
      return { context: { ...context, bookings }, range };
    case 'busy': {
      const start = placed(range.from, range.to, step.position);
      const span: Interval = { start, end: start + step.minutes * MIN };
      return { context: { ...context, busy: [...busy, span] }, range };
    }
    case 'free':
      if (busy.length > 0) busy.splice(step.index % busy.length, 1);
      return { context: { ...context, busy }, range };
    case 'notice': {
      const policy = { ...context.policy, ...step };
      return { context: { ...context, policy }, range };
    }
    case 'move':
      return { context, range: { from: range.from + step.shift, to: range.to + step.shift } };
  }
}

describe('standingSlotStartsSince (random zones with DST, policies, bookings, busy time and changes)', () => {
  it('when bookings and busy time are added and removed and the range moves, then after every step the derived track equals the track computed afresh', () => {
    fc.assert(
      fc.property(startingPoint, fc.array(change, { minLength: 1, maxLength: 8 }), (start, changes) => {
        const s = start.scenario;
        let range = rangeOf(s, start.wholeTrack);
        let context: StandingSlotContext = {
          ...contextOf(s),
          busy: start.busy.map(({ position: at, minutes }) => {
            const from = placed(range.from, range.to, at);
            return { start: from, end: from + minutes * MIN };
          }),
        };
        let previous: StandingSlots = {
          context,
          ...range,
          starts: standingSlotStarts(context, range.from, range.to),
        };
        for (const step of changes) {
          ({ context, range } = applied(context, range, step));
          const before = Float64Array.from(previous.starts);
          const derived = standingSlotStartsSince(previous, context, range.from, range.to);
          const afresh = standingSlotStarts(context, range.from, range.to);
          // Only a range moved off the old one entirely leaves nothing to derive from.
          if (range.from < previous.to && range.to > previous.from) expect(derived, step.kind).toBeDefined();
          expect([...(derived ?? afresh)], step.kind).toEqual([...afresh]);
          // Rendered answers are kept per track array: an older track must never change.
          expect(previous.starts).toEqual(before);
          previous = { context, ...range, starts: derived ?? afresh };
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('standingSlotStartsSince refusing to derive', () => {
  const s: Scenario = {
    doc: {
      timeZone: 'Europe/Berlin',
      weekly: {
        monday: [{ start: '09:00', end: '17:00' }],
        tuesday: [],
        wednesday: [],
        thursday: [],
        friday: [],
        saturday: [],
        sunday: [],
      },
      overrides: [],
    },
    policy: {
      durationMinutes: 30,
      slotIntervalMinutes: 30,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      minimumNoticeMinutes: 0,
      bookingWindowDays: null,
      maxBookingsPerDay: null,
    },
    bookings: [],
    from: Date.parse('2026-03-02T00:00:00Z'),
    to: Date.parse('2026-05-08T00:00:00Z'),
    now: Date.parse('2026-03-01T00:00:00Z'),
  };
  const context = contextOf(s);
  const previous: StandingSlots = {
    context,
    from: s.from,
    to: s.to,
    starts: standingSlotStarts(context, s.from, s.to),
  };

  it.each([
    [
      'the availability is another object, even one compiled from the same hours',
      { availability: contextOf(s).availability },
    ],
    ['the duration changed', { policy: { ...s.policy, durationMinutes: 45 } }],
    ['the slot interval changed', { policy: { ...s.policy, slotIntervalMinutes: 15 } }],
    ['a buffer changed', { policy: { ...s.policy, bufferAfterMinutes: 10 } }],
    ['the daily cap changed', { policy: { ...s.policy, maxBookingsPerDay: 2 } }],
    ['it is another event type', { eventTypeId: 'evt_other' }],
  ])('when %s, then it gives nothing and the caller computes the track in full', (_, difference) => {
    expect(standingSlotStartsSince(previous, { ...context, ...difference }, s.from, s.to)).toBeUndefined();
  });

  it('when the new range shares nothing with the old one, then it gives nothing', () => {
    expect(standingSlotStartsSince(previous, context, s.to, s.to + 7 * DAY)).toBeUndefined();
  });
});
