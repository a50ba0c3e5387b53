import { describe, expect, it } from 'vitest';
import { EventLoopLoad, GiveWay } from '../../src/worker/event-loop-load.js';

describe('GiveWay', () => {
  it('when the loop is saturated, then the work waits, for at most its bound at a time, and again after a calm', () => {
    let saturated = true;
    const giveWay = new GiveWay(() => saturated, 1_000);
    expect(giveWay.waitNow(0)).toBe(true);
    expect(giveWay.waitNow(999)).toBe(true);
    // Saturated for its whole bound: the work takes its share now.
    expect(giveWay.waitNow(1_000)).toBe(false);
    expect(giveWay.waitNow(5_000)).toBe(false);
    saturated = false;
    expect(giveWay.waitNow(5_001)).toBe(false);
    // A new burst: the bound counts from its start.
    saturated = true;
    expect(giveWay.waitNow(6_000)).toBe(true);
    expect(giveWay.waitNow(6_999)).toBe(true);
    expect(giveWay.waitNow(7_000)).toBe(false);
  });

  it('when its bound is 0, then the work never waits', () => {
    expect(new GiveWay(() => true, 0).waitNow(0)).toBe(false);
  });
});

describe('EventLoopLoad', () => {
  it('when the loop ran code all the time since the last look, then it is saturated; when it waited, not', async () => {
    const load = new EventLoopLoad(0.9);
    const busyUntil = Date.now() + 100;
    while (Date.now() < busyUntil);
    expect(load.saturated()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(load.saturated()).toBe(false);
  });
});
