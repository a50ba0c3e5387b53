// Counts a requester's requests in fixed windows, for the rate limit: an API key, and for an
// account key each holder it acts for apart (`requesterOf` in app/context.ts).
import type { Instant } from '../../domain/instant.js';

export interface RequestCounter {
  /** The number of requests of the key in the window starting at `windowStart`, this one included. */
  count(requester: string, windowStart: Instant): Promise<number>;
}

/** Each key's count per window in the database, shared by every instance over it (PostgreSQL). */
export interface SharedRequestCounts {
  /** Adds `requests` to the key's count in the window, and answers the count with them. */
  add(requester: string, windowStart: Instant, requests: number): Promise<number>;
}
