import { Temporal } from 'temporal-polyfill';

/** Epoch milliseconds: the one representation of an instant inside Slotwise. */
export type Instant = number;

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

// Bounds keep every instant inside what both JavaScript dates and the stores represent exactly.
const MIN_INSTANT = Date.UTC(1970, 0, 1);
const MAX_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// Extended ISO-8601 date-time with a mandatory offset. Temporal does the calendar validation;
// this shape check keeps out the forms Temporal also accepts but an API should not
// (basic format, bracketed zone annotations, missing offset).
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

export type ParsedInstant = { ok: true; value: Instant } | { ok: false; message: string };

export function parseInstant(input: string | number): ParsedInstant {
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) {
      return { ok: false, message: 'must be an integer number of epoch milliseconds' };
    }
    return inBounds(input);
  }
  const parts = ISO_WITH_OFFSET.exec(input);
  if (parts === null) {
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
  const fields = plainFields(parts);
  if (fields !== undefined) return inBounds(fields);
  try {
    return inBounds(Temporal.Instant.from(input).epochMilliseconds);
  } catch {
    return { ok: false, message: 'is not a valid calendar date-time' };
  }
}

/**
 * The instant of a matched date-time whose every field is plainly in range, computed from its
 * fields and literal offset: a slot query carries two, and Temporal's general parser was the
 * costliest part of one. Undefined for anything else (an invalid field, a leap second, a year
 * before 1000), which Temporal decides; the test suite holds both to the same answers.
 */
function plainFields(parts: RegExpExecArray): Instant | undefined {
  const year = Number(parts[1]);
  const month = Number(parts[2]);
  const day = Number(parts[3]);
  const hour = Number(parts[4]);
  const minute = Number(parts[5]);
  const second = parts[6] === undefined ? 0 : Number(parts[6]);
  const offsetMinutes = parts[8] === undefined ? 0 : Number(parts[9]) * 60 + Number(parts[10]);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (parts[8] !== undefined && (Number(parts[9]) > 23 || Number(parts[10]) > 59)) return undefined;
  if (day > daysInMonth(year, month)) return undefined;
  // Digits beyond the millisecond are cut, as Temporal's epochMilliseconds floors them.
  const millisecond = parts[7] === undefined ? 0 : Number(parts[7].slice(0, 3).padEnd(3, '0'));
  const sign = parts[8] === '-' ? -1 : 1;
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond) - sign * offsetMinutes * MINUTE_MS;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1]!;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/**
 * Query strings arrive form-decoded, which turns the `+` of an offset into a space.
 * `2026-01-05T09:00:00 01:00` can only have meant `+01:00`; digits alone are epoch milliseconds.
 */
export function parseQueryInstant(input: string): ParsedInstant {
  if (EPOCH_MS.test(input)) return parseInstant(Number(input));
  return parseInstant(input.includes(' ') ? input.replace(/ (\d{2}:\d{2})$/, '+$1') : input);
}

const EPOCH_MS = /^\d{1,16}$/;

function inBounds(value: Instant): ParsedInstant {
  if (value < MIN_INSTANT || value > MAX_INSTANT) {
    return { ok: false, message: 'must lie between 1970-01-01 and 9999-12-31' };
  }
  return { ok: true, value };
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));

export function formatUtc(instant: Instant): string {
  return new Date(instant).toISOString();
}

/** `+01:00` (or `-00:44:30` for the odd historical offset). */
function offsetSuffix(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const abs = Math.abs(offsetMs) / 1000;
  const seconds = abs % 60;
  return `${sign}${TWO_DIGITS[Math.floor(abs / 3600)]}:${TWO_DIGITS[Math.floor((abs % 3600) / 60)]}${seconds ? `:${TWO_DIGITS[seconds]}` : ''}`;
}

/** `2026-01-05T10:00:00+01:00`: the instant's wall time at the given UTC offset, with that offset. */
export function formatWithOffset(instant: Instant, offsetMs: number): string {
  return `${new Date(instant + offsetMs).toISOString().slice(0, 19)}${offsetSuffix(offsetMs)}`;
}
