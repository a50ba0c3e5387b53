import type { Instant } from '../domain/instant.js';
import type { RequestCounter, SharedRequestCounts } from './ports/request-counter.js';

/** Counts taken for later requests of a key, with the one that asks, while the key is far from its limit. */
const EXTRA_PER_LEASE = 15;
/** Within this many requests of the limit, a lease covers only the requests waiting for it. */
const EXACT_TAIL = 64;
/** Keys with a lease at once; past this, the leases are forgotten (their counts stay taken). */
const MAX_LEASED_KEYS = 10_000;

interface Lease {
  windowStart: Instant;
  /** The next count of the key this process may hand out… */
  next: number;
  /** …up to this one, the shared count when the lease was taken. */
  last: number;
}

/**
 * A key's requests counted against the count all instances share (PostgreSQL), a lease at a time:
 * one statement takes a run of counts, which this process then hands out to the key's requests
 * without asking again. Far from the limit a lease takes 16 counts; within `EXACT_TAIL` of it, only
 * as many as requests are waiting, so the limit holds exactly as with a statement per request:
 * every count is handed out once, and no more requests than the limit are answered, over all
 * instances. The price: counts leased by an instance that then gets none of the key's requests
 * are never used, so a key whose requests move between instances may be refused up to 15 requests
 * per instance before its limit, in a minute in which it reaches it. Once the shared count is past
 * the limit, the window's remaining requests are refused without a statement.
 */
export class LeasedRequestCounter implements RequestCounter {
  private readonly leases = new Map<string, Lease>();
  /** One lease taken at a time per key; the requests that arrive meanwhile wait for it. */
  private readonly leasing = new Map<string, Promise<void>>();
  private readonly waiting = new Map<string, number>();

  constructor(
    private readonly counts: SharedRequestCounts,
    private readonly perMinute: number,
  ) {}

  async count(requester: string, windowStart: Instant): Promise<number> {
    for (;;) {
      const lease = this.leases.get(requester);
      if (lease && lease.windowStart === windowStart) {
        if (lease.next <= lease.last) return lease.next++;
        // The shared count only grows in a window: past the limit, every later request is refused.
        if (lease.last > this.perMinute) return ++lease.last;
      }
      await this.waitForLease(requester, windowStart);
    }
  }

  private async waitForLease(requester: string, windowStart: Instant): Promise<void> {
    this.waiting.set(requester, (this.waiting.get(requester) ?? 0) + 1);
    try {
      let taking = this.leasing.get(requester);
      if (!taking) {
        taking = this.takeLease(requester, windowStart).finally(() => this.leasing.delete(requester));
        this.leasing.set(requester, taking);
      }
      await taking;
    } finally {
      const left = this.waiting.get(requester)! - 1;
      if (left === 0) this.waiting.delete(requester);
      else this.waiting.set(requester, left);
    }
  }

  private async takeLease(requester: string, windowStart: Instant): Promise<void> {
    const known = this.leases.get(requester);
    const counted = known?.windowStart === windowStart ? known.last : 0;
    const asked = this.waiting.get(requester) ?? 1;
    const size = this.perMinute - counted > EXACT_TAIL ? asked + EXTRA_PER_LEASE : asked;
    const last = await this.counts.add(requester, windowStart, size);
    if (this.leases.size >= MAX_LEASED_KEYS && !this.leases.has(requester)) this.leases.clear();
    this.leases.set(requester, { windowStart, next: last - size + 1, last });
  }
}
