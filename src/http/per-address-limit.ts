import type { Instant } from '../domain/instant.js';

const WINDOW_MS = 60_000;
/**
 * Addresses counted per window by default. Past it, the addresses not yet counted share one
 * count, so a flood of addresses cannot grow the map (and the shared count is soon over the limit).
 */
const MAX_ADDRESSES = 50_000;
const OTHERS = '(other addresses)';

/**
 * Events per client address in fixed one-minute windows, in this process's memory (each
 * instance limits what reaches it): failed authentications (past the limit an address's requests
 * are refused before any key is looked up, `AUTH_FAILURE_RATE_LIMIT_PER_MINUTE`), and requests to
 * the public pages (`PUBLIC_RATE_LIMIT_PER_MINUTE`).
 */
export class PerAddressLimit {
  private windowStart = 0;
  private readonly failures = new Map<string, number>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => Instant,
    private readonly maxAddresses = MAX_ADDRESSES,
  ) {}

  /** Addresses counted separately in this window (at most `maxAddresses`, plus the shared count). */
  get trackedAddresses(): number {
    return this.failures.size;
  }

  /** Seconds until the address may try again, or 0 when it may now. */
  retryAfterSeconds(address: string): number {
    // The common case, on every keyed request: nothing counted lately, so not even the clock is read.
    if (this.failures.size === 0) return 0;
    this.rollWindow();
    const count = this.failures.get(address) ?? this.failures.get(OTHERS) ?? 0;
    if (count < this.perMinute) return 0;
    return Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - this.now()) / 1000));
  }

  record(address: string): void {
    this.rollWindow();
    const key = this.failures.has(address) || this.failures.size < this.maxAddresses ? address : OTHERS;
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
  }

  private rollWindow(): void {
    const start = Math.floor(this.now() / WINDOW_MS) * WINDOW_MS;
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.failures.clear();
    }
  }
}
