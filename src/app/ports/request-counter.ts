// Counts a key's requests in fixed windows, in the database: what instances over one PostgreSQL
// share for the rate limit.
import type { Instant } from '../../domain/instant.js';

export interface RequestCounter {
  /** Adds `requests` to the key's count in the window starting at `windowStart`; the count after. */
  add(apiKeyId: string, windowStart: Instant, requests: number): Promise<number>;
}
