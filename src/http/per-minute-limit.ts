import type { Instant } from '../domain/instant.js';

const WINDOW_MS = 60_000;
/** Keys counted separately per window by default (about 100 bytes each). */
const MAX_KEYS = 50_000;
const OTHERS = '(others)';

/**
 * What a window does with a new key once it counts `maxKeys`: `share` counts every further key as
 * one (a flood of keys cannot grow the map, and their shared count is soon over the limit: right
 * for clients, whose flood is the attack), `skip` leaves them uncounted until the next window
 * (right where a key is a capability link that opened something: no real link is refused for
 * someone else's traffic).
 */
export type WhenFull = 'share' | 'skip';

/**
 * Events per key in fixed one-minute windows, in this process's memory (each instance limits
 * what reaches it): per client address, failed authentications (`AUTH_FAILURE_RATE_LIMIT_PER_MINUTE`,
 * refused before any key is looked up) and requests to the public pages
 * (`PUBLIC_RATE_LIMIT_PER_MINUTE`); per capability link, requests of a booking's `.ics` or a
 * holder's feed (`PUBLIC_FILE_RATE_LIMIT_PER_MINUTE`: calendar apps poll feeds from a few shared
 * addresses, Google's, Apple's, which a per-address limit would refuse for everyone behind them).
 */
export class PerMinuteLimit {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => Instant,
    private readonly whenFull: WhenFull,
    private readonly maxKeys = MAX_KEYS,
  ) {}

  /** Keys counted separately in this window (at most `maxKeys`, plus a shared count). */
  get trackedKeys(): number {
    return this.counts.size;
  }

  /** Seconds until the key may be used again, or 0 when it may now. */
  retryAfterSeconds(key: string): number {
    // The common case, on every keyed request: nothing counted lately, so not even the clock is read.
    if (this.counts.size === 0) return 0;
    this.rollWindow();
    const count = this.counts.get(key) ?? (this.whenFull === 'share' ? this.counts.get(OTHERS) : undefined) ?? 0;
    if (count < this.perMinute) return 0;
    return Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - this.now()) / 1000));
  }

  record(key: string): void {
    this.rollWindow();
    let counted = key;
    if (!this.counts.has(key) && this.counts.size >= this.maxKeys) {
      if (this.whenFull === 'skip') return;
      counted = OTHERS;
    }
    this.counts.set(counted, (this.counts.get(counted) ?? 0) + 1);
  }

  private rollWindow(): void {
    const start = Math.floor(this.now() / WINDOW_MS) * WINDOW_MS;
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts.clear();
    }
  }
}
