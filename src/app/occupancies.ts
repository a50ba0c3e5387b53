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
 * they occupy its time together, a daily cap counts the occurrence once, and `seats` says how
 * many it has (distinct bookings and holds: an event type's rows, of several hosts, count each
 * seat once). It takes the smallest id of its seats, the same on every host's list.
 */
function seatsTogether(live: StoredOccupancy[]): StoredOccupancy[] {
  if (live.every((occupancy) => occupancy.occurrence === null)) return live;
  const together: StoredOccupancy[] = [];
  const occurrences = new Map<string, { index: number; seats: Set<string> }>();
  for (const occupancy of live) {
    if (occupancy.occurrence === null) {
      together.push(occupancy);
      continue;
    }
    const known = occurrences.get(occupancy.occurrence);
    if (!known) {
      occurrences.set(occupancy.occurrence, { index: together.length, seats: new Set([occupancy.id]) });
      together.push({ ...occupancy, seats: 1 });
      continue;
    }
    known.seats.add(occupancy.id);
    const first = together[known.index]!;
    together[known.index] = {
      ...first,
      id: occupancy.id < first.id ? occupancy.id : first.id,
      seats: known.seats.size,
      // Held while every seat is a hold: until the last of them expires.
      expiresAt:
        first.expiresAt === null || occupancy.expiresAt === null
          ? null
          : Math.max(first.expiresAt, occupancy.expiresAt),
    };
  }
  return together;
}
