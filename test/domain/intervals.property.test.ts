// Properties of the interval operations (src/domain/intervals.ts) against a naive model: a list of
// intervals on a small integer line stands for the set of points it covers, counted one by one.
// Each operation must answer with the model's set, in the merged form (sorted, non-empty, neither
// overlapping nor touching), whatever the order, overlaps, touches and empties of its input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  firstAtOrAfter,
  intersect,
  merge,
  OverlapCursor,
  subtract,
  type Interval,
} from '../../src/domain/intervals.js';

const RUNS = 500;
/** Points 0..LINE-1: small enough to count, large enough for gaps, touches and nesting. */
const LINE = 120;

const interval: fc.Arbitrary<Interval> = fc
  .tuple(fc.integer({ min: 0, max: LINE }), fc.integer({ min: 0, max: 40 }))
  .map(([start, length]) => ({ start, end: Math.min(LINE, start + length) }));
// Empty intervals (length 0) are among them on purpose.
const intervals = fc.array(interval, { maxLength: 12 });

/** The points the intervals cover. */
function points(list: readonly Interval[]): Set<number> {
  const covered = new Set<number>();
  for (const { start, end } of list) for (let t = start; t < end; t++) covered.add(t);
  return covered;
}

/** The one merged list of a set of points. */
function canonical(covered: Set<number>): Interval[] {
  const out: Interval[] = [];
  for (let t = 0; t < LINE; t++) {
    if (!covered.has(t)) continue;
    const last = out[out.length - 1];
    if (last !== undefined && last.end === t) last.end = t + 1;
    else out.push({ start: t, end: t + 1 });
  }
  return out;
}

const both = (a: Set<number>, b: Set<number>) => new Set([...a].filter((t) => b.has(t)));
const without = (a: Set<number>, b: Set<number>) => new Set([...a].filter((t) => !b.has(t)));

describe('interval operations against a set of points', () => {
  it('merge covers exactly the points of its input, merged, and leaves its input as it was', () => {
    fc.assert(
      fc.property(intervals, (list) => {
        const before = structuredClone(list);
        expect(merge(list)).toEqual(canonical(points(list)));
        expect(list).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('intersect covers the points in both, merged', () => {
    fc.assert(
      fc.property(intervals, intervals, (a, b) => {
        expect(intersect(a, b)).toEqual(canonical(both(points(a), points(b))));
      }),
      { numRuns: RUNS },
    );
  });

  it('subtract covers the points in the first and not the second, merged', () => {
    fc.assert(
      fc.property(intervals, intervals, (a, b) => {
        expect(subtract(a, b)).toEqual(canonical(without(points(a), points(b))));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('searches over sorted instants', () => {
  const sorted = fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 30 }).map((list) => list.sort((a, b) => a - b));

  it('firstAtOrAfter finds the first index at or after an instant, in arrays and Float64Array tracks', () => {
    fc.assert(
      fc.property(sorted, fc.integer({ min: -5, max: 55 }), (list, instant) => {
        const expected = list.findIndex((value) => value >= instant);
        const index = expected === -1 ? list.length : expected;
        expect(firstAtOrAfter(list, instant)).toBe(index);
        expect(firstAtOrAfter(Float64Array.from(list), instant)).toBe(index);
      }),
      { numRuns: RUNS },
    );
  });

  it('OverlapCursor answers every range as a scan of the whole list would, in any order of asking', () => {
    const range = fc
      .tuple(fc.integer({ min: -5, max: LINE + 5 }), fc.integer({ min: 1, max: 30 }))
      .map(([from, length]) => ({ from, to: from + length }));
    fc.assert(
      fc.property(intervals, fc.array(range, { maxLength: 25 }), fc.boolean(), (list, ranges, ascending) => {
        const merged = merge(list);
        const asked = ascending ? [...ranges].sort((a, b) => a.from - b.from) : ranges;
        const cursor = new OverlapCursor(merged);
        for (const { from, to } of asked) {
          expect(cursor.overlaps(from, to)).toBe(merged.some((m) => m.start < to && from < m.end));
        }
      }),
      { numRuns: RUNS },
    );
  });
});
