// What keeps the tables from only growing: finished deliveries (with their attempts and events)
// and notifications
// past their retention, expired Idempotency-Keys and expired holds, removed in small batches by
// the worker.
import type { Instant } from '../../domain/instant.js';

export interface PurgeRequest {
  /** Deliveries that finished (succeeded or failed) before this go, with their attempts, and events left without deliveries. */
  finishedBefore: Instant;
  /** Idempotency-Keys and holds that expired by this go. */
  now: Instant;
  /** At most this many rows of each kind in one call: one short transaction that never holds up bookings for long. */
  limit: number;
}

export interface Housekeeping {
  /** Removes what is past keeping, at most `limit` rows of each kind; returns how many rows it removed. */
  purge(request: PurgeRequest): Promise<number>;
}
