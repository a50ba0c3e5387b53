import { isLive } from '../domain/hold.js';
import type { Instant } from '../domain/instant.js';
import type { StoredOccupancy } from './ports/store.js';

/** Stored occupancies as they stand at one instant. */
export interface OccupanciesAt {
  /** What occupies time now: confirmed bookings and live holds, in the order stored. */
  live: StoredOccupancy[];
  /** Holds that expired but are still stored: removed (`HoldWrites.dropExpired`) before their time is taken. */
  expiredHoldIds: string[];
  /** When the first live hold expires, and what `live` says stops being true; Infinity without one. */
  nextExpiry: Instant;
}

/** Splits what the store holds into what occupies time at `now` and expired holds (contract §9: free at `expiresAt`). */
export function occupanciesAt(stored: StoredOccupancy[], now: Instant): OccupanciesAt {
  // Most calendars have no holds: then everything stored is live, and `live` is `stored` itself.
  if (stored.every((occupancy) => occupancy.expiresAt === null)) {
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
  return { live, expiredHoldIds, nextExpiry };
}
