// Which host a round-robin booking goes to (contract §14): the highest priority; then the lowest
// load (recent bookings ÷ weight); then the one booked longest ago (never booked first); then the
// smallest holder id.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundRobinOrder, type RoundRobinCandidate } from '../../src/domain/round-robin.js';
import { ms } from './support.js';

function candidate(holderId: string, fields: Partial<RoundRobinCandidate> = {}): RoundRobinCandidate {
  return { holderId, priority: 2, weight: 100, recentBookings: 0, lastBookedAt: null, ...fields };
}

describe('roundRobinOrder', () => {
  it('when priorities differ, then the highest goes first, however loaded and however recently booked', () => {
    const order = roundRobinOrder([
      candidate('hdr_a', { priority: 2, recentBookings: 0 }),
      candidate('hdr_b', { priority: 4, recentBookings: 50, lastBookedAt: ms('2026-03-02T09:00:00Z') }),
      candidate('hdr_c', { priority: 0 }),
    ]);
    expect(order).toEqual(['hdr_b', 'hdr_a', 'hdr_c']);
  });

  it('when priorities tie, then the lowest load goes first, load being bookings per weight', () => {
    // 3 bookings at weight 100 is a load of 0.03; 5 at weight 200 is 0.025: the heavier host is less loaded.
    const order = roundRobinOrder([
      candidate('hdr_a', { recentBookings: 3, weight: 100 }),
      candidate('hdr_b', { recentBookings: 5, weight: 200, lastBookedAt: ms('2026-03-02T09:00:00Z') }),
    ]);
    expect(order).toEqual(['hdr_b', 'hdr_a']);
  });

  it('when loads are equal as fractions (2 of 200 and 1 of 100), then the one booked longest ago goes first', () => {
    const order = roundRobinOrder([
      candidate('hdr_a', { recentBookings: 2, weight: 200, lastBookedAt: ms('2026-03-02T10:00:00Z') }),
      candidate('hdr_b', { recentBookings: 1, weight: 100, lastBookedAt: ms('2026-03-02T09:00:00Z') }),
    ]);
    expect(order).toEqual(['hdr_b', 'hdr_a']);
  });

  it('when loads tie, then a host never booked for the type goes before every host booked before', () => {
    const order = roundRobinOrder([
      candidate('hdr_a', { lastBookedAt: ms('2020-01-01T00:00:00Z') }),
      candidate('hdr_z', { lastBookedAt: null }),
    ]);
    expect(order).toEqual(['hdr_z', 'hdr_a']);
  });

  it('when everything else ties, then the smallest holder id goes first', () => {
    expect(roundRobinOrder([candidate('hdr_b'), candidate('hdr_ab'), candidate('hdr_a')])).toEqual([
      'hdr_a',
      'hdr_ab',
      'hdr_b',
    ]);
  });

  it('when there is no candidate, then the order is empty', () => {
    expect(roundRobinOrder([])).toEqual([]);
  });
});

// Few distinct values per criterion, so that ties (and so the later criteria) come up often.
const fields = fc.record({
  priority: fc.integer({ min: 0, max: 4 }),
  weight: fc.constantFrom(1, 2, 3, 50, 100, 150, 200, 1000),
  recentBookings: fc.integer({ min: 0, max: 6 }),
  lastBookedAt: fc.option(fc.integer({ min: 0, max: 3 }).map((n) => ms('2026-03-01T00:00:00Z') + n * 3_600_000)),
});

const candidates = fc
  .uniqueArray(fc.stringMatching(/^hdr_[0-9a-z]{1,3}$/), { minLength: 0, maxLength: 8 })
  .chain((ids) => fc.tuple(...ids.map((id) => fields.map((f): RoundRobinCandidate => ({ holderId: id, ...f })))));

/**
 * Which of two candidates goes first by the contract's criteria read one after the other; the
 * load compared as exact fractions (BigInt cross products).
 */
function goesFirst(a: RoundRobinCandidate, b: RoundRobinCandidate): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  const loadA = BigInt(a.recentBookings) * BigInt(b.weight);
  const loadB = BigInt(b.recentBookings) * BigInt(a.weight);
  if (loadA !== loadB) return loadA < loadB;
  if (a.lastBookedAt !== b.lastBookedAt) {
    if (a.lastBookedAt === null) return true;
    if (b.lastBookedAt === null) return false;
    return a.lastBookedAt < b.lastBookedAt;
  }
  return a.holderId < b.holderId;
}

describe('roundRobinOrder properties (random candidates with many ties)', () => {
  it('when candidates are ordered, then every candidate comes once and each goes before every later one by the first criterion that tells them apart', () => {
    fc.assert(
      fc.property(candidates, (list) => {
        const order = roundRobinOrder(list);
        expect([...order].sort()).toEqual(list.map((c) => c.holderId).sort());
        const byId = new Map(list.map((c) => [c.holderId, c]));
        for (let i = 0; i < order.length; i++) {
          for (let j = i + 1; j < order.length; j++) {
            expect(goesFirst(byId.get(order[i]!)!, byId.get(order[j]!)!), `${order[i]} before ${order[j]}`).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('when the same candidates come in another order, then the answer is the same', () => {
    fc.assert(
      fc.property(
        candidates.chain((list) =>
          fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length })),
        ),
        ([list, shuffled]) => {
          expect(roundRobinOrder(shuffled)).toEqual(roundRobinOrder(list));
        },
      ),
      { numRuns: 300 },
    );
  });
});
