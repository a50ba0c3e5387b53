/**
 * The slots of a team event type (contract §14), combined from each host's own. The per-host
 * engine stays `standingSlotStarts`: run per host with that host's schedule, occupancies (every
 * confirmed booking and live hold in which it is a host, of any event type) and busy time, and the
 * team type's policy without its daily cap, it gives the host's standing starts (§5 rules 1 and 4,
 * §11's busy rule). Here they become the team's: every host's for a collective type; every fixed
 * host's and at least one other host's for round robin; then the team's daily cap, counted once
 * per booking on the local dates of the first host's schedule.
 */
import type { Instant } from './instant.js';
import { firstAtOrAfter } from './intervals.js';
import type { UnbookableReason } from './slots.js';
import type { EpochDay, Zone } from './zone.js';

/** One host's standing starts, as the team combines them. */
export interface HostStarts {
  holderId: string;
  /** A round-robin host that attends every booking; ignored for a collective type (every host attends). */
  fixed: boolean;
  /** `standingSlotStarts` for this host with the daily cap off: ascending, each once. */
  starts: Float64Array;
}

/**
 * A confirmed booking or live hold as the team's daily cap counts it. A collective booking occupies
 * every host, so it comes once per host: the id makes it count once. A host's occupancy with its
 * booking's (or hold's) id has this shape.
 */
export interface CountedBooking {
  id: string;
  eventTypeId: string;
  start: Instant;
  /** An occurrence of a seated type (contract §15): a seat joining it adds no booking the cap counts. */
  seats?: number;
}

/** Contract §5 rule 3 for a team type. */
export interface TeamDailyCap {
  eventTypeId: string;
  maxBookingsPerDay: number | null;
  /** The zone of the first host's schedule: the cap counts on its local dates. */
  zone: Zone;
  /**
   * Confirmed bookings and live holds, of any event type and in any order, repeated or not: at
   * least every one of the team type that starts on a local date the combined starts touch (for
   * a range `[from, to)`, those starting in `occupancyWindow(from, to)`).
   */
  bookings: readonly CountedBooking[];
}

/** Who must be free for a team start: which assignment, and for round robin an optional chosen host. */
export type TeamShape =
  | { assignment: 'collective' }
  /** `hostId`: the `hostId` of a query or booking, the one non-fixed host considered (none: every non-fixed host). */
  | { assignment: 'round-robin'; hostId: string | null };

/**
 * The team's standing starts, ascending: those standing for every host (collective), or for every
 * fixed host and at least one non-fixed host (round robin; with `hostId`, that host as the only
 * non-fixed one; with no such host, none), less those on a local date where the team type already
 * has `maxBookingsPerDay` bookings and holds. A new array; the hosts' arrays are left as they are.
 * Each host's starts cover the same range; `slotStarts` of the team is this cut to `bookableSpan`.
 */
export function teamStandingStarts(shape: TeamShape, hosts: readonly HostStarts[], cap: TeamDailyCap): Float64Array {
  const combined =
    shape.assignment === 'collective'
      ? intersectStarts(hosts.map((host) => host.starts))
      : intersectStarts([
          ...hosts.filter((host) => host.fixed).map((host) => host.starts),
          uniteStarts(candidatesOf(hosts, shape.hostId).map((host) => host.starts)),
        ]);
  return withoutFullDays(combined, cap);
}

/**
 * The non-fixed hosts whose standing starts hold `start`, in the hosts' order: the round-robin
 * candidates at a start already known to be standing for the team.
 */
export function hostsFreeAt(hosts: readonly HostStarts[], start: Instant): string[] {
  const free: string[] = [];
  for (const host of hosts) {
    if (host.fixed) continue;
    const index = firstAtOrAfter(host.starts, start);
    if (index < host.starts.length && host.starts[index] === start) free.push(host.holderId);
  }
  return free;
}

/** A host's verdict on one start: `checkBookable` with the host's context and the daily cap off. */
export interface HostVerdict {
  holderId: string;
  fixed: boolean;
  reason: UnbookableReason | null;
}

export type TeamVerdict =
  | { reason: UnbookableReason }
  /**
   * `candidates`: for round robin, the non-fixed hosts free at the start (the choice is among
   * them; the fixed hosts attend anyway); for a collective type, every host.
   */
  | { reason: null; candidates: string[] };

/**
 * Why `start` is not bookable for the team, or among which hosts it is: exactly the starts of
 * `teamStandingStarts` inside `bookableSpan`, given each host's `checkBookable` (cap off). The
 * reason is the first rule, in `checkBookable`'s order, that the team fails: the earliest reason
 * among the hosts who must all be free; of the non-fixed hosts of a round robin, of whom one must
 * be free, the latest (how far the best of them got); the daily cap in its place. No host to
 * choose from (a `hostId` that is no non-fixed host) is `outside-availability`: no schedule offers it.
 */
export function checkTeamBookable(
  shape: TeamShape,
  hosts: readonly HostVerdict[],
  cap: TeamDailyCap,
  start: Instant,
): TeamVerdict {
  const failed: UnbookableReason[] = [];
  let candidates: string[];
  if (shape.assignment === 'collective') {
    for (const host of hosts) if (host.reason !== null) failed.push(host.reason);
    if (hosts.length === 0) failed.push('outside-availability');
    candidates = hosts.map((host) => host.holderId);
  } else {
    for (const host of hosts) if (host.fixed && host.reason !== null) failed.push(host.reason);
    const others = candidatesOf(hosts, shape.hostId);
    candidates = others.filter((host) => host.reason === null).map((host) => host.holderId);
    if (candidates.length === 0) {
      const furthest = Math.max(0, ...others.map((host) => RULE_ORDER.indexOf(host.reason!)));
      failed.push(RULE_ORDER[furthest]!);
    }
  }
  if (cap.maxBookingsPerDay !== null && !occurrenceStarts(cap).has(start)) {
    const day = cap.zone.dayOf(start);
    if ((bookingsPerDay(cap).get(day) ?? 0) >= cap.maxBookingsPerDay) failed.push('daily-limit-reached');
  }
  if (failed.length === 0) return { reason: null, candidates };
  return { reason: RULE_ORDER[Math.min(...failed.map((reason) => RULE_ORDER.indexOf(reason)))]! };
}

/** The rules in the order `checkBookable` judges them (grid, clock, cap, occupancy, busy time). */
const RULE_ORDER: readonly UnbookableReason[] = [
  'outside-availability',
  'before-minimum-notice',
  'beyond-booking-window',
  'daily-limit-reached',
  'overlaps-booking',
  'overlaps-busy-time',
  'no-seats-left',
];

/** The round-robin hosts one of whom must be free: the non-fixed ones, or just `hostId` among them. */
function candidatesOf<Host extends { holderId: string; fixed: boolean }>(
  hosts: readonly Host[],
  hostId: string | null,
): Host[] {
  return hosts.filter((host) => !host.fixed && (hostId === null || host.holderId === hostId));
}

/** The team type's distinct bookings and holds per local date of the cap's zone. */
function bookingsPerDay(cap: TeamDailyCap): Map<EpochDay, number> {
  const counted = new Set<string>();
  const perDay = new Map<EpochDay, number>();
  for (const booking of cap.bookings) {
    if (booking.eventTypeId !== cap.eventTypeId || counted.has(booking.id)) continue;
    counted.add(booking.id);
    const day = cap.zone.dayOf(booking.start);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  return perDay;
}

/** Where the team type's seated occurrences start: a seat joins one there without adding to the cap's count. */
function occurrenceStarts(cap: TeamDailyCap): Set<Instant> {
  const starts = new Set<Instant>();
  for (const booking of cap.bookings)
    if (booking.seats !== undefined && booking.eventTypeId === cap.eventTypeId) starts.add(booking.start);
  return starts;
}

/**
 * The ascending `starts` less those on a full local date (but a seated occurrence's, which a
 * seat joins), in place (they are the combination's own).
 */
function withoutFullDays(starts: Float64Array, cap: TeamDailyCap): Float64Array {
  const limit = cap.maxBookingsPerDay;
  if (limit === null || starts.length === 0) return starts;
  const full = [...bookingsPerDay(cap)].filter(([, count]) => count >= limit).map(([day]) => day);
  if (full.length === 0) return starts;
  // Full dates as instants, ascending: one forward walk over them with the starts.
  const edges = full.sort((a, b) => a - b).map((day) => [cap.zone.startOfDay(day), cap.zone.startOfDay(day + 1)]);
  const joined = occurrenceStarts(cap);
  let kept = 0;
  let next = 0;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    while (next < edges.length && edges[next]![1]! <= start) next++;
    if (next < edges.length && edges[next]![0]! <= start && !joined.has(start)) continue;
    starts[kept++] = start;
  }
  return starts.subarray(0, kept);
}

/**
 * The starts in every list (each ascending, each start once), as a new array: one forward walk,
 * driven by the shortest list, with a cursor per other list. None for no lists.
 */
function intersectStarts(lists: readonly Float64Array[]): Float64Array {
  if (lists.length === 0) return new Float64Array(0);
  let shortest = 0;
  for (let i = 1; i < lists.length; i++) if (lists[i]!.length < lists[shortest]!.length) shortest = i;
  const driver = lists[shortest]!;
  const others = lists.filter((_, i) => i !== shortest);
  const cursors = new Int32Array(others.length);
  const common = new Float64Array(driver.length);
  let length = 0;
  candidates: for (let i = 0; i < driver.length; i++) {
    const start = driver[i]!;
    for (let j = 0; j < others.length; j++) {
      const list = others[j]!;
      let cursor = cursors[j]!;
      while (cursor < list.length && list[cursor]! < start) cursor++;
      cursors[j] = cursor;
      // One list used up: no later start is common either.
      if (cursor === list.length) break candidates;
      if (list[cursor] !== start) continue candidates;
    }
    common[length++] = start;
  }
  return common.subarray(0, length);
}

/**
 * The starts in at least one list (each ascending, each start once), ascending and each once: lists merged in pairs, round by round. Hosts of a team mostly share a grid, so each
 * round about halves what is left: about twice the input's length in all, where a heap over the
 * lists would pay a logarithm per start.
 */
function uniteStarts(lists: readonly Float64Array[]): Float64Array {
  if (lists.length === 0) return new Float64Array(0);
  let round = [...lists];
  while (round.length > 1) {
    const next: Float64Array[] = [];
    for (let i = 0; i + 1 < round.length; i += 2) next.push(mergeUnique(round[i]!, round[i + 1]!));
    if (round.length % 2 === 1) next.push(round[round.length - 1]!);
    round = next;
  }
  // One list is handed back as it is: the intersection after it copies.
  return round[0]!;
}

function mergeUnique(a: Float64Array, b: Float64Array): Float64Array {
  const merged = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let length = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x <= y) {
      merged[length++] = x;
      i++;
      if (x === y) j++;
    } else {
      merged[length++] = y;
      j++;
    }
  }
  while (i < a.length) merged[length++] = a[i++]!;
  while (j < b.length) merged[length++] = b[j++]!;
  return merged.subarray(0, length);
}
