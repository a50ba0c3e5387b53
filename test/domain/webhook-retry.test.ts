import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_SCHEDULE_MS,
  MAX_RETRY_AFTER_MS,
  decideAfterAttempt,
  parseRetryAfter,
  type DeliveryDecision,
} from '../../src/domain/webhook-retry.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const failure = (retryAfterMs: number | null = null) => ({ kind: 'failure' as const, retryAfterMs });

/** The delay a pending decision schedules, relative to NOW. */
function delayOf(decision: DeliveryDecision): number {
  expect(decision.status).toBe('pending');
  if (decision.status !== 'pending') throw new Error('not pending');
  return decision.nextAttemptAt - NOW;
}

describe('decideAfterAttempt', () => {
  it('when the attempt succeeded, then the delivery succeeded, whatever failed before', () => {
    for (const failures of [0, 1, 7, 8, 50]) {
      expect(decideAfterAttempt({ kind: 'success' }, failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.3)).toEqual({
        status: 'succeeded',
      });
    }
  });

  it('when the receiver answered 410 Gone, then the delivery failed and the webhook is to be disabled, even on the first attempt', () => {
    for (const failures of [1, 3, 8]) {
      expect(decideAfterAttempt({ kind: 'gone' }, failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.5)).toEqual({
        status: 'failed',
        disableWebhook: true,
      });
    }
  });

  it('when the default schedule is read, then it is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ]);
  });

  it.each([
    [1, 5 * SECOND],
    [2, 5 * MINUTE],
    [3, 30 * MINUTE],
    [4, 2 * HOUR],
    [5, 5 * HOUR],
    [6, 10 * HOUR],
    [7, 10 * HOUR],
  ])(
    'when failure number %i happens with random 0.5, then the next attempt is exactly %i ms later',
    (failures, expected) => {
      expect(delayOf(decideAfterAttempt(failure(), failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.5))).toBe(expected);
    },
  );

  it('when random is 0, then the delay is 10 % shorter; when random is near 1, then it is 10 % longer', () => {
    DEFAULT_RETRY_SCHEDULE_MS.forEach((base, index) => {
      const failures = index + 1;
      expect(delayOf(decideAfterAttempt(failure(), failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0))).toBe(
        Math.round(base * 0.9),
      );
      const longest = delayOf(
        decideAfterAttempt(failure(), failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, 1 - Number.EPSILON),
      );
      expect(longest).toBeGreaterThan(base);
      expect(Math.abs(longest - base * 1.1)).toBeLessThanOrEqual(1);
    });
  });

  it('when any random in [0, 1) is drawn, then the delay stays within ±10 % of the schedule step and grows with random', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: DEFAULT_RETRY_SCHEDULE_MS.length }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (failures, a, b) => {
          const base = DEFAULT_RETRY_SCHEDULE_MS[failures - 1]!;
          const [low, high] = a <= b ? [a, b] : [b, a];
          const d1 = delayOf(decideAfterAttempt(failure(), failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, low));
          const d2 = delayOf(decideAfterAttempt(failure(), failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, high));
          expect(d1).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
          expect(d2).toBeLessThanOrEqual(Math.ceil(base * 1.1));
          expect(d1).toBeLessThanOrEqual(d2);
          expect(Number.isInteger(d1)).toBe(true);
        },
      ),
    );
  });

  it('when the 7th retry (the 8th attempt) fails, then the delivery failed without disabling the webhook', () => {
    // Seven delays follow seven failures; the failure after the last delay is final.
    expect(decideAfterAttempt(failure(), 7, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.5).status).toBe('pending');
    expect(decideAfterAttempt(failure(), 8, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.5)).toEqual({
      status: 'failed',
      disableWebhook: false,
    });
    expect(decideAfterAttempt(failure(5_000), 9, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.5)).toEqual({
      status: 'failed',
      disableWebhook: false,
    });
  });

  it('when every delay takes its shortest jitter, then the retries still span at least 24 hours', () => {
    let total = 0;
    for (let failures = 1; ; failures++) {
      const decision = decideAfterAttempt(failure(), failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0);
      if (decision.status !== 'pending') break;
      total += decision.nextAttemptAt - NOW;
    }
    expect(total).toBeGreaterThanOrEqual(24 * HOUR);
  });

  it('when a custom short schedule is given, then it is followed and ends after its last step', () => {
    const schedule = [200, 400, 800];
    expect(delayOf(decideAfterAttempt(failure(), 1, NOW, schedule, 0.5))).toBe(200);
    expect(delayOf(decideAfterAttempt(failure(), 3, NOW, schedule, 0.5))).toBe(800);
    expect(decideAfterAttempt(failure(), 4, NOW, schedule, 0.5)).toEqual({ status: 'failed', disableWebhook: false });
  });

  it('when Retry-After asks for longer than the schedule, then Retry-After wins', () => {
    expect(delayOf(decideAfterAttempt(failure(60 * SECOND), 1, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.5))).toBe(60 * SECOND);
    expect(delayOf(decideAfterAttempt(failure(2_000), 1, NOW, [200, 400], 0.5))).toBe(2_000);
  });

  it('when Retry-After asks for less than the schedule, then the schedule wins', () => {
    expect(delayOf(decideAfterAttempt(failure(1_000), 2, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.5))).toBe(5 * MINUTE);
    expect(delayOf(decideAfterAttempt(failure(0), 1, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0))).toBe(4_500);
  });

  it('when Retry-After asks for more than 24 hours, then it is capped at 24 hours', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(24 * HOUR);
    expect(delayOf(decideAfterAttempt(failure(72 * HOUR), 1, NOW, DEFAULT_RETRY_SCHEDULE_MS, 0.5))).toBe(24 * HOUR);
    // A longer schedule step still counts: the cap only limits Retry-After.
    expect(delayOf(decideAfterAttempt(failure(72 * HOUR), 1, NOW, [30 * HOUR], 0.5))).toBe(30 * HOUR);
  });

  it('when Retry-After and jitter are both in play, then the delay is the larger of the jittered step and the capped Retry-After', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: DEFAULT_RETRY_SCHEDULE_MS.length }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 100 * HOUR }), { nil: null }),
        (failures, random, retryAfter) => {
          const withoutRetryAfter = delayOf(
            decideAfterAttempt(failure(), failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, random),
          );
          const delay = delayOf(
            decideAfterAttempt(failure(retryAfter), failures, NOW, DEFAULT_RETRY_SCHEDULE_MS, random),
          );
          expect(delay).toBe(Math.max(withoutRetryAfter, Math.min(retryAfter ?? 0, 24 * HOUR)));
        },
      ),
    );
  });
});

describe('parseRetryAfter', () => {
  it('when the header is delay-seconds, then it is that many milliseconds', () => {
    expect(parseRetryAfter('2', NOW)).toBe(2_000);
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 7 ', NOW)).toBe(7_000);
  });

  it('when the header is an HTTP-date, then it is the time until that date', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:01:30 GMT', NOW)).toBe(90_000);
    expect(parseRetryAfter(new Date(NOW + 3 * HOUR).toUTCString(), NOW)).toBe(3 * HOUR);
  });

  it('when the HTTP-date is in the past, then the delay is 0', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', NOW)).toBe(0);
  });

  it.each([[undefined], [null], [''], ['soon'], ['12abc'], ['1e3'], ['in 5 minutes'], ['Mon']])(
    'when the header is absent or unreadable (%j), then null',
    (header) => {
      expect(parseRetryAfter(header, NOW)).toBeNull();
    },
  );
});
