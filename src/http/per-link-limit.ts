import type { Instant } from '../domain/instant.js';

const WINDOW_MS = 60_000;
/** Links counted per window by default (about 100 bytes each). */
const MAX_LINKS = 50_000;

/**
 * Requests per capability link (a booking's `.ics`, a holder's feed) in fixed one-minute windows,
 * in this process's memory (`PUBLIC_FILE_RATE_LIMIT_PER_MINUTE`). Per link, not per address:
 * calendar apps poll feeds from a few shared addresses (Google's, Apple's), which a per-address
 * limit would refuse for everyone behind them. Only links that opened something are recorded, so
 * forged ones neither fill the map nor push a real link over its bound; past `maxLinks` links in a
 * window, further links go uncounted until the next one (memory stays bounded, and no real
 * calendar is refused for someone else's traffic).
 */
export class PerLinkLimit {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => Instant,
    private readonly maxLinks = MAX_LINKS,
  ) {}

  /** Seconds until the link may be fetched again, or 0 when it may now. */
  retryAfterSeconds(link: string): number {
    if (this.counts.size === 0) return 0;
    this.rollWindow();
    if ((this.counts.get(link) ?? 0) < this.perMinute) return 0;
    return Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - this.now()) / 1000));
  }

  /** Counts a request of a link that opened something. */
  record(link: string): void {
    this.rollWindow();
    const count = this.counts.get(link);
    if (count === undefined && this.counts.size >= this.maxLinks) return;
    this.counts.set(link, (count ?? 0) + 1);
  }

  private rollWindow(): void {
    const start = Math.floor(this.now() / WINDOW_MS) * WINDOW_MS;
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts.clear();
    }
  }
}
