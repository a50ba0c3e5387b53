// What the race tests on PostgreSQL share: a bookable day ahead, and the checks every race ends
// with (no 5xx, no instance error).
import { expect } from 'vitest';
import type { ApiResponse } from '../e2e/support.js';
import { errorLines, type Instance } from './instances.js';

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** Midnight (UTC) of the first Monday at least `days` days from now: default hours are Mon–Fri 09:00–17:00 UTC. */
export function mondayAhead(days: number): number {
  const from = Math.floor((Date.now() + days * DAY) / DAY) * DAY;
  const weekday = new Date(from).getUTCDay();
  return from + ((8 - weekday) % 7) * DAY;
}

export const iso = (instant: number) => new Date(instant).toISOString();

/** Every instance still running, none having logged an error. */
export function expectNoInstanceErrors(instances: readonly Instance[]): void {
  for (const instance of instances) {
    expect(instance.exited(), instance.name).toBe(false);
    expect(errorLines(instance), instance.name).toEqual([]);
  }
}

/** Every answer a 201 or a 409 `slot-unavailable`, none a 5xx. */
export function expectBookedOrRefused(answers: ApiResponse[]): void {
  for (const answer of answers) {
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    if (answer.status !== 201) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect((answer.body as { type: string }).type).toBe('urn:service:problem:slot-unavailable');
    }
  }
}
