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
/** The comma before a slot, and its punctuation. */
const SLOT_PUNCTUATION_BYTES = 1 + SLOT_START.length + SLOT_END.length + SLOT_CLOSE.length;

/** Bounds each per-day cache of a SlotWriter: a 62-day answer touches about 63 days. */
const MAX_CACHED_DAYS = 4_096;

/**
 * Slots written as JSON once, each as `,{"start":…,"end":…}`: slot i begins at `offsets[i]` and
 * the last ends at `offsets[n]`, so any run of consecutive slots is one contiguous piece of `bytes`.
 */
export interface RenderedSlots {
  bytes: Buffer;
  offsets: Uint32Array;
}

/**
 * Writes slots as JSON bytes, with the caches that make it cheap: per-day templates and date
 * prefixes, and offset suffixes. One per process, built by the composition root.
 */
export class SlotWriter {
  // Templates by day and shown offset; the previous slot's is tried first (consecutive slots mostly share it).
  private readonly templates = new Map<number, SlotTemplate>();
  private readonly utcTemplates = new Map<number, SlotTemplate>();
  private template: SlotTemplate | undefined;
  /** `YYYY-MM-DDT` per UTC day number, as bytes. */
  private readonly datePrefixes = new Map<number, Uint8Array>();
  private readonly offsetSuffixes = new Map<number, Uint8Array>();
  // The day of the previous timestamp: consecutive slots are almost always on the same day.
  private currentDayStart = Number.NaN;
  private currentDatePrefix: Uint8Array = new Uint8Array(0);

  /**
   * Writes `starts` as slots: an answer can hold ~18,000 of them, and building a string per
   * timestamp, an object per slot and then JSON text from them cost several times the whole rest of
   * the request. Each timestamp is exactly what `formatUtc` (no zone) or `formatWithOffset` (the
   * zone's offset at that instant) would give; the values need no JSON escaping.
   */
  render(starts: ArrayLike<Instant>, durationMs: number, zone: Zone | undefined): RenderedSlots {
    const timestampBytes = zone === undefined ? UTC_TIMESTAMP_BYTES : MAX_TIMESTAMP_BYTES;
    const out = Buffer.allocUnsafeSlow(starts.length * (SLOT_PUNCTUATION_BYTES + 2 * timestampBytes));
    const offsets = new Uint32Array(starts.length + 1);
    let at = 0;
    for (let i = 0; i < starts.length; i++) {
      const start = starts[i]!;
      offsets[i] = at;
      out[at++] = 0x2c; // ,
      const fast = this.writeSlotOnOneDay(out, at, start, start + durationMs, zone);
      if (fast >= 0) {
        at = fast;
        continue;
      }
      at = copy(SLOT_START, out, at);
      at = this.writeTimestamp(out, at, start, zone);
      at = copy(SLOT_END, out, at);
      at = this.writeTimestamp(out, at, start + durationMs, zone);
      at = copy(SLOT_CLOSE, out, at);
    }
    offsets[starts.length] = at;
    return { bytes: out.subarray(0, at), offsets };
  }

  /**
   * The common case in one native copy plus ten digits: both ends whole minutes of the same local
   * day at the same offset. Returns where the slot ends, or -1 for any other slot.
   */
  private writeSlotOnOneDay(out: Buffer, at: number, start: Instant, end: Instant, zone: Zone | undefined): number {
    const offsetMs = zone === undefined ? 0 : zone.offsetMsAt(start);
    if (zone !== undefined && zone.offsetMsAt(end) !== offsetMs) return -1;
    const localStart = start + offsetMs;
    if (localStart < 0 || localStart >= 253402300800000) return -1;
    const day = Math.floor(localStart / DAY_MS);
    const startMinute = (localStart - day * DAY_MS) / MINUTE_MS;
    const endMinute = (end + offsetMs - day * DAY_MS) / MINUTE_MS;
    if (startMinute !== Math.floor(startMinute) || endMinute !== Math.floor(endMinute) || endMinute >= 1440) return -1;
    const shownOffset = zone === undefined ? null : offsetMs;
    let template = this.template;
    if (template === undefined || template.day !== day || template.offsetMs !== shownOffset) {
      // Offsets are whole seconds within ±26 h: the key is unique per day and offset.
      const cache = shownOffset === null ? this.utcTemplates : this.templates;
      const key = day * 1_000_000 + offsetMs / 1000 + 100_000;
      template = cache.get(key);
      if (template === undefined) {
        if (cache.size >= MAX_CACHED_DAYS) cache.clear();
        template = slotTemplate(day, shownOffset, shownOffset === null ? UTC_SUFFIX : this.offsetSuffix(shownOffset));
        cache.set(key, template);
      }
      this.template = template;
    }
    out.set(template.bytes, at);
    writeTimeOfDay(out, at + template.startTimeAt, startMinute);
    writeTimeOfDay(out, at + template.endTimeAt, endMinute);
    return at + template.bytes.length;
  }

  private writeTimestamp(out: Buffer, at: number, instant: Instant, zone: Zone | undefined): number {
    if (zone === undefined) {
      const end = this.writeWholeMinuteWallTime(out, at, instant);
      if (end < 0) return at + out.write(formatUtc(instant), at, 'latin1');
      return copy(UTC_SUFFIX, out, end);
    }
    const offsetMs = zone.offsetMsAt(instant);
    const end = this.writeWholeMinuteWallTime(out, at, instant + offsetMs);
    if (end < 0) return at + out.write(formatWithOffset(instant, offsetMs), at, 'latin1');
    return copy(this.offsetSuffix(offsetMs), out, end);
  }

  /**
   * `2026-01-05T08:00:00` (UTC wall time of `instant`) at `at`; returns where it ends, or -1 when
   * the instant is not a whole minute (written by the general formatter instead).
   */
  private writeWholeMinuteWallTime(out: Uint8Array, at: number, instant: Instant): number {
    let sinceDayStart = instant - this.currentDayStart;
    if (!(sinceDayStart >= 0 && sinceDayStart < DAY_MS)) {
      if (instant < 0 || instant >= 253402300800000) return -1;
      const day = Math.floor(instant / DAY_MS);
      this.currentDayStart = day * DAY_MS;
      this.currentDatePrefix = this.datePrefix(day);
      sinceDayStart = instant - this.currentDayStart;
    }
    const minute = sinceDayStart / MINUTE_MS;
    if (minute !== Math.floor(minute)) return -1;
    const prefix = this.currentDatePrefix;
    for (let i = 0; i < 11; i++) out[at + i] = prefix[i]!;
    const time = minute * 8;
    for (let i = 0; i < 8; i++) out[at + 11 + i] = TIMES_OF_DAY[time + i]!;
    return at + 19;
  }

  private datePrefix(day: number): Uint8Array {
    let prefix = this.datePrefixes.get(day);
    if (prefix === undefined) {
      if (this.datePrefixes.size >= MAX_CACHED_DAYS) this.datePrefixes.clear();
      prefix = ascii(new Date(day * DAY_MS).toISOString().slice(0, 11));
      this.datePrefixes.set(day, prefix);
    }
    return prefix;
  }

  private offsetSuffix(offsetMs: number): Uint8Array {
    let suffix = this.offsetSuffixes.get(offsetMs);
    if (suffix === undefined) {
      // formatWithOffset of the UTC epoch at that offset ends with exactly the suffix it writes.
      const text = formatWithOffset(0, offsetMs);
      suffix = ascii(text.slice(19));
      this.offsetSuffixes.set(offsetMs, suffix);
    }
    return suffix;
  }
}

const ANSWER_HEAD = Buffer.from(HEAD);
const ANSWER_TAIL = Buffer.from(TAIL);
const EMPTY_ANSWER = Buffer.from('{"data":[]}');

/**
 * The `GET /slots` answer `{"data":[…]}` holding slots `first` up to, not including, `end` of
 * `rendered`, as pieces to send one after the other. The slots are a view of `rendered`, not a copy.
 */
export function slotsAnswer(rendered: RenderedSlots, first: number, end: number): Buffer[] {
  if (first >= end) return [EMPTY_ANSWER];
  // Without the first slot's leading comma.
  return [ANSWER_HEAD, rendered.bytes.subarray(rendered.offsets[first]! + 1, rendered.offsets[end]), ANSWER_TAIL];
}

/** A whole slot of one local day at one offset, with its two times of day left to fill in. */
interface SlotTemplate {
  day: number;
  /** Null for a UTC answer (`…Z`), else the offset the answer shows (`…+00:00` for a zone at UTC). */
  offsetMs: number | null;
  bytes: Uint8Array;
  startTimeAt: number;
  endTimeAt: number;
}

function slotTemplate(day: number, offsetMs: number | null, suffix: Uint8Array): SlotTemplate {
  const date = new Date(day * DAY_MS).toISOString().slice(0, 11);
  const suffixText = String.fromCharCode(...suffix);
  const startPart = `{"start":"${date}`;
  const endPart = `00:00:00${suffixText}","end":"${date}`;
  const text = `${startPart}${endPart}00:00:00${suffixText}"}`;
  return {
    day,
    offsetMs,
    bytes: ascii(text),
    startTimeAt: startPart.length,
    endTimeAt: startPart.length + endPart.length,
  };
}

/** `HH:MM` of a minute of the day (the seconds are always `:00` in a template). */
function writeTimeOfDay(out: Buffer, at: number, minute: number): void {
  const hour = Math.floor(minute / 60);
  const minuteOfHour = minute - hour * 60;
  out[at] = 0x30 + Math.floor(hour / 10);
  out[at + 1] = 0x30 + (hour % 10);
  out[at + 3] = 0x30 + Math.floor(minuteOfHour / 10);
  out[at + 4] = 0x30 + (minuteOfHour % 10);
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

/** Short runs: a byte loop beats `Buffer.copy`'s call overhead. */
function copy(source: Uint8Array, out: Uint8Array, at: number): number {
  for (let i = 0; i < source.length; i++) out[at + i] = source[i]!;
  return at + source.length;
}
