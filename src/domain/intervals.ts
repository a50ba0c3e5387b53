/**
 * Time as intervals: the one shape that slots, busy time, occupancies and calendars share, and the
 * operations on it. A list of intervals stands for the set of instants they cover; the operations
 * answer in the merged form (sorted by start, each non-empty, no two overlapping or touching), which
 * is the one way to write each set.
 */
import type { Instant } from './instant.js';

/** Half-open `[start, end)`, epoch milliseconds. */
export interface Interval {
  start: Instant;
  end: Instant;
}

/**
 * The same set merged: sorted by start, overlapping and touching intervals joined, empty ones left
 * out. The input is left as it is; the answer holds the input's own intervals where they stand
 * unjoined (the slot engine merges a thousand fresh ones per query, and copying them all measured
 * 10% of a 62-day query), so neither is to be changed afterwards. Stores and caches hand
 * intervals over in order already, so only an unsorted list is sorted (a copy).
 */
export function merge(intervals: readonly Interval[]): Interval[] {
  const sorted = isSortedByStart(intervals) ? intervals : [...intervals].sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  let last: Interval | undefined;
  // Whether `last` is this function's own (a join), and so may grow in place.
  let lastIsOwn = false;
  for (const interval of sorted) {
    const { start, end } = interval;
    if (start >= end) continue;
    if (last !== undefined && start <= last.end) {
      if (end <= last.end) continue;
      if (lastIsOwn) last.end = end;
      else {
        last = { start: last.start, end };
        merged[merged.length - 1] = last;
        lastIsOwn = true;
      }
    } else {
      last = interval;
      lastIsOwn = false;
      merged.push(last);
    }
  }
  return merged;
}

function isSortedByStart(intervals: readonly Interval[]): boolean {
  for (let i = 1; i < intervals.length; i++) if (intervals[i]!.start < intervals[i - 1]!.start) return false;
  return true;
}

/** The instants in both `a` and `b` (each in any order), merged. */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const left = merge(a);
  const right = merge(b);
  const common: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const start = Math.max(left[i]!.start, right[j]!.start);
    const end = Math.min(left[i]!.end, right[j]!.end);
    if (start < end) common.push({ start, end });
    // The one that ends first can meet nothing further on the other side.
    if (left[i]!.end < right[j]!.end) i++;
    else j++;
  }
  return common;
}

/** The instants in `a` and not in `b` (each in any order), merged. */
export function subtract(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const removed = merge(b);
  const rest: Interval[] = [];
  let j = 0;
  for (const interval of merge(a)) {
    let start = interval.start;
    while (j < removed.length && removed[j]!.end <= start) j++;
    for (let k = j; k < removed.length && removed[k]!.start < interval.end; k++) {
      if (removed[k]!.start > start) rest.push({ start, end: removed[k]!.start });
      start = Math.max(start, removed[k]!.end);
    }
    if (start < interval.end) rest.push({ start, end: interval.end });
  }
  return rest;
}

/**
 * The first index in `[0, length)` where `isBefore` no longer holds, for a predicate that holds
 * for a prefix of the indices and for none after it: a binary search (`length` when it holds for all).
 */
function partitionPoint(length: number, isBefore: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isBefore(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the first of the ascending `instants` at or after `instant` (`instants.length` when none is). */
export function firstAtOrAfter(instants: ArrayLike<Instant>, instant: Instant): number {
  return partitionPoint(instants.length, (index) => instants[index]! < instant);
}

/**
 * Whether ranges overlap the merged `intervals`, for ranges asked mostly in ascending order (the
 * slot engine asks with ascending starts): a cursor moves forward past the intervals that end
 * before each range, so a whole pass costs one walk. A range behind the cursor (a single check)
 * starts it again from the first.
 */
export class OverlapCursor {
  /** Each interval's start and end in turn, unboxed (null when there are none). */
  private readonly edges: Float64Array | null = null;
  /** Where the start of the first interval that may still overlap is in `edges`. */
  private next = 0;

  constructor(intervals: readonly Interval[]) {
    if (intervals.length === 0) return;
    this.edges = new Float64Array(intervals.length * 2);
    for (let i = 0; i < intervals.length; i++) {
      this.edges[2 * i] = intervals[i]!.start;
      this.edges[2 * i + 1] = intervals[i]!.end;
    }
  }

  overlaps(from: Instant, to: Instant): boolean {
    const edges = this.edges;
    if (edges === null) return false;
    if (this.next > 0 && edges[this.next - 1]! > from) this.next = 0;
    while (this.next < edges.length && edges[this.next + 1]! <= from) this.next += 2;
    return this.next < edges.length && edges[this.next]! < to;
  }
}
