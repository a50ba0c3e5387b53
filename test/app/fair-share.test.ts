// FairShare: a capacity shared by holders in turn (what the syncs' fetches, their room for parsing
// and the parser thread are; issue 25). One holder's many waiters never go ahead of another
// holder's next one.
import { describe, expect, it } from 'vitest';
import { FairShare } from '../../src/app/fair-share.js';

/** A holder alone in an account of its own, or `holder@account`. */
function ownerOf(holder: string) {
  const [holderId, accountId = holderId] = holder.split('@') as [string, string?];
  return { accountId, holderId };
}

/** Takes `units` for `holder` and records when it was granted. */
function take(share: FairShare, granted: string[], holder: string, name: string, units = 1) {
  return share.acquire(ownerOf(holder), units).then((release) => {
    granted.push(name);
    return release;
  });
}

describe('FairShare', () => {
  it('when one holder has many waiting and another comes later, then the other is served next', async () => {
    const share = new FairShare(1);
    const granted: string[] = [];
    const first = await take(share, granted, 'mallory', 'm1');
    const waiting = ['m2', 'm3', 'm4'].map((name) => take(share, granted, 'mallory', name));
    const alice = take(share, granted, 'alice', 'a1');
    first();
    (await alice)();
    for (const next of waiting) (await next)();
    expect(granted).toEqual(['m1', 'a1', 'm2', 'm3', 'm4']);
  });

  it('when an account’s many holders wait and another account’s one holder comes later, then the other account is served next, and the many holders take their account’s turns in turn', async () => {
    const share = new FairShare(1);
    const granted: string[] = [];
    const first = await take(share, granted, 'h1@big', 'h1');
    const waiting = [
      take(share, granted, 'h2@big', 'h2'),
      take(share, granted, 'h3@big', 'h3'),
      take(share, granted, 'h1@big', 'h1 again'),
      take(share, granted, 'h4@big', 'h4'),
    ];
    const small = take(share, granted, 'solo@small', 'solo');
    const smallAgain = take(share, granted, 'solo@small', 'solo again');
    first();
    await Promise.all([...waiting, small, smallAgain].map(async (grant) => (await grant)()));
    // One account of four holders gets one share, as the account of one holder does.
    expect(granted).toEqual(['h1', 'solo', 'h2', 'solo again', 'h3', 'h4', 'h1 again']);
  });

  it('when three holders wait, then they are served in turn, each holder in its own order', async () => {
    const share = new FairShare(1);
    const granted: string[] = [];
    const first = await take(share, granted, 'a', 'a1');
    const waiting = [
      take(share, granted, 'a', 'a2'),
      take(share, granted, 'a', 'a3'),
      take(share, granted, 'b', 'b1'),
      take(share, granted, 'b', 'b2'),
      take(share, granted, 'c', 'c1'),
    ];
    first();
    // Each grant is released at once, so the next turn follows.
    await Promise.all(waiting.map(async (grant) => (await grant)()));
    expect(granted).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('when a large request does not fit yet, then it keeps its turn and smaller ones of others wait behind it', async () => {
    const share = new FairShare(10);
    const granted: string[] = [];
    const six = await take(share, granted, 'a', 'a6', 6);
    const big = take(share, granted, 'b', 'b8', 8);
    const small = take(share, granted, 'c', 'c1', 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(granted).toEqual(['a6']);
    six();
    (await big)();
    (await small)();
    expect(granted).toEqual(['a6', 'b8', 'c1']);
    await expect(share.acquire(ownerOf('d'), 11)).rejects.toThrow(RangeError);
  });

  it('when a waiter is aborted, then it is refused with the reason and the next one is served', async () => {
    const share = new FairShare(1);
    const granted: string[] = [];
    const first = await take(share, granted, 'a', 'a1');
    const stop = new AbortController();
    const aborted = share.acquire(ownerOf('b'), 1, stop.signal);
    const next = take(share, granted, 'c', 'c1');
    stop.abort(new Error('shutting down'));
    await expect(aborted).rejects.toThrow('shutting down');
    first();
    (await next)();
    expect(granted).toEqual(['a1', 'c1']);
  });
});
