// Counts a key's requests in fixed windows, for the rate limit.
import type { Instant } from '../../domain/instant.js';

export interface RequestCounter {
  /** The number of requests of the key in the window starting at `windowStart`, this one included. */
  count(apiKeyId: string, windowStart: Instant): Promise<number>;
}
