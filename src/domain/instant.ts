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
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

export type ParsedInstant = { ok: true; value: Instant } | { ok: false; message: string };

/**
 * A request's instants are parsed twice (by its schema's format check, then by the use case that
 * needs the value) and Temporal's parser is the costlier part of a slot query: the latest results
 * are kept. Parsing is a pure function of the text.
 */
const recentlyParsed = new Map<string, ParsedInstant>();
const MAX_RECENTLY_PARSED = 256;

export function parseInstant(input: string | number): ParsedInstant {
  if (typeof input === 'number') return parseUncached(input);
  let parsed = recentlyParsed.get(input);
  if (parsed === undefined) {
    if (recentlyParsed.size >= MAX_RECENTLY_PARSED) recentlyParsed.clear();
    parsed = parseUncached(input);
    recentlyParsed.set(input, parsed);
  }
  return parsed;
}

function parseUncached(input: string | number): ParsedInstant {
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

/**
 * Slot lists format tens of thousands of instants per answer; they are whole minutes, mostly on
 * the same few days. Those take a cached date prefix and a table lookup instead of a Date each.
 */
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
let cachedDay = Number.NaN;
let cachedDatePrefix = '';

/** `2026-01-05T08:00:00` for a whole-minute instant (as UTC wall time), else undefined. */
function wholeMinuteWallTime(instant: Instant): string | undefined {
  if (instant % MINUTE_MS !== 0 || instant < 0 || instant > MAX_INSTANT) return undefined;
  const day = Math.floor(instant / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDatePrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  const minuteOfDay = (instant - day * DAY_MS) / MINUTE_MS;
  return `${cachedDatePrefix}${TWO_DIGITS[Math.floor(minuteOfDay / 60)]}:${TWO_DIGITS[minuteOfDay % 60]}:00`;
}

export function formatUtc(instant: Instant): string {
  const wall = wholeMinuteWallTime(instant);
  return wall === undefined ? new Date(instant).toISOString() : `${wall}.000Z`;
}

const offsetSuffixes = new Map<number, string>();

/** `+01:00` (or `-00:44:30` for the odd historical offset). */
function offsetSuffix(offsetMs: number): string {
  let suffix = offsetSuffixes.get(offsetMs);
  if (suffix === undefined) {
    const sign = offsetMs < 0 ? '-' : '+';
    const abs = Math.abs(offsetMs) / 1000;
    const seconds = abs % 60;
    suffix = `${sign}${TWO_DIGITS[Math.floor(abs / 3600)]}:${TWO_DIGITS[Math.floor((abs % 3600) / 60)]}${seconds ? `:${TWO_DIGITS[seconds]}` : ''}`;
    offsetSuffixes.set(offsetMs, suffix);
  }
  return suffix;
}

/** `2026-01-05T10:00:00+01:00`: the instant's wall time at the given UTC offset, with that offset. */
export function formatWithOffset(instant: Instant, offsetMs: number): string {
  const local = instant + offsetMs;
  const wall = wholeMinuteWallTime(local) ?? new Date(local).toISOString().slice(0, 19);
  return `${wall}${offsetSuffix(offsetMs)}`;
}
