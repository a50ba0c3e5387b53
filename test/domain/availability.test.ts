// Contract §4 (availability document) and §3 (one `errors` entry per failing field, nested paths).
import { describe, expect, it } from 'vitest';
import { defaultAvailability, normalizeAvailability, type Availability } from '../../src/domain/availability.js';
import type { FieldError } from '../../src/domain/errors.js';
import { availabilityDoc, emptyWeek } from './support.js';

function errorsOf(doc: Availability): FieldError[] {
  const result = normalizeAvailability(doc);
  if (result.ok) throw new Error('expected the availability to be rejected');
  return result.errors;
}

const fieldsOf = (doc: Availability) => errorsOf(doc).map((e) => e.field);

describe('normalizeAvailability accepts valid documents', () => {
  it('when the zone is spelled in lower case (europe/berlin), then it is stored canonically (Europe/Berlin)', () => {
    const result = normalizeAvailability(availabilityDoc('europe/berlin', { monday: [['09:00', '17:00']] }));
    expect(result.ok && result.value.timeZone).toBe('Europe/Berlin');
  });

  it('when the zone is UTC, then it is accepted as UTC', () => {
    const result = normalizeAvailability(availabilityDoc('UTC', {}));
    expect(result.ok && result.value.timeZone).toBe('UTC');
  });

  it('when intervals and overrides arrive out of order, then they come back sorted (intervals by start, overrides by date)', () => {
    const result = normalizeAvailability(
      availabilityDoc(
        'Europe/Berlin',
        {
          monday: [
            ['13:00', '17:00'],
            ['09:00', '12:00'],
          ],
        },
        [
          ['2026-12-31', [['10:00', '12:00']]],
          ['2026-12-24', []],
        ],
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.weekly.monday).toEqual([
      { start: '09:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ]);
    expect(result.value.overrides).toEqual([
      { date: '2026-12-24', intervals: [] },
      { date: '2026-12-31', intervals: [{ start: '10:00', end: '12:00' }] },
    ]);
  });

  it('when intervals touch (09:00–10:00, 10:00–11:00), then they are valid and kept as sent', () => {
    const result = normalizeAvailability(
      availabilityDoc('UTC', {
        monday: [
          ['09:00', '10:00'],
          ['10:00', '11:00'],
        ],
      }),
    );
    expect(result.ok && result.value.weekly.monday).toEqual([
      { start: '09:00', end: '10:00' },
      { start: '10:00', end: '11:00' },
    ]);
  });

  it('when an interval ends at 24:00 or starts at 00:00, then it is valid', () => {
    const result = normalizeAvailability(
      availabilityDoc('UTC', {
        monday: [
          ['00:00', '01:00'],
          ['22:00', '24:00'],
        ],
      }),
    );
    expect(result.ok).toBe(true);
  });

  it('when a weekday is omitted, then it comes back as an empty list', () => {
    const week: Partial<ReturnType<typeof emptyWeek>> = { monday: [{ start: '09:00', end: '17:00' }] };
    const result = normalizeAvailability({
      timeZone: 'UTC',
      weekly: week as ReturnType<typeof emptyWeek>,
      overrides: [],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.weekly.sunday).toEqual([]);
    expect(result.value.weekly.monday).toEqual([{ start: '09:00', end: '17:00' }]);
  });

  it('when a holder is new, then the default availability is Mon–Fri 09:00–17:00 in UTC', () => {
    const workday = [{ start: '09:00', end: '17:00' }];
    expect(defaultAvailability()).toEqual({
      timeZone: 'UTC',
      weekly: {
        monday: workday,
        tuesday: workday,
        wednesday: workday,
        thursday: workday,
        friday: workday,
        saturday: [],
        sunday: [],
      },
      overrides: [],
    });
    expect(normalizeAvailability(defaultAvailability()).ok).toBe(true);
  });
});

describe('normalizeAvailability rejects invalid documents with one error per failing field', () => {
  it.each([
    ['+01:00', 'a bare UTC offset'],
    ['Mars/Olympus', 'an unknown zone'],
    ['', 'an empty string'],
    ['Europe/Berlin ', 'a zone with trailing space'],
    ['CET+1', 'a POSIX TZ string'],
  ])('when timeZone is %j (%s), then timeZone is rejected', (timeZone) => {
    expect(fieldsOf(availabilityDoc(timeZone, {}))).toEqual(['timeZone']);
  });

  it('when two Monday intervals overlap, then the later one is reported as weekly.monday[1]', () => {
    const errors = errorsOf(
      availabilityDoc('UTC', {
        monday: [
          ['09:00', '12:00'],
          ['11:00', '13:00'],
        ],
      }),
    );
    expect(errors).toEqual([{ field: 'weekly.monday[1]', message: expect.stringContaining('weekly.monday[0]') }]);
  });

  it('when overlapping intervals are listed out of order, then exactly one of them is reported by its index as sent', () => {
    const fields = fieldsOf(
      availabilityDoc('UTC', {
        monday: [
          ['11:00', '13:00'],
          ['09:00', '12:00'],
        ],
      }),
    );
    expect(fields).toHaveLength(1);
    expect(fields[0]).toMatch(/^weekly\.monday\[[01]\]$/);
  });

  it('when a long interval contains two shorter ones, then both shorter ones are reported (not only the first)', () => {
    const fields = fieldsOf(
      availabilityDoc('UTC', {
        monday: [
          ['09:00', '17:00'],
          ['10:00', '11:00'],
          ['12:00', '13:00'],
        ],
      }),
    );
    expect(fields).toEqual(['weekly.monday[1]', 'weekly.monday[2]']);
  });

  it('when an interval ends before it starts, then weekly.monday[0].end is reported', () => {
    expect(fieldsOf(availabilityDoc('UTC', { monday: [['10:00', '09:00']] }))).toEqual(['weekly.monday[0].end']);
  });

  it('when an interval is empty (start = end), then its end is reported', () => {
    expect(
      fieldsOf(
        availabilityDoc('UTC', {
          friday: [
            ['09:00', '17:00'],
            ['18:00', '18:00'],
          ],
        }),
      ),
    ).toEqual(['weekly.friday[1].end']);
  });

  it('when an interval starts at 24:00, then its start is reported', () => {
    expect(fieldsOf(availabilityDoc('UTC', { sunday: [['24:00', '24:00']] }))).toEqual(['weekly.sunday[0].start']);
  });

  it('when two overrides share a date, then the second date is reported as overrides[1].date', () => {
    const errors = errorsOf(
      availabilityDoc('UTC', {}, [
        ['2026-12-24', []],
        ['2026-12-24', [['10:00', '12:00']]],
      ]),
    );
    expect(errors).toEqual([{ field: 'overrides[1].date', message: expect.stringContaining('overrides[0]') }]);
  });

  it.each(['2026-02-30', '2026-02-29', '2026-13-01', '2026-1-05', '26-01-05', '2026-01-05T00:00'])(
    'when an override date is %j (not a real YYYY-MM-DD date), then overrides[0].date is reported',
    (date) => {
      expect(fieldsOf(availabilityDoc('UTC', {}, [[date, []]]))).toEqual(['overrides[0].date']);
    },
  );

  it('when an override date is 29 February of a leap year, then it is accepted', () => {
    expect(normalizeAvailability(availabilityDoc('UTC', {}, [['2028-02-29', []]])).ok).toBe(true);
  });

  it('when override intervals overlap or are reversed, then the paths point into overrides[i].intervals[j]', () => {
    const fields = fieldsOf(
      availabilityDoc('UTC', {}, [
        ['2026-12-24', [['09:00', '10:00']]],
        [
          '2026-12-31',
          [
            ['09:00', '12:00'],
            ['11:00', '13:00'],
            ['15:00', '14:00'],
          ],
        ],
      ]),
    );
    expect(fields.sort()).toEqual(['overrides[1].intervals[1]', 'overrides[1].intervals[2].end']);
  });

  it('when several fields fail at once, then every one of them is reported', () => {
    const fields = fieldsOf(
      availabilityDoc(
        'Not/AZone',
        {
          tuesday: [['12:00', '11:00']],
          wednesday: [
            ['09:00', '11:00'],
            ['10:00', '12:00'],
          ],
        },
        [['2026-02-30', []]],
      ),
    );
    expect(fields.sort()).toEqual(
      ['overrides[0].date', 'timeZone', 'weekly.tuesday[0].end', 'weekly.wednesday[1]'].sort(),
    );
  });
});
