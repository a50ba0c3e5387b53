import type { Instant } from '../domain/instant.js';
import type { Interval } from '../domain/intervals.js';
import type { Calendar } from './calendars.js';
import type { AppContext } from './context.js';
import { occupanciesAt } from './occupancies.js';
import type { StoredOccupancy } from './ports/store.js';

/** What occupies a holder's time in a window, and its busy time there. */
export interface HolderTime {
  /** Live occupancies, the seats of one occurrence as one (`occupanciesAt`). */
  bookings: StoredOccupancy[];
  busy: Interval[];
}

/**
 * Each holder's time in `window` when its cached calendar cannot decide a slot query: the range
 * reaches beyond what the calendar holds (`occupancyWindow` is the inverse of `rangeDecidedBy`),
 * or a booking being moved (`moving`) must count as free. Every holder's occupancies are read in
 * one statement; busy time comes from the calendar where it covers the window (a superset does no
 * harm), else from the store, again in one statement for all such holders.
 */
export async function holdersTimeIn(
  context: AppContext,
  holderIds: readonly string[],
  calendars: readonly Calendar[],
  window: { from: Instant; to: Instant },
  now: Instant,
  moving?: string,
): Promise<HolderTime[]> {
  const covered = (calendar: Calendar) => window.from >= calendar.coveredFrom && window.to <= calendar.coveredTo;
  const uncovered = holderIds.filter((_, index) => !covered(calendars[index]!));
  const [occupancies, busyTime] = await Promise.all([
    context.store.bookings.occupanciesOverlappingOf(holderIds, window.from, window.to),
    uncovered.length === 0
      ? new Map<string, Interval[]>()
      : context.store.busyTime.overlappingOf(uncovered, window.from, window.to),
  ]);
  return holderIds.map((holderId, index) => {
    const stored = occupancies.get(holderId) ?? [];
    const calendar = calendars[index]!;
    return {
      bookings: occupanciesAt(moving === undefined ? stored : stored.filter((o) => o.id !== moving), now).live,
      busy: covered(calendar) ? calendar.busy : (busyTime.get(holderId) ?? []),
    };
  });
}
