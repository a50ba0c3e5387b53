import { DAY_MS, MINUTE_MS, formatUtc, formatWithOffset, type Instant } from '../domain/instant.js';
import type { Zone } from '../domain/zone.js';

// Plain Uint8Arrays (not Buffers) everywhere, so that every byte loop below sees one array shape.
const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
const HEAD = ascii('{"data":[');
const TAIL = ascii(']}');
const SLOT_START = ascii('{"start":"');
const SLOT_END = ascii('","end":"');
const SLOT_CLOSE = ascii('"}');
const UTC_SUFFIX = ascii('.000Z');
/** The longest timestamp written: a wall time with an offset in seconds (`…T09:00:00-00:44:30`), or a UTC one. */
const MAX_TIMESTAMP_BYTES = 28;
/** Every UTC timestamp is 24 bytes (`2026-01-05T08:00:00.000Z`): a UTC answer is allocated exactly. */
const UTC_TIMESTAMP_BYTES = 24;
const SLOT_PUNCTUATION_BYTES = 1 + SLOT_START.length + SLOT_END.length + SLOT_CLOSE.length;

/** `YYYY-MM-DDT` per UTC day number, as bytes; a 62-day answer touches about 63 of them. */
const datePrefixes = new Map<number, Uint8Array>();
const MAX_CACHED_DATE_PREFIXES = 4_096;
const offsetSuffixes = new Map<number, Uint8Array>();

/**
 * The body of a `GET /slots` answer, `{"data":[{"start":…,"end":…},…]}`, written as bytes straight
 * from the engine's instants: an answer can hold ~18,000 slots, and building a string per
 * timestamp, an object per slot and then JSON text from them cost several times the whole rest of
 * the request. Each timestamp is exactly what `formatUtc` (no zone) or `formatWithOffset` (the
 * zone's offset at that instant) would give; the values need no JSON escaping.
 */
export function slotsBody(starts: readonly Instant[], durationMs: number, zone: Zone | undefined): Buffer {
  const timestampBytes = zone === undefined ? UTC_TIMESTAMP_BYTES : MAX_TIMESTAMP_BYTES;
  const out = Buffer.allocUnsafe(
    HEAD.length + TAIL.length + starts.length * (SLOT_PUNCTUATION_BYTES + 2 * timestampBytes),
  );
  let at = copy(HEAD, out, 0);
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    if (i > 0) out[at++] = 0x2c; // ,
    at = copy(SLOT_START, out, at);
    at = writeTimestamp(out, at, start, zone);
    at = copy(SLOT_END, out, at);
    at = writeTimestamp(out, at, start + durationMs, zone);
    at = copy(SLOT_CLOSE, out, at);
  }
  at = copy(TAIL, out, at);
  return out.subarray(0, at);
}

function writeTimestamp(out: Buffer, at: number, instant: Instant, zone: Zone | undefined): number {
  if (zone === undefined) {
    const end = writeWholeMinuteWallTime(out, at, instant);
    if (end < 0) return at + out.write(formatUtc(instant), at, 'latin1');
    return copy(UTC_SUFFIX, out, end);
  }
  const offsetMs = zone.offsetMsAt(instant);
  const end = writeWholeMinuteWallTime(out, at, instant + offsetMs);
  if (end < 0) return at + out.write(formatWithOffset(instant, offsetMs), at, 'latin1');
  return copy(offsetSuffix(offsetMs), out, end);
}

/** `HH:MM:00` for every minute of a day, 8 bytes each. */
const TIMES_OF_DAY = (() => {
  const bytes = new Uint8Array(1440 * 8);
  for (let minute = 0; minute < 1440; minute++) {
    const text = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
    for (let i = 0; i < 8; i++) bytes[minute * 8 + i] = text.charCodeAt(i);
  }
  return bytes;
})();

// The day of the previous timestamp: consecutive slots are almost always on the same day.
let currentDayStart = Number.NaN;
let currentDatePrefix: Uint8Array = new Uint8Array(0);

/**
 * `2026-01-05T08:00:00` (UTC wall time of `instant`) at `at`; returns where it ends, or -1 when
 * the instant is not a whole minute (written by the general formatter instead).
 */
function writeWholeMinuteWallTime(out: Uint8Array, at: number, instant: Instant): number {
  let sinceDayStart = instant - currentDayStart;
  if (!(sinceDayStart >= 0 && sinceDayStart < DAY_MS)) {
    if (instant < 0 || instant >= 253402300800000) return -1;
    const day = Math.floor(instant / DAY_MS);
    currentDayStart = day * DAY_MS;
    currentDatePrefix = datePrefix(day);
    sinceDayStart = instant - currentDayStart;
  }
  const minute = sinceDayStart / MINUTE_MS;
  if (minute !== Math.floor(minute)) return -1;
  const prefix = currentDatePrefix;
  for (let i = 0; i < 11; i++) out[at + i] = prefix[i]!;
  const time = minute * 8;
  for (let i = 0; i < 8; i++) out[at + 11 + i] = TIMES_OF_DAY[time + i]!;
  return at + 19;
}

function datePrefix(day: number): Uint8Array {
  let prefix = datePrefixes.get(day);
  if (prefix === undefined) {
    if (datePrefixes.size >= MAX_CACHED_DATE_PREFIXES) datePrefixes.clear();
    prefix = ascii(new Date(day * DAY_MS).toISOString().slice(0, 11));
    datePrefixes.set(day, prefix);
  }
  return prefix;
}

function offsetSuffix(offsetMs: number): Uint8Array {
  let suffix = offsetSuffixes.get(offsetMs);
  if (suffix === undefined) {
    // formatWithOffset of the UTC epoch at that offset ends with exactly the suffix it writes.
    const text = formatWithOffset(0, offsetMs);
    suffix = ascii(text.slice(19));
    offsetSuffixes.set(offsetMs, suffix);
  }
  return suffix;
}

/** Short runs: a byte loop beats `Buffer.copy`'s call overhead. */
function copy(source: Uint8Array, out: Uint8Array, at: number): number {
  for (let i = 0; i < source.length; i++) out[at + i] = source[i]!;
  return at + source.length;
}
