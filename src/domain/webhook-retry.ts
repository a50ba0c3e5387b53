import type { Instant } from './instant.js';

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 27.6 h of retries after the first attempt. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** ±10 %: receivers that failed together do not all get retried in the same second. */
export const JITTER_RATIO = 0.1;

/** A receiver's Retry-After is honoured up to a day; beyond that the schedule decides. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export type AttemptResult =
  | { kind: 'success' }
  /** The receiver said the endpoint is gone (410): stop, and disable the webhook. */
  | { kind: 'gone' }
  | { kind: 'failure'; retryAfterMs: number | null };

/** Where a delivery goes after an attempt. */
export type DeliveryDecision =
  | { status: 'succeeded' }
  | { status: 'failed'; disableWebhook: boolean }
  | { status: 'pending'; nextAttemptAt: Instant };

/**
 * What happens to a delivery after an attempt. `failuresSoFar` counts failed attempts on the
 * current schedule including this one; `random` is in [0, 1).
 */
export function decideAfterAttempt(
  result: AttemptResult,
  failuresSoFar: number,
  now: Instant,
  schedule: readonly number[],
  random: number,
): DeliveryDecision {
  if (result.kind === 'success') return { status: 'succeeded' };
  if (result.kind === 'gone') return { status: 'failed', disableWebhook: true };
  const base = schedule[failuresSoFar - 1];
  if (base === undefined) return { status: 'failed', disableWebhook: false };
  const jittered = Math.round(base * (1 + JITTER_RATIO * (2 * random - 1)));
  const retryAfter = result.retryAfterMs === null ? 0 : Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS);
  return { status: 'pending', nextAttemptAt: now + Math.max(jittered, retryAfter) };
}

/** `Retry-After` as delay-seconds or an HTTP-date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: Instant): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
