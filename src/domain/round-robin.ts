/** Which host a round-robin booking goes to (contract §14), among the non-fixed hosts free at its start. */
import type { Instant } from './instant.js';

export interface RoundRobinCandidate {
  holderId: string;
  /** 0–4: higher goes first. */
  priority: number;
  /** 1–1000: a host of twice the weight takes twice the bookings. */
  weight: number;
  /** Its confirmed bookings of this event type created in the 30 days before now. */
  recentBookings: number;
  /** When its last booking of this event type was created; null when it never had one. */
  lastBookedAt: Instant | null;
}

/**
 * The candidates' ids, the one to book first: the highest priority; then the lowest load
 * (`recentBookings ÷ weight`, compared exactly as integer cross products); then the one booked
 * longest ago for this type, one never booked before any other; then the smallest holder id
 * (compared by code unit: ids are lower-case ASCII). A total order, so any order of the input gives the same
 * answer. The whole order rather than one id: when the store refuses the first (a booking won the
 * time meanwhile), the decision goes on with the next.
 */
export function roundRobinOrder(candidates: readonly RoundRobinCandidate[]): string[] {
  return [...candidates].sort(beforeInTurn).map((candidate) => candidate.holderId);
}

function beforeInTurn(a: RoundRobinCandidate, b: RoundRobinCandidate): number {
  return (
    b.priority - a.priority ||
    a.recentBookings * b.weight - b.recentBookings * a.weight ||
    lastBookedOrder(a.lastBookedAt, b.lastBookedAt) ||
    (a.holderId < b.holderId ? -1 : a.holderId > b.holderId ? 1 : 0)
  );
}

function lastBookedOrder(a: Instant | null, b: Instant | null): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  return a - b;
}
