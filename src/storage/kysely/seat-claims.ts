import type { SeatClaims } from '../../app/ports/store.js';

/** A number of an occurrence some transaction chose, and when that transaction ended (null: open). */
interface Claim {
  occurrence: string;
  number: number;
  endedAt: number | null;
}

/**
 * The seat numbers (`SeatClaims`) this process's write transactions chose: one per store, built
 * with it. Each transaction claims through a session of its own, ended with the transaction
 * (`release`). A transaction is told the numbers of the transactions still open, and of those that
 * ended after it began: their commit may have come after its reads, which then saw the number
 * free. A claim is forgotten once no open transaction began before its own ended, so the registry
 * holds only the claims of transactions open at once (each a decision or two) and of those that
 * ended while an older one ran.
 */
export class SeatClaimRegistry {
  /** Advances at every session's start and end: the order of those events. */
  private clock = 0;
  private readonly claims = new Set<Claim>();
  /** When each open session began. */
  private readonly openSince = new Set<{ startedAt: number }>();

  /** The claims of one transaction, begun now, until `release`. */
  session(): SeatClaims & { release(): void } {
    const open = { startedAt: ++this.clock };
    this.openSince.add(open);
    const mine: Claim[] = [];
    return {
      claimedIn: (occurrence) => {
        const numbers = new Set<number>();
        for (const claim of this.claims)
          if (claim.occurrence === occurrence && (claim.endedAt === null || claim.endedAt > open.startedAt))
            numbers.add(claim.number);
        return numbers;
      },
      claim: (occurrence, number) => {
        const claim = { occurrence, number, endedAt: null };
        this.claims.add(claim);
        mine.push(claim);
      },
      release: () => {
        if (!this.openSince.delete(open)) return;
        const endedAt = ++this.clock;
        for (const claim of mine) claim.endedAt = endedAt;
        this.forgetUnseen();
      },
    };
  }

  /** Drops the claims that ended before every open session began: each of those reads them as taken. */
  private forgetUnseen(): void {
    // Every write transaction ends here; most (whatever is not a seat) have claimed nothing.
    if (this.claims.size === 0) return;
    let oldestStart = Infinity;
    for (const open of this.openSince) oldestStart = Math.min(oldestStart, open.startedAt);
    for (const claim of this.claims)
      if (claim.endedAt !== null && claim.endedAt < oldestStart) this.claims.delete(claim);
  }
}

/** For records that run no write transaction of their own (reads outside one): nothing is claimed. */
export const NO_SEAT_CLAIMS: SeatClaims = {
  claimedIn: () => new Set(),
  claim: () => {
    throw new Error('seat numbers are claimed only in a write transaction');
  },
};
