// Contract §2: instants in (ISO-8601 with explicit offset, or integer epoch ms; query strings with
// `+` decoded to a space), instants out (UTC, or a zone's offset for slots), and the zone
// conversions behind §5. Expected values are written with Date.UTC, never computed by the code
// under test.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { formatUtc, formatWithOffset, parseInstant, parseQueryInstant } from '../../src/domain/instant.js';
import {
  canonicalTimeZone,
  epochDayFromIsoDate,
  isoDateFromEpochDay,
  weekdayIndex,
  Zone,
} from '../../src/domain/zone.js';

const H = 3_600_000;
const M = 60_000;
const DAY = 86_400_000;

function accepted(result: ReturnType<typeof parseInstant>): number {
  if (!result.ok) throw new Error(`expected acceptance, got: ${result.message}`);
  return result.value;
}

describe('parseInstant with ISO-8601 strings', () => {
  it.each([
    ['2026-01-05T09:00:00+01:00', Date.UTC(2026, 0, 5, 8, 0)],
    ['2026-01-05T09:00:00Z', Date.UTC(2026, 0, 5, 9, 0)],
    ['2026-01-05T09:00:00-05:00', Date.UTC(2026, 0, 5, 14, 0)],
    ['2026-01-05T09:00:00+05:30', Date.UTC(2026, 0, 5, 3, 30)],
    ['2026-01-05T09:00:00+00:00', Date.UTC(2026, 0, 5, 9, 0)],
    ['2026-01-05T09:00:00-00:00', Date.UTC(2026, 0, 5, 9, 0)],
    ['2026-01-05T00:30:00+01:00', Date.UTC(2026, 0, 4, 23, 30)],
    ['2026-01-05T09:00Z', Date.UTC(2026, 0, 5, 9, 0)],
    ['2026-01-05T09:00:00.250Z', Date.UTC(2026, 0, 5, 9, 0, 0, 250)],
    ['2028-02-29T12:00:00Z', Date.UTC(2028, 1, 29, 12, 0)],
    ['1970-01-01T00:00:00Z', 0],
    ['9999-12-31T23:59:59.999Z', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
  ])('when the input is %s, then it is the instant %d', (input, expected) => {
    expect(accepted(parseInstant(input))).toBe(expected);
  });

  it.each(['2026-01-05T09:00:00', '2026-01-05T09:00', '2026-01-05T09:00:00.000'])(
    'when %s has no offset, then it is rejected (never read as UTC) with a message about the offset',
    (input) => {
      const result = parseInstant(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/offset/i);
    },
  );

  it.each([
    ['2026-02-30T09:00:00Z', 'February 30th'],
    ['2026-02-29T09:00:00Z', '29 February of a common year'],
    ['2026-13-01T09:00:00Z', 'month 13'],
    ['2026-04-31T09:00:00Z', 'April 31st'],
    ['2026-01-05T25:00:00Z', 'hour 25'],
    ['2026-01-05T24:00:00Z', 'hour 24'],
    ['2026-01-05T09:60:00Z', 'minute 60'],
    ['2026-01-05T09:00:00+14:60', 'offset minute 60'],
  ])('when the input is %s (%s), then it is rejected as not a real date-time', (input) => {
    expect(parseInstant(input).ok).toBe(false);
  });

  it.each([
    ['2026-01-05', 'a date only'],
    ['2026-01-05 09:00:00Z', 'a space instead of T'],
    ['20260105T090000Z', 'the basic format'],
    ['2026-01-05T09:00:00+0100', 'an offset without colon'],
    ['2026-01-05T09:00:00+01', 'an hour-only offset'],
    ['2026-01-05T09:00:00+01:00[Europe/Berlin]', 'a bracketed zone annotation'],
    ['2026-01-05T09:00:00 +01:00', 'a space before the offset'],
    ['+002026-01-05T09:00:00Z', 'an expanded year'],
    ['next monday', 'free text'],
    ['', 'an empty string'],
    ['1767603600000', 'epoch milliseconds as a JSON string'],
  ])('when the input is %j (%s), then it is rejected', (input) => {
    expect(parseInstant(input).ok).toBe(false);
  });

  it.each([
    ['1969-12-31T23:59:59.999Z', 'just before 1970'],
    ['1970-01-01T00:30:00+01:00', '1970-01-01 local but 1969 in UTC'],
    ['9999-12-31T23:59:59.999-00:01', 'year 10000 in UTC'],
  ])('when the input is %s (%s), then it is rejected as out of bounds', (input) => {
    const result = parseInstant(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/1970.*9999/);
  });
});

describe('parseInstant agrees with Temporal', () => {
  // Fields drawn a little past their ranges, so that the fast path's range checks are crossed both ways.
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const dateTimes = fc
    .record({
      year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1960, max: 2110 })),
      month: two(13),
      day: two(32),
      hour: two(25),
      minute: two(61),
      second: fc.option(two(61)),
      fraction: fc.option(fc.stringMatching(/^\d{1,9}$/)),
      offset: fc.oneof(
        fc.constant('Z'),
        fc.tuple(fc.constantFrom('+', '-'), two(24), two(60)).map((p) => `${p[0]}${p[1]}:${p[2]}`),
      ),
    })
    .map(({ year, month, day, hour, minute, second, fraction, offset }) => {
      const seconds = second === null ? '' : `:${second}${fraction === null ? '' : `.${fraction}`}`;
      return `${String(year).padStart(4, '0')}-${month}-${day}T${hour}:${minute}${seconds}${offset}`;
    });

  it('when any extended date-time with an offset is parsed, then it is accepted exactly when Temporal reads an instant in bounds, and is that instant', () => {
    fc.assert(
      fc.property(dateTimes, (input) => {
        let expected: number | undefined;
        try {
          expected = Temporal.Instant.from(input).epochMilliseconds;
        } catch {
          expected = undefined;
        }
        const inBounds = expected !== undefined && expected >= 0 && expected <= Date.UTC(9999, 11, 31, 23, 59, 59, 999);
        const parsed = parseInstant(input);
        expect(parsed.ok).toBe(inBounds);
        if (parsed.ok) expect(parsed.value).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('parseInstant with epoch milliseconds', () => {
  it('when the input is an integer number, then it is that many milliseconds since the epoch', () => {
    expect(accepted(parseInstant(Date.UTC(2026, 0, 5, 9)))).toBe(Date.UTC(2026, 0, 5, 9));
    expect(accepted(parseInstant(0))).toBe(0);
    expect(accepted(parseInstant(Date.UTC(9999, 11, 31, 23, 59, 59, 999)))).toBe(
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    );
  });

  it.each([
    [1767603600000.5, 'a fraction'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [2 ** 53, 'an unsafe integer'],
  ])('when the number is %s (%s), then it is rejected as not an integer', (input) => {
    const result = parseInstant(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/integer/);
  });

  it.each([
    [-1, 'before 1970'],
    [Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1, 'after 9999'],
  ])('when the number is %d (%s), then it is rejected as out of bounds', (input) => {
    expect(parseInstant(input).ok).toBe(false);
  });
});

describe('parseQueryInstant (form-decoded query strings)', () => {
  it('when the + of an offset arrived as a space, then it is read as +', () => {
    expect(accepted(parseQueryInstant('2026-01-05T09:00:00 01:00'))).toBe(Date.UTC(2026, 0, 5, 8, 0));
    expect(accepted(parseQueryInstant('2026-01-05T09:00 05:30'))).toBe(Date.UTC(2026, 0, 5, 3, 30));
  });

  it('when the offset is negative or Z, then it is read as is', () => {
    expect(accepted(parseQueryInstant('2026-01-05T09:00:00-05:00'))).toBe(Date.UTC(2026, 0, 5, 14, 0));
    expect(accepted(parseQueryInstant('2026-01-05T09:00:00Z'))).toBe(Date.UTC(2026, 0, 5, 9, 0));
    expect(accepted(parseQueryInstant('2026-01-05T09:00:00+01:00'))).toBe(Date.UTC(2026, 0, 5, 8, 0));
  });

  it('when the value is all digits, then it is epoch milliseconds', () => {
    expect(accepted(parseQueryInstant(String(Date.UTC(2026, 0, 5, 9))))).toBe(Date.UTC(2026, 0, 5, 9));
    expect(accepted(parseQueryInstant('0'))).toBe(0);
  });

  it.each([
    ['2026-01-05T09:00:00', 'no offset'],
    ['2026-01-05T09:00:00 1:00', 'a one-digit hour after the space'],
    ['2026-01-05 09:00:00 01:00', 'a space instead of T'],
    ['-1', 'a negative number'],
    ['99999999999999999', 'more digits than any epoch instant'],
    ['1767603600000.5', 'a fractional number'],
  ])('when the value is %j (%s), then it is rejected', (input) => {
    expect(parseQueryInstant(input).ok).toBe(false);
  });
});

describe('formatUtc and formatWithOffset', () => {
  it('when an instant is rendered in UTC, then it has the toISOString form with milliseconds and Z', () => {
    expect(formatUtc(Date.UTC(2026, 0, 5, 8, 0))).toBe('2026-01-05T08:00:00.000Z');
  });

  it.each([
    [Date.UTC(2026, 0, 5, 9, 0), H, '2026-01-05T10:00:00+01:00'],
    [Date.UTC(2026, 0, 5, 9, 0), 0, '2026-01-05T09:00:00+00:00'],
    [Date.UTC(2026, 0, 5, 9, 0), -5 * H, '2026-01-05T04:00:00-05:00'],
    [Date.UTC(2026, 0, 5, 9, 0), 5.5 * H, '2026-01-05T14:30:00+05:30'],
    [Date.UTC(2026, 0, 5, 9, 0), -(3.5 * H), '2026-01-05T05:30:00-03:30'],
    [Date.UTC(2026, 0, 5, 9, 0), 13 * H + 45 * M, '2026-01-05T22:45:00+13:45'],
    [Date.UTC(2026, 0, 5, 23, 30), H, '2026-01-06T00:30:00+01:00'],
    [Date.UTC(2026, 0, 5, 1, 0), -5 * H, '2026-01-04T20:00:00-05:00'],
  ])('when %d is rendered at offset %d ms, then it reads %s', (instant, offset, expected) => {
    expect(formatWithOffset(instant, offset)).toBe(expected);
  });

  it('when a rendered instant is parsed back, then it is the same instant', () => {
    for (const offset of [-5 * H, -(3.5 * H), 0, H, 5.5 * H, 13 * H + 45 * M]) {
      const instant = Date.UTC(2026, 9, 25, 1, 30);
      expect(accepted(parseInstant(formatWithOffset(instant, offset)))).toBe(instant);
    }
  });

  it('when the repeated Berlin hour is rendered with the zone offsets, then its two 02:30 are told apart', () => {
    const berlin = new Zone('Europe/Berlin');
    const first = Date.UTC(2026, 9, 25, 0, 30);
    const second = Date.UTC(2026, 9, 25, 1, 30);
    expect(formatWithOffset(first, berlin.offsetMsAt(first))).toBe('2026-10-25T02:30:00+02:00');
    expect(formatWithOffset(second, berlin.offsetMsAt(second))).toBe('2026-10-25T02:30:00+01:00');
  });
});

describe('Zone conversions (gaps move forward, repeats take the earlier offset)', () => {
  const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / DAY;

  it('when a date string is a real date, then epoch days round-trip and weekdays count from Monday = 0', () => {
    expect(epochDayFromIsoDate('1970-01-01')).toBe(0);
    expect(epochDayFromIsoDate('2026-03-29')).toBe(day(2026, 3, 29));
    expect(isoDateFromEpochDay(day(2026, 3, 29))).toBe('2026-03-29');
    expect(weekdayIndex(day(2026, 1, 5))).toBe(0); // Monday
    expect(weekdayIndex(day(2026, 3, 29))).toBe(6); // Sunday
    expect(weekdayIndex(day(1969, 12, 29))).toBe(0); // Monday before the epoch
    expect(epochDayFromIsoDate('2026-02-30')).toBeUndefined();
  });

  it.each([
    ['europe/berlin', 'Europe/Berlin'],
    ['AMERICA/NEW_YORK', 'America/New_York'],
    ['UTC', 'UTC'],
  ])('when the zone is written %s, then its canonical id is %s', (input, canonical) => {
    expect(canonicalTimeZone(input)).toBe(canonical);
  });

  it.each([
    ['Europe/Berlin', day(2026, 3, 29), 60, Date.UTC(2026, 2, 29, 0, 0)], // 01:00+01
    ['Europe/Berlin', day(2026, 3, 29), 120, Date.UTC(2026, 2, 29, 1, 0)], // 02:00 → 03:00+02
    ['Europe/Berlin', day(2026, 3, 29), 150, Date.UTC(2026, 2, 29, 1, 30)], // 02:30 → 03:30+02
    ['Europe/Berlin', day(2026, 3, 29), 180, Date.UTC(2026, 2, 29, 1, 0)], // 03:00+02
    ['Europe/Berlin', day(2026, 10, 25), 150, Date.UTC(2026, 9, 25, 0, 30)], // 02:30 twice → +02
    ['Europe/Berlin', day(2026, 10, 25), 180, Date.UTC(2026, 9, 25, 2, 0)], // 03:00+01
    ['Europe/Berlin', day(2026, 1, 5), 1440, Date.UTC(2026, 0, 5, 23, 0)], // 24:00 = next midnight
    ['America/New_York', day(2026, 11, 1), 90, Date.UTC(2026, 10, 1, 5, 30)], // 01:30 twice → −04
    ['America/Santiago', day(2026, 9, 6), 0, Date.UTC(2026, 8, 6, 4, 0)], // 00:00 → 01:00−03
    ['America/Santiago', day(2026, 9, 5), 1440, Date.UTC(2026, 8, 6, 4, 0)], // 24:00 → 01:00−03
    ['America/Santiago', day(2026, 4, 4), 1410, Date.UTC(2026, 3, 5, 2, 30)], // 23:30 twice → −03
    ['Pacific/Chatham', day(2026, 9, 27), 180, Date.UTC(2026, 8, 26, 14, 15)], // 03:00 → 04:00+13:45
    ['Asia/Kolkata', day(2026, 1, 5), 0, Date.UTC(2026, 0, 4, 18, 30)],
  ])(
    'when %s epoch day %i wall minute %i is converted, then it is the hand-computed instant %i',
    (zone, epochDay, minute, expected) => {
      expect(new Zone(zone).wallToInstant(epochDay, minute)).toBe(expected);
    },
  );

  it('when an instant is near local midnight, then dayOf gives its local date, not its UTC date', () => {
    expect(new Zone('Asia/Kolkata').dayOf(Date.UTC(2026, 0, 4, 18, 30))).toBe(day(2026, 1, 5));
    expect(new Zone('Asia/Kolkata').dayOf(Date.UTC(2026, 0, 4, 18, 29, 59, 999))).toBe(day(2026, 1, 4));
    expect(new Zone('America/New_York').dayOf(Date.UTC(2026, 0, 6, 4, 59))).toBe(day(2026, 1, 5));
    // The second 23:30 of Santiago's repeated hour is still Saturday the 4th.
    expect(new Zone('America/Santiago').dayOf(Date.UTC(2026, 3, 5, 3, 30))).toBe(day(2026, 4, 4));
    expect(new Zone('America/Santiago').dayOf(Date.UTC(2026, 3, 5, 4, 0))).toBe(day(2026, 4, 5));
  });

  it('when the offset is asked around a transition, then it changes exactly at the transition instant', () => {
    const berlin = new Zone('Europe/Berlin');
    expect(berlin.offsetMsAt(Date.UTC(2026, 2, 29, 0, 59, 59, 999))).toBe(H);
    expect(berlin.offsetMsAt(Date.UTC(2026, 2, 29, 1, 0))).toBe(2 * H);
    expect(berlin.offsetMsAt(Date.UTC(2026, 9, 25, 0, 59, 59, 999))).toBe(2 * H);
    expect(berlin.offsetMsAt(Date.UTC(2026, 9, 25, 1, 0))).toBe(H);
    expect(berlin.offsetMsAt(Date.UTC(2026, 6, 1, 12, 0))).toBe(2 * H);
    expect(new Zone('Australia/Adelaide').offsetMsAt(Date.UTC(2026, 0, 7, 0, 0))).toBe(10.5 * H);
    expect(new Zone('Australia/Adelaide').offsetMsAt(Date.UTC(2026, 6, 8, 0, 0))).toBe(9.5 * H);
    expect(new Zone('Pacific/Chatham').offsetMsAt(Date.UTC(2026, 0, 7, 0, 0))).toBe(13 * H + 45 * M);
    expect(new Zone('America/Santiago').offsetMsAt(Date.UTC(2026, 3, 5, 2, 59))).toBe(-3 * H);
    expect(new Zone('America/Santiago').offsetMsAt(Date.UTC(2026, 3, 5, 3, 0))).toBe(-4 * H);
  });
});

describe('fast formatting agrees with Date', () => {
  it('when any instant in range is formatted as UTC, then it equals toISOString', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31) }), fc.boolean(), (ms, wholeMinute) => {
        const instant = wholeMinute ? ms - (ms % 60_000) : ms;
        expect(formatUtc(instant)).toBe(new Date(instant).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('when an instant is formatted at an offset, then the wall time is the Date of instant + offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 86_400_000, max: Date.UTC(9998, 0, 1) }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (ms, offsetMinutes) => {
          const instant = ms - (ms % 60_000);
          const offsetMs = offsetMinutes * 60_000;
          const text = formatWithOffset(instant, offsetMs);
          expect(text.slice(0, 19)).toBe(new Date(instant + offsetMs).toISOString().slice(0, 19));
          expect(Date.parse(text)).toBe(instant);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
