import { Temporal } from 'temporal-polyfill';

/** Epoch milliseconds: the one representation of an instant inside Slotwise. */
export type Instant = number;

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

// Bounds keep every instant inside what both JavaScript dates and the stores represent exactly.
const MIN_INSTANT = Date.UTC(1970, 0, 1);
const MAX_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// Extended ISO-8601 date-time with a mandatory offset. Temporal does the calendar validation;
// this shape check keeps out the forms Temporal also accepts but an API should not
// (basic format, bracketed zone annotations, missing offset).
const ISO_WITH_OFFSET =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

export type ParsedInstant = { ok: true; value: Instant } | { ok: false; message: string };

export function parseInstant(input: string | number): ParsedInstant {
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) {
      return { ok: false, message: 'must be an integer number of epoch milliseconds' };
    }
    return inBounds(input);
  }
  if (!ISO_WITH_OFFSET.test(input)) {
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/.test(input)) {
      return {
        ok: false,
        message: 'must carry an explicit offset (Z or ±hh:mm); a time without offset is never read as UTC',
      };
    }
    return {
      ok: false,
      message: 'must be an ISO-8601 date-time with an explicit offset, e.g. 2026-01-05T09:00:00+01:00',
    };
  }
  try {
    return inBounds(Temporal.Instant.from(input).epochMilliseconds);
  } catch {
    return { ok: false, message: 'is not a valid calendar date-time' };
  }
}

/**
 * Query strings arrive form-decoded, which turns the `+` of an offset into a space.
 * `2026-01-05T09:00:00 01:00` can only have meant `+01:00`; digits alone are epoch milliseconds.
 */
export function parseQueryInstant(input: string): ParsedInstant {
  if (/^\d{1,16}$/.test(input)) return parseInstant(Number(input));
  return parseInstant(input.replace(/ (\d{2}:\d{2})$/, '+$1'));
}

function inBounds(value: Instant): ParsedInstant {
  if (value < MIN_INSTANT || value > MAX_INSTANT) {
    return { ok: false, message: 'must lie between 1970-01-01 and 9999-12-31' };
  }
  return { ok: true, value };
}

export function formatUtc(instant: Instant): string {
  return new Date(instant).toISOString();
}

/** `2026-01-05T10:00:00+01:00`: the instant's wall time at the given UTC offset, with that offset. */
export function formatWithOffset(instant: Instant, offsetMs: number): string {
  const wall = new Date(instant + offsetMs).toISOString().slice(0, 19);
  const sign = offsetMs < 0 ? '-' : '+';
  const abs = Math.abs(offsetMs) / 1000;
  const hours = String(Math.floor(abs / 3600)).padStart(2, '0');
  const minutes = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  const seconds = abs % 60;
  return `${wall}${sign}${hours}:${minutes}${seconds ? `:${String(seconds).padStart(2, '0')}` : ''}`;
}
