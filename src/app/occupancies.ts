import { isLive } from '../domain/hold.js';
import type { Instant } from '../domain/instant.js';
import type { StoredOccupancy } from './ports/store.js';

/** Stored occupancies as they stand at one instant. */
export interface OccupanciesAt {
  /**
   * What occupies time now: confirmed bookings and live holds, in the order stored, the seats of
   * one occurrence as one (`seatsTogether`).
   */
  live: StoredOccupancy[];
  /** Holds that expired but are still stored: removed (`HoldWrites.dropExpired`) before their time is taken. */
  expiredHoldIds: string[];
  /** When the first live hold expires, and what `live` says stops being true; Infinity without one. */
  nextExpiry: Instant;
}

/** Splits what the store holds into what occupies time at `now` and expired holds (contract §9: free at `expiresAt`). */
export function occupanciesAt(stored: StoredOccupancy[], now: Instant): OccupanciesAt {
  // Most calendars have no holds and no seats: then everything stored is live, and `live` is `stored` itself.
  if (stored.every((occupancy) => occupancy.expiresAt === null && occupancy.occurrence === null)) {
    return { live: stored, expiredHoldIds: [], nextExpiry: Infinity };
  }
  const live: StoredOccupancy[] = [];
  const expiredHoldIds: string[] = [];
  let nextExpiry = Infinity;
  for (const occupancy of stored) {
    if (occupancy.expiresAt === null) live.push(occupancy);
    else if (isLive(occupancy.expiresAt, now)) {
      live.push(occupancy);
      nextExpiry = Math.min(nextExpiry, occupancy.expiresAt);
    } else expiredHoldIds.push(occupancy.id);
  }
  return { live: seatsTogether(live), expiredHoldIds, nextExpiry };
}

/**
 * The live seats of each occurrence (contract §15) as one occupancy, in the place of its first:
 * they occupy its time together, a daily cap counts the occurrence once, `seats` says how many it
 * has (distinct bookings and holds: an event type's rows, of several hosts, count each seat once)
 * and `seatNumbers` which numbers they hold. It takes the smallest id of its seats, the same on
 * every host's list.
 */
function seatsTogether(live: StoredOccupancy[]): StoredOccupancy[] {
  if (live.every((occupancy) => occupancy.occurrence === null)) return live;
  const together: StoredOccupancy[] = [];
  const occurrences = new Map<
    string,
    {
      merged: StoredOccupancy & { seats: number; seatNumbers: number[] };
      /** The ids of its rows, each seat once (a read of several hosts has a seat's row on each). */
      ids: Set<string>;
      /** Seats beyond one that rows brought as one stand for. */
      together: number;
    }
  >();
  for (const occupancy of live) {
    if (occupancy.occurrence === null) {
      together.push(occupancy);
      continue;
    }
    // Seats a read brought as one already (`BookingReads.occupanciesOverlapping`) count as many.
    const numbers = occupancy.seatNumbers ?? (occupancy.seat === null ? [] : [occupancy.seat]);
    const known = occurrences.get(occupancy.occurrence);
    if (!known) {
      // A copy of its own, which the later seats change: the stored rows stay as read.
      const merged = { ...occupancy, seats: occupancy.seats ?? 1, seatNumbers: [...numbers] };
      occurrences.set(occupancy.occurrence, { merged, ids: new Set([occupancy.id]), together: merged.seats - 1 });
      together.push(merged);
      continue;
    }
    const { merged, ids } = known;
    if (ids.has(occupancy.id)) continue;
    ids.add(occupancy.id);
    known.together += (occupancy.seats ?? 1) - 1;
    merged.seatNumbers.push(...numbers);
    if (occupancy.id < merged.id) merged.id = occupancy.id;
    merged.seats = ids.size + known.together;
    // Held while every seat is a hold: until the last of them expires.
    merged.expiresAt =
      merged.expiresAt === null || occupancy.expiresAt === null
        ? null
        : Math.max(merged.expiresAt, occupancy.expiresAt);
  }
  return together;
}
