// The seat numbers this process's transactions chose (src/storage/kysely/seat-claims.ts): seen by
// every transaction open with the one that chose them, and by those that began before it ended
// (whose reads may have missed its commit); forgotten once no transaction could have missed them.
import { describe, expect, it } from 'vitest';
import { SeatClaimRegistry } from '../../src/storage/kysely/seat-claims.js';

const sorted = (numbers: ReadonlySet<number>) => [...numbers].sort((a, b) => a - b);

describe('seat claims', () => {
  it('when a transaction claims numbers, then transactions open with it see them, also after it ended, and one begun after it ended does not', () => {
    const registry = new SeatClaimRegistry();
    const first = registry.session();
    const second = registry.session();
    first.claim('evt@1', 3);
    first.claim('evt@1', 7);
    first.claim('evt@2', 3);
    expect(sorted(second.claimedIn('evt@1'))).toEqual([3, 7]);
    expect(sorted(second.claimedIn('evt@2'))).toEqual([3]);
    expect(sorted(second.claimedIn('evt@3'))).toEqual([]);
    first.release();
    // The second began before the first's commit: its reads may not show 3 and 7 taken.
    expect(sorted(second.claimedIn('evt@1'))).toEqual([3, 7]);
    const third = registry.session();
    expect(sorted(third.claimedIn('evt@1'))).toEqual([]);
  });

  it('when every transaction that could have missed a claim has ended, then it is forgotten', () => {
    const registry = new SeatClaimRegistry();
    const first = registry.session();
    const second = registry.session();
    first.claim('evt@1', 5);
    first.release();
    second.release();
    // Nothing kept: a session of an empty registry, which begins after both ended, sees none.
    expect(sorted(registry.session().claimedIn('evt@1'))).toEqual([]);
    expect((registry as unknown as { claims: Set<unknown> }).claims.size).toBe(0);
  });

  it('when two transactions claim one number, then it stays claimed for a new one until both have ended, and a second release changes nothing', () => {
    const registry = new SeatClaimRegistry();
    const first = registry.session();
    const second = registry.session();
    first.claim('evt@1', 5);
    second.claim('evt@1', 5);
    first.release();
    expect(sorted(registry.session().claimedIn('evt@1'))).toEqual([5]);
    second.release();
    const later = registry.session();
    expect(sorted(later.claimedIn('evt@1'))).toEqual([]);
    later.claim('evt@1', 5);
    first.release();
    expect(sorted(registry.session().claimedIn('evt@1'))).toEqual([5]);
  });
});
