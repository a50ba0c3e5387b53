// The rate limit's leased counter (src/app/leased-request-counter.ts): every instance counts a
// key's requests against one count in the database, a run of counts per statement while the key
// is far from its limit, exactly near it. Several counters over one store stand for instances.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeasedRequestCounter } from '../../src/app/leased-request-counter.js';
import type { SharedRequestCounts } from '../../src/app/ports/request-counter.js';
import { createHarness, type Harness } from '../support/harness.js';

const WINDOW = Date.UTC(2026, 2, 2, 10, 0);

let h: Harness;
let statements: number;
let counts: SharedRequestCounts;

beforeEach(async () => {
  h = await createHarness();
  statements = 0;
  counts = {
    add: (requester, windowStart, requests) => {
      statements++;
      return h.storage.requestCounts.add(requester, windowStart, requests);
    },
  };
});

afterEach(async () => {
  await h.close();
});

/** `n` requests of the key at once on `counter`, in the window. */
function burst(counter: LeasedRequestCounter, n: number, key = 'key_a', window = WINDOW): Promise<number[]> {
  return Promise.all(Array.from({ length: n }, () => counter.count(key, window)));
}

describe('leased request counter', () => {
  it('when a key is far from its limit, then one statement counts sixteen of its requests, and each gets its own count', async () => {
    const counter = new LeasedRequestCounter(counts, 600);
    const seen: number[] = [];
    for (let i = 0; i < 64; i++) seen.push(await counter.count('key_a', WINDOW));
    expect(seen).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    expect(statements).toBe(4);
  });

  it('when three instances take a burst of one key at its limit, then exactly the limit is answered, each count up to it handed out once', async () => {
    const limit = 30;
    const instances = [0, 1, 2].map(() => new LeasedRequestCounter(counts, limit));
    const all = (await Promise.all(instances.map((counter) => burst(counter, 20)))).flat();
    expect(all.filter((count) => count <= limit).sort((a, b) => a - b)).toEqual(
      Array.from({ length: limit }, (_, i) => i + 1),
    );
    expect(all.filter((count) => count > limit)).toHaveLength(60 - limit);
  });

  it('when instances share a key over a whole minute, then no more than its limit is answered, and no count is lost near it', async () => {
    const limit = 200;
    const instances = [0, 1, 2].map(() => new LeasedRequestCounter(counts, limit));
    // Round robin, as a load balancer sends them: every instance keeps getting the key's requests,
    // so every count it leased is handed out.
    const answered: number[] = [];
    for (let round = 0; round < 100; round++) {
      const counts = await Promise.all(instances.map((counter) => counter.count('key_a', WINDOW)));
      answered.push(...counts.filter((count) => count <= limit));
    }
    expect(answered.sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i + 1));
  });

  it('when an instance near the limit gets one of a key’s requests and another gets the rest, then the limit is still answered in full', async () => {
    const limit = 30;
    const [first, second] = [0, 1].map(() => new LeasedRequestCounter(counts, limit));
    // Within 64 of the limit, an instance takes only the count it needs: none is left unused.
    const answered = [await first!.count('key_a', WINDOW)];
    for (let i = 0; i < 40; i++) answered.push(await second!.count('key_a', WINDOW));
    expect(answered.filter((count) => count <= limit)).toHaveLength(limit);
  });

  it('when the limit is passed, then the rest of the window is refused without a statement, and the next window starts again', async () => {
    const counter = new LeasedRequestCounter(counts, 5);
    await burst(counter, 6);
    const sent = statements;
    expect((await burst(counter, 10)).every((count) => count > 5)).toBe(true);
    expect(statements).toBe(sent);
    expect(await counter.count('key_a', WINDOW + 60_000)).toBe(1);
    // Another key has its own count.
    expect(await counter.count('key_b', WINDOW)).toBe(1);
  });
});
