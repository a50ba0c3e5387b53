// Contract §5 (slots and bookability), case by case. Every expected instant below was worked out
// by hand from the zone rules (checked against `zdump`), never with the code under test:
//   Europe/Berlin      2026-03-29 02:00 +01 → 03:00 +02 (at 01:00Z); 2026-10-25 03:00 +02 → 02:00 +01 (at 01:00Z)
//   America/New_York   2026-03-08 02:00 −05 → 03:00 −04 (at 07:00Z); 2026-11-01 02:00 −04 → 01:00 −05 (at 06:00Z)
//   Australia/Adelaide +10:30 in southern summer, +09:30 in winter; 2026-10-04 02:00 +09:30 → 03:00 +10:30
//   Pacific/Chatham    2026-09-27 02:45 +12:45 → 03:45 +13:45
//   America/Santiago   2026-04-04 24:00 −03 → 23:00 −04; 2026-09-06 00:00 −04 → 01:00 −03
//   Asia/Kolkata +05:30, Asia/Tokyo +09:00, no DST.
import { describe, expect, it } from 'vitest';
import type { CompiledAvailability } from '../../src/domain/availability.js';
import { checkBookable, type Occupancy, type SlotPolicy, type UnbookableReason } from '../../src/domain/slots.js';
import { compiled, context, listSlots, ms, occupancy, policy, starts, utc, type Pair } from './support.js';

interface ListCase {
  name: string;
  availability: CompiledAvailability;
  policy: SlotPolicy;
  from: string;
  to: string;
  bookings?: Occupancy[];
  now?: string;
  eventTypeId?: string;
  /** Slot starts with the offset in force locally, to keep the hand computation readable. */
  expected: string[];
}

function runListCases(cases: ListCase[]): void {
  for (const c of cases) {
    it(c.name, () => {
      const ctx = context(c.availability, c.policy, {
        bookings: c.bookings ?? [],
        ...(c.now === undefined ? {} : { now: ms(c.now) }),
        ...(c.eventTypeId === undefined ? {} : { eventTypeId: c.eventTypeId }),
      });
      const slots = listSlots(ctx, ms(c.from), ms(c.to));
      expect(starts(slots)).toEqual(c.expected.map(utc));
      const durationMs = c.policy.durationMinutes * 60_000;
      for (const slot of slots) {
        expect(slot.end - slot.start).toBe(durationMs);
        // What /slots lists, POST /bookings accepts.
        expect(checkBookable(ctx, slot.start)).toBeNull();
      }
    });
  }
}

const sixty = policy({ durationMinutes: 60 });
// Wide ranges around the local day under test; only the days with hours matter.
const BERLIN_SPRING = { from: '2026-03-28T00:00:00Z', to: '2026-03-30T00:00:00Z' };
const BERLIN_FALL = { from: '2026-10-24T00:00:00Z', to: '2026-10-26T12:00:00Z' };
const NY_SPRING = { from: '2026-03-07T00:00:00Z', to: '2026-03-10T00:00:00Z' };
const NY_FALL = { from: '2026-10-31T00:00:00Z', to: '2026-11-03T00:00:00Z' };

describe('listSlots on DST transition days (elapsed-time grid, gaps move forward, repeats take the earlier offset)', () => {
  runListCases([
    {
      name: 'when Berlin springs forward inside 01:00–05:00, then 60-min slots start at 01:00+01, 03:00+02, 04:00+02 (three real hours)',
      availability: compiled('Europe/Berlin', { sunday: [['01:00', '05:00']] }),
      policy: sixty,
      ...BERLIN_SPRING,
      expected: ['2026-03-29T01:00:00+01:00', '2026-03-29T03:00:00+02:00', '2026-03-29T04:00:00+02:00'],
    },
    {
      name: 'when the grid steps across the Berlin gap, then it steps in elapsed time (01:30+01 → 03:30+02, which no longer fits before 04:00)',
      availability: compiled('Europe/Berlin', { sunday: [['01:30', '04:00']] }),
      policy: sixty,
      ...BERLIN_SPRING,
      // 01:30+01 = 00:30Z; +60 min = 01:30Z = 03:30+02, ending 04:30+02 > 04:00. A wall-clock grid
      // would have offered 03:00+02 instead.
      expected: ['2026-03-29T01:30:00+01:00'],
    },
    {
      name: 'when a 90-min grid starts before the Berlin gap, then its second start is 90 real minutes later (03:00+02)',
      availability: compiled('Europe/Berlin', { sunday: [['00:30', '05:00']] }),
      policy: policy({ durationMinutes: 60, slotIntervalMinutes: 90 }),
      ...BERLIN_SPRING,
      // 00:30+01 = 23:30Z; 01:00Z = 03:00+02; 02:30Z = 04:30+02 would end after 05:00+02 = 03:00Z.
      expected: ['2026-03-29T00:30:00+01:00', '2026-03-29T03:00:00+02:00'],
    },
    {
      name: 'when an interval starts inside the Berlin gap (02:30–04:00), then its first slot is 03:30+02:00',
      availability: compiled('Europe/Berlin', { sunday: [['02:30', '04:00']] }),
      policy: policy({ durationMinutes: 15 }),
      ...BERLIN_SPRING,
      expected: ['2026-03-29T03:30:00+02:00', '2026-03-29T03:45:00+02:00'],
    },
    {
      name: 'when an interval lies entirely inside the Berlin gap (02:00–02:45), then it yields no slot longer than what is left',
      availability: compiled('Europe/Berlin', { sunday: [['02:00', '02:45']] }),
      policy: policy({ durationMinutes: 60 }),
      ...BERLIN_SPRING,
      // 02:00 → 03:00+02, 02:45 → 03:45+02: 45 real minutes, too short for 60.
      expected: [],
    },
    {
      name: 'when one interval ends inside the Berlin gap and the next starts after it, then the overlapping real times are listed once, in order',
      availability: compiled('Europe/Berlin', {
        sunday: [
          ['01:00', '02:30'],
          ['03:00', '04:00'],
        ],
      }),
      policy: policy({ durationMinutes: 30 }),
      ...BERLIN_SPRING,
      // First interval: 00:00Z–01:30Z (02:30 moves forward to 03:30+02); second: 01:00Z–02:00Z.
      // Both grids contain 01:00Z (03:00+02): one slot, not two.
      expected: [
        '2026-03-29T01:00:00+01:00',
        '2026-03-29T01:30:00+01:00',
        '2026-03-29T03:00:00+02:00',
        '2026-03-29T03:30:00+02:00',
      ],
    },
    {
      name: 'when two intervals of the Berlin spring-forward day overlap in real time with different grids, then slots still come out ascending',
      availability: compiled('Europe/Berlin', {
        sunday: [
          ['00:20', '02:30'],
          ['03:00', '04:00'],
        ],
      }),
      policy: policy({ durationMinutes: 10, slotIntervalMinutes: 60 }),
      ...BERLIN_SPRING,
      // First: 23:20Z, 00:20Z, 01:20Z (ends 01:30Z = 03:30+02). Second: 01:00Z (03:00+02).
      expected: [
        '2026-03-29T00:20:00+01:00',
        '2026-03-29T01:20:00+01:00',
        '2026-03-29T03:00:00+02:00',
        '2026-03-29T03:20:00+02:00',
      ],
    },
    {
      name: 'when such overlapping intervals meet a booking, then a booking blocks the later-checked interval too',
      availability: compiled('Europe/Berlin', {
        sunday: [
          ['00:20', '02:30'],
          ['03:00', '04:00'],
        ],
      }),
      policy: policy({ durationMinutes: 10, slotIntervalMinutes: 60 }),
      ...BERLIN_SPRING,
      // Occupies 00:50Z–01:10Z, i.e. 01:50+01 to 03:10+02: blocks 03:00+02 of the second interval.
      bookings: [occupancy('evt_other', '2026-03-29T01:50:00+01:00', 20)],
      expected: ['2026-03-29T00:20:00+01:00', '2026-03-29T01:20:00+01:00', '2026-03-29T03:20:00+02:00'],
    },
    {
      name: 'when Berlin falls back inside 01:00–04:00, then the interval is four real hours and yields four 60-min slots',
      availability: compiled('Europe/Berlin', { sunday: [['01:00', '04:00']] }),
      policy: sixty,
      ...BERLIN_FALL,
      expected: [
        '2026-10-25T01:00:00+02:00',
        '2026-10-25T02:00:00+02:00',
        '2026-10-25T02:00:00+01:00',
        '2026-10-25T03:00:00+01:00',
      ],
    },
    {
      name: 'when an interval starts at an ambiguous Berlin wall time (02:30), then it starts at the earlier offset (+02)',
      availability: compiled('Europe/Berlin', { sunday: [['02:30', '03:30']] }),
      policy: sixty,
      ...BERLIN_FALL,
      // 02:30+02 = 00:30Z to 03:30+01 = 02:30Z: two real hours.
      expected: ['2026-10-25T02:30:00+02:00', '2026-10-25T02:30:00+01:00'],
    },
    {
      name: 'when an interval ends at an ambiguous Berlin wall time (00:00–02:30), then it ends at the earlier offset (02:30+02)',
      availability: compiled('Europe/Berlin', { sunday: [['00:00', '02:30']] }),
      policy: sixty,
      ...BERLIN_FALL,
      // Ends 00:30Z; the later offset (01:30Z) would have let 02:00+02 fit as a third slot.
      expected: ['2026-10-25T00:00:00+02:00', '2026-10-25T01:00:00+02:00'],
    },
    {
      name: 'when New York springs forward inside 01:00–04:00, then there are two real hours: 01:00−05 and 03:00−04',
      availability: compiled('America/New_York', { sunday: [['01:00', '04:00']] }),
      policy: sixty,
      ...NY_SPRING,
      expected: ['2026-03-08T01:00:00-05:00', '2026-03-08T03:00:00-04:00'],
    },
    {
      name: 'when a New York interval starts in the gap (02:15–03:30), then it starts at 03:15−04',
      availability: compiled('America/New_York', { sunday: [['02:15', '03:30']] }),
      policy: policy({ durationMinutes: 15 }),
      ...NY_SPRING,
      expected: ['2026-03-08T03:15:00-04:00'],
    },
    {
      name: 'when New York falls back inside 00:00–03:00, then there are four real hours (01:00 twice)',
      availability: compiled('America/New_York', { sunday: [['00:00', '03:00']] }),
      policy: sixty,
      ...NY_FALL,
      expected: [
        '2026-11-01T00:00:00-04:00',
        '2026-11-01T01:00:00-04:00',
        '2026-11-01T01:00:00-05:00',
        '2026-11-01T02:00:00-05:00',
      ],
    },
    {
      name: 'when a New York interval starts at the ambiguous 01:30, then it takes the earlier offset (−04)',
      availability: compiled('America/New_York', { sunday: [['01:30', '02:30']] }),
      policy: sixty,
      ...NY_FALL,
      expected: ['2026-11-01T01:30:00-04:00', '2026-11-01T01:30:00-05:00'],
    },
    {
      name: 'when Adelaide springs forward (02:00 → 03:00) inside 01:00–04:00, then slots are 01:00+09:30 and 03:00+10:30',
      availability: compiled('Australia/Adelaide', { sunday: [['01:00', '04:00']] }),
      policy: sixty,
      from: '2026-10-02T00:00:00Z',
      to: '2026-10-05T00:00:00Z',
      expected: ['2026-10-04T01:00:00+09:30', '2026-10-04T03:00:00+10:30'],
    },
    {
      name: 'when Chatham springs forward (02:45 → 03:45) inside 02:00–05:00, then slots are 02:00+12:45 and 04:00+13:45',
      availability: compiled('Pacific/Chatham', { sunday: [['02:00', '05:00']] }),
      policy: sixty,
      from: '2026-09-25T00:00:00Z',
      to: '2026-09-28T00:00:00Z',
      expected: ['2026-09-27T02:00:00+12:45', '2026-09-27T04:00:00+13:45'],
    },
    {
      name: 'when Santiago skips midnight (2026-09-06), then 00:00–03:00 starts at 01:00−03 and 22:00–24:00 the evening before is two real hours',
      availability: compiled('America/Santiago', { saturday: [['22:00', '24:00']], sunday: [['00:00', '03:00']] }),
      policy: sixty,
      from: '2026-09-05T00:00:00Z',
      to: '2026-09-08T00:00:00Z',
      expected: [
        '2026-09-05T22:00:00-04:00',
        '2026-09-05T23:00:00-04:00',
        '2026-09-06T01:00:00-03:00',
        '2026-09-06T02:00:00-03:00',
      ],
    },
    {
      name: 'when Santiago repeats 23:00–24:00 (2026-04-04), then 22:00–24:00 is three real hours',
      availability: compiled('America/Santiago', { saturday: [['22:00', '24:00']] }),
      policy: sixty,
      from: '2026-04-04T00:00:00Z',
      to: '2026-04-06T00:00:00Z',
      expected: ['2026-04-04T22:00:00-03:00', '2026-04-04T23:00:00-03:00', '2026-04-04T23:00:00-04:00'],
    },
  ]);
});

describe('listSlots in half-hour zones on ordinary days', () => {
  runListCases([
    {
      name: 'when the zone is Asia/Kolkata (+05:30), then early-morning local slots fall on the previous UTC date',
      availability: compiled('Asia/Kolkata', {
        monday: [
          ['00:00', '02:00'],
          ['09:00', '10:00'],
        ],
      }),
      policy: sixty,
      from: '2026-01-04T00:00:00Z',
      to: '2026-01-06T00:00:00Z',
      expected: ['2026-01-05T00:00:00+05:30', '2026-01-05T01:00:00+05:30', '2026-01-05T09:00:00+05:30'],
    },
    {
      name: 'when the zone is Australia/Adelaide in southern summer, then the offset is +10:30',
      availability: compiled('Australia/Adelaide', { wednesday: [['09:00', '11:00']] }),
      policy: sixty,
      from: '2026-01-06T00:00:00Z',
      to: '2026-01-08T00:00:00Z',
      expected: ['2026-01-07T09:00:00+10:30', '2026-01-07T10:00:00+10:30'],
    },
    {
      name: 'when the zone is Australia/Adelaide in southern winter, then the offset is +09:30',
      availability: compiled('Australia/Adelaide', { wednesday: [['09:00', '11:00']] }),
      policy: sixty,
      from: '2026-07-07T00:00:00Z',
      to: '2026-07-09T00:00:00Z',
      expected: ['2026-07-08T09:00:00+09:30', '2026-07-08T10:00:00+09:30'],
    },
  ]);
});

const MONDAY = { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' };

describe('listSlots interval edges and merging', () => {
  runListCases([
    {
      name: 'when an interval ends at 24:00, then the last slot ends at midnight',
      availability: compiled('Europe/Berlin', { monday: [['22:00', '24:00']] }),
      policy: sixty,
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-07T00:00:00Z',
      expected: ['2026-01-05T22:00:00+01:00', '2026-01-05T23:00:00+01:00'],
    },
    {
      name: 'when two intervals touch (09:00–10:00 + 10:00–11:00), then they merge and a 45-min slot may span the seam',
      availability: compiled('UTC', {
        monday: [
          ['09:00', '10:00'],
          ['10:00', '11:00'],
        ],
      }),
      policy: policy({ durationMinutes: 45 }),
      ...MONDAY,
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T09:45:00Z'],
    },
    {
      name: 'when touching intervals are given out of order, then they still merge',
      availability: compiled('UTC', {
        monday: [
          ['10:00', '11:00'],
          ['09:00', '10:00'],
        ],
      }),
      policy: policy({ durationMinutes: 45 }),
      ...MONDAY,
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T09:45:00Z'],
    },
    {
      name: 'when two intervals do not touch, then each has its own grid and no slot spans the break',
      availability: compiled('UTC', {
        monday: [
          ['09:00', '10:00'],
          ['10:15', '11:15'],
        ],
      }),
      policy: policy({ durationMinutes: 30 }),
      ...MONDAY,
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T09:30:00Z', '2026-01-05T10:15:00Z', '2026-01-05T10:45:00Z'],
    },
    {
      name: 'when Monday ends at 24:00 and Tuesday starts at 00:00, then they do not merge: no slot spans midnight',
      availability: compiled('UTC', { monday: [['22:00', '24:00']], tuesday: [['00:00', '02:00']] }),
      policy: policy({ durationMinutes: 90, slotIntervalMinutes: 30 }),
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-07T00:00:00Z',
      expected: ['2026-01-05T22:00:00Z', '2026-01-05T22:30:00Z', '2026-01-06T00:00:00Z', '2026-01-06T00:30:00Z'],
    },
    {
      name: 'when the range is [09:30, 10:30), then from is inclusive, to exclusive, and a slot may end after to',
      availability: compiled('UTC', { monday: [['09:00', '12:00']] }),
      policy: policy({ durationMinutes: 30 }),
      from: '2026-01-05T09:30:00Z',
      to: '2026-01-05T10:30:00Z',
      expected: ['2026-01-05T09:30:00Z', '2026-01-05T10:00:00Z'],
    },
    {
      name: 'when from is one millisecond past a grid start, then that start is not listed',
      availability: compiled('UTC', { monday: [['09:00', '12:00']] }),
      policy: policy({ durationMinutes: 30 }),
      from: '2026-01-05T09:30:00.001Z',
      to: '2026-01-05T11:00:00Z',
      expected: ['2026-01-05T10:00:00Z', '2026-01-05T10:30:00Z'],
    },
  ]);
});

describe('listSlots with date overrides', () => {
  const weekly = { monday: [['09:00', '11:00']] as Pair[] };
  const twoMondays = { from: '2026-01-05T00:00:00Z', to: '2026-01-13T00:00:00Z' };
  runListCases([
    {
      name: 'when an override replaces a Monday, then that Monday uses only the override intervals and the next Monday the weekly ones',
      availability: compiled('Europe/Berlin', weekly, [['2026-01-05', [['13:00', '15:00']]]]),
      policy: sixty,
      ...twoMondays,
      expected: [
        '2026-01-05T13:00:00+01:00',
        '2026-01-05T14:00:00+01:00',
        '2026-01-12T09:00:00+01:00',
        '2026-01-12T10:00:00+01:00',
      ],
    },
    {
      name: 'when an override is empty, then the day is off',
      availability: compiled('Europe/Berlin', weekly, [['2026-01-05', []]]),
      policy: sixty,
      ...twoMondays,
      expected: ['2026-01-12T09:00:00+01:00', '2026-01-12T10:00:00+01:00'],
    },
    {
      name: 'when an override falls on a day without weekly hours (Saturday), then it opens that day',
      availability: compiled('Europe/Berlin', weekly, [['2026-01-10', [['10:00', '12:00']]]]),
      policy: sixty,
      ...twoMondays,
      expected: [
        '2026-01-05T09:00:00+01:00',
        '2026-01-05T10:00:00+01:00',
        '2026-01-10T10:00:00+01:00',
        '2026-01-10T11:00:00+01:00',
        '2026-01-12T09:00:00+01:00',
        '2026-01-12T10:00:00+01:00',
      ],
    },
    {
      name: 'when an override date is given, then it is the local date in the availability zone, not the UTC date',
      availability: compiled('Asia/Kolkata', {}, [['2026-01-06', [['00:00', '01:00']]]]),
      policy: sixty,
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-07T00:00:00Z',
      expected: ['2026-01-06T00:00:00+05:30'],
    },
    {
      name: 'when override intervals touch, then they merge like weekly ones',
      availability: compiled('UTC', {}, [
        [
          '2026-01-05',
          [
            ['09:00', '10:00'],
            ['10:00', '11:00'],
          ],
        ],
      ]),
      policy: policy({ durationMinutes: 45 }),
      ...MONDAY,
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T09:45:00Z'],
    },
  ]);
});

describe('listSlots with event-type policy', () => {
  const nineToEleven = compiled('UTC', { monday: [['09:00', '11:00']] });
  const nineToOne = compiled('UTC', { monday: [['09:00', '13:00']] });
  runListCases([
    {
      name: 'when slotInterval (20) is shorter than duration (60), then starts step by 20 and the last one still fits',
      availability: nineToEleven,
      policy: policy({ durationMinutes: 60, slotIntervalMinutes: 20 }),
      ...MONDAY,
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T09:20:00Z', '2026-01-05T09:40:00Z', '2026-01-05T10:00:00Z'],
    },
    {
      name: 'when slotInterval (45) is longer than duration (30), then starts step by 45',
      availability: nineToEleven,
      policy: policy({ durationMinutes: 30, slotIntervalMinutes: 45 }),
      ...MONDAY,
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T09:45:00Z', '2026-01-05T10:30:00Z'],
    },
    {
      name: 'when the interval starts off the hour (09:10), then the grid is anchored on the interval start',
      availability: compiled('UTC', { monday: [['09:10', '11:00']] }),
      policy: policy({ durationMinutes: 30 }),
      ...MONDAY,
      expected: ['2026-01-05T09:10:00Z', '2026-01-05T09:40:00Z', '2026-01-05T10:10:00Z'],
    },
    {
      name: 'when the candidate has a 30-min after-buffer, then it must end 30 min before a booking but may end the day with its buffer outside the hours',
      availability: nineToOne,
      policy: policy({ durationMinutes: 60, bufferAfterMinutes: 30 }),
      ...MONDAY,
      bookings: [occupancy('evt_other', '2026-01-05T11:00:00Z', 60)],
      // 10:00 would occupy until 11:30; 12:00 starts exactly when the booking ends.
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T12:00:00Z'],
    },
    {
      name: 'when the candidate has a 30-min before-buffer, then it may start right after a booking only 30 min later',
      availability: nineToOne,
      policy: policy({ durationMinutes: 60, bufferBeforeMinutes: 30 }),
      ...MONDAY,
      bookings: [occupancy('evt_other', '2026-01-05T11:00:00Z', 60)],
      // 10:00 occupies 09:30–11:00 (touching is fine); 12:00 would occupy from 11:30.
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z'],
    },
    {
      name: 'when an existing booking carries its own buffers, then its occupiedStart/occupiedEnd block, not its bare start/end',
      availability: nineToOne,
      policy: policy({ durationMinutes: 30 }),
      ...MONDAY,
      // Booked 11:00–11:30 with 15 min before and 45 min after: occupies 10:45–12:15.
      bookings: [occupancy('evt_other', '2026-01-05T11:00:00Z', 30, 15, 45)],
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T09:30:00Z', '2026-01-05T10:00:00Z', '2026-01-05T12:30:00Z'],
    },
    {
      name: 'when bookings overlap each other, then the union of their occupancies is blocked',
      availability: nineToOne,
      policy: policy({ durationMinutes: 30 }),
      ...MONDAY,
      bookings: [occupancy('evt_a', '2026-01-05T09:30:00Z', 60), occupancy('evt_other', '2026-01-05T10:00:00Z', 90)],
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T11:30:00Z', '2026-01-05T12:00:00Z', '2026-01-05T12:30:00Z'],
    },
    {
      name: 'when one booking lies within a longer one, then the longer one still blocks until its own end',
      availability: nineToOne,
      policy: policy({ durationMinutes: 30 }),
      ...MONDAY,
      bookings: [occupancy('evt_other', '2026-01-05T09:00:00Z', 180), occupancy('evt_a', '2026-01-05T09:30:00Z', 30)],
      expected: ['2026-01-05T12:00:00Z', '2026-01-05T12:30:00Z'],
    },
    {
      name: 'when the minimum notice is 60 min at 08:50, then the first slot is the first grid start at or after 09:50',
      availability: compiled('UTC', { monday: [['09:00', '12:00']] }),
      policy: policy({ durationMinutes: 30, minimumNoticeMinutes: 60 }),
      ...MONDAY,
      now: '2026-01-05T08:50:00Z',
      expected: ['2026-01-05T10:00:00Z', '2026-01-05T10:30:00Z', '2026-01-05T11:00:00Z', '2026-01-05T11:30:00Z'],
    },
    {
      name: 'when now + notice equals a grid start, then that start is listed (S ≥ now + notice)',
      availability: compiled('UTC', { monday: [['09:00', '10:00']] }),
      policy: policy({ durationMinutes: 30, minimumNoticeMinutes: 60 }),
      ...MONDAY,
      now: '2026-01-05T08:00:00Z',
      expected: ['2026-01-05T09:00:00Z', '2026-01-05T09:30:00Z'],
    },
    {
      name: 'when notice is 0, then starts in the past are still not listed',
      availability: compiled('UTC', { monday: [['09:00', '11:00']] }),
      policy: policy({ durationMinutes: 30 }),
      ...MONDAY,
      now: '2026-01-05T09:45:00Z',
      expected: ['2026-01-05T10:00:00Z', '2026-01-05T10:30:00Z'],
    },
    {
      name: 'when the booking window is 1 day at Monday 10:00, then starts stop before Tuesday 10:00 (S < now + 24 h)',
      availability: compiled('UTC', { monday: [['09:00', '12:00']], tuesday: [['09:00', '12:00']] }),
      policy: policy({ durationMinutes: 30, bookingWindowDays: 1 }),
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-07T00:00:00Z',
      now: '2026-01-05T10:00:00Z',
      expected: [
        '2026-01-05T10:00:00Z',
        '2026-01-05T10:30:00Z',
        '2026-01-05T11:00:00Z',
        '2026-01-05T11:30:00Z',
        '2026-01-06T09:00:00Z',
        '2026-01-06T09:30:00Z',
      ],
    },
    {
      name: 'when the booking window spans a DST change, then it is counted in 24-hour days of real time, not local days',
      availability: compiled('Europe/Berlin', { sunday: [['08:00', '12:00']] }),
      policy: policy({ durationMinutes: 60, bookingWindowDays: 1 }),
      from: '2026-03-28T00:00:00Z',
      to: '2026-03-31T00:00:00Z',
      // now = Saturday 10:00+01 = 09:00Z; the window ends Sunday 09:00Z = 11:00+02, not at 10:00+02
      // (the same wall time a local day later).
      now: '2026-03-28T10:00:00+01:00',
      expected: ['2026-03-29T08:00:00+02:00', '2026-03-29T09:00:00+02:00', '2026-03-29T10:00:00+02:00'],
    },
  ]);
});

describe('listSlots with maxBookingsPerDay (local date in the availability zone, same event type only)', () => {
  // Tokyo is UTC+09:00 all year, so its morning is the previous UTC date.
  const tokyo = compiled('Asia/Tokyo', { monday: [['08:00', '10:00']], tuesday: [['08:00', '10:00']] });
  const range = { from: '2026-01-04T00:00:00Z', to: '2026-01-07T00:00:00Z' };
  // Tuesday 2026-01-06 07:00 in Tokyo, which is Monday 2026-01-05 on the UTC calendar.
  const tuesdayEarlyOwn = occupancy('evt_a', '2026-01-06T07:00:00+09:00', 60);
  // Monday 2026-01-05 12:00 in Tokyo, another event type.
  const mondayOther = occupancy('evt_other', '2026-01-05T12:00:00+09:00', 60);
  const allFour = [
    '2026-01-05T08:00:00+09:00',
    '2026-01-05T09:00:00+09:00',
    '2026-01-06T08:00:00+09:00',
    '2026-01-06T09:00:00+09:00',
  ];
  runListCases([
    {
      name: 'when the limit is 1 and a booking of the same event type starts on the local Tuesday (a UTC Monday), then only Tuesday is full',
      availability: tokyo,
      policy: policy({ durationMinutes: 60, maxBookingsPerDay: 1 }),
      ...range,
      bookings: [tuesdayEarlyOwn, mondayOther],
      expected: ['2026-01-05T08:00:00+09:00', '2026-01-05T09:00:00+09:00'],
    },
    {
      name: 'when the limit is 2 and the day has one booking of the event type, then the day stays open',
      availability: tokyo,
      policy: policy({ durationMinutes: 60, maxBookingsPerDay: 2 }),
      ...range,
      bookings: [tuesdayEarlyOwn, mondayOther],
      expected: allFour,
    },
    {
      name: 'when bookings of another event type fill the day, then they do not count for the limit',
      availability: tokyo,
      policy: policy({ durationMinutes: 60, maxBookingsPerDay: 1 }),
      ...range,
      bookings: [mondayOther, occupancy('evt_other', '2026-01-06T12:00:00+09:00', 60)],
      expected: allFour,
    },
    {
      name: 'when a booking of another event type overlaps a slot, then it blocks that slot only',
      availability: tokyo,
      policy: policy({ durationMinutes: 60, maxBookingsPerDay: 1 }),
      ...range,
      bookings: [occupancy('evt_other', '2026-01-05T08:00:00+09:00', 60)],
      expected: ['2026-01-05T09:00:00+09:00', '2026-01-06T08:00:00+09:00', '2026-01-06T09:00:00+09:00'],
    },
    {
      name: 'when the context is for another event type, then the first event type’s bookings do not count against it',
      availability: tokyo,
      policy: policy({ durationMinutes: 60, maxBookingsPerDay: 1 }),
      ...range,
      eventTypeId: 'evt_b',
      bookings: [tuesdayEarlyOwn],
      expected: allFour,
    },
  ]);
});

describe('checkBookable gives the reason of the rule a start breaks', () => {
  // Mon–Tue 09:00–12:00 UTC; 60-min event on a 30-min grid; 90 min notice; 14-day window; 1 per day.
  const ctx = context(
    compiled('UTC', { monday: [['09:00', '12:00']], tuesday: [['09:00', '12:00']] }),
    policy({
      durationMinutes: 60,
      slotIntervalMinutes: 30,
      minimumNoticeMinutes: 90,
      bookingWindowDays: 14,
      maxBookingsPerDay: 1,
    }),
    {
      now: ms('2026-01-05T08:00:00Z'),
      bookings: [
        occupancy('evt_a', '2026-01-06T11:00:00Z', 60),
        // Another event type on Monday 2026-01-12, 10:00–11:00, booked with a 15-min after-buffer.
        occupancy('evt_other', '2026-01-12T10:00:00Z', 60, 0, 15),
      ],
    },
  );
  const table: Array<[string, string, UnbookableReason | null]> = [
    ['an on-grid start after the notice', '2026-01-05T09:30:00Z', null],
    ['a start ending exactly at the interval end', '2026-01-05T11:00:00Z', null],
    ['a start off the 30-min grid', '2026-01-05T09:45:00Z', 'outside-availability'],
    ['a start one millisecond off the grid', '2026-01-05T10:00:00.001Z', 'outside-availability'],
    ['a start before the open hours', '2026-01-05T08:30:00Z', 'outside-availability'],
    ['a start whose end passes the interval end', '2026-01-05T11:30:00Z', 'outside-availability'],
    ['a start on a day without hours', '2026-01-07T09:00:00Z', 'outside-availability'],
    ['an on-grid start within the notice', '2026-01-05T09:00:00Z', 'before-minimum-notice'],
    ['an on-grid start in the past', '2025-12-29T09:00:00Z', 'before-minimum-notice'],
    ['an on-grid start at now + 14 days or later', '2026-01-19T09:00:00Z', 'beyond-booking-window'],
    ['an on-grid start well inside the 14-day window', '2026-01-13T11:00:00Z', null],
    [
      'an on-grid start on a day that already has its booking of this event type',
      '2026-01-06T09:00:00Z',
      'daily-limit-reached',
    ],
    ['a start overlapping another event type’s booking', '2026-01-12T09:30:00Z', 'overlaps-booking'],
    ['a start overlapping only that booking’s after-buffer', '2026-01-12T11:00:00Z', 'overlaps-booking'],
    ['a start ending exactly when that booking begins', '2026-01-12T09:00:00Z', null],
  ];
  for (const [what, start, reason] of table) {
    it(`when it is ${what} (${start}), then the answer is ${reason ?? 'bookable'}`, () => {
      expect(checkBookable(ctx, ms(start))).toBe(reason);
    });
  }

  it('when the window ends between two grid starts, then the start just before the end is bookable and the one at the end is not', () => {
    const windowCtx = context(
      compiled('UTC', { monday: [['08:00', '12:00']], tuesday: [['08:00', '12:00']] }),
      policy({ durationMinutes: 30, bookingWindowDays: 1 }),
      { now: ms('2026-01-05T09:00:00Z') },
    );
    expect(checkBookable(windowCtx, ms('2026-01-06T08:30:00Z'))).toBeNull();
    expect(checkBookable(windowCtx, ms('2026-01-06T09:00:00Z'))).toBe('beyond-booking-window');
  });

  it('when a start lies in a DST gap interval (02:30–04:00 Berlin), then 03:30+02:00 is bookable and 02:30+01:00 is not', () => {
    const gapCtx = context(
      compiled('Europe/Berlin', { sunday: [['02:30', '04:00']] }),
      policy({ durationMinutes: 30 }),
    );
    expect(checkBookable(gapCtx, ms('2026-03-29T03:30:00+02:00'))).toBeNull();
    // The interval is 01:30Z–02:00Z: 01:30+01:00 (00:30Z) and 03:00+02:00 (01:00Z) lie before it.
    expect(checkBookable(gapCtx, ms('2026-03-29T01:30:00+01:00'))).toBe('outside-availability');
    expect(checkBookable(gapCtx, ms('2026-03-29T03:00:00+02:00'))).toBe('outside-availability');
  });

  it('when Berlin falls back, then the second 02:00 (+01) is bookable on a 01:00–04:00 interval just like the first (+02)', () => {
    const fallCtx = context(compiled('Europe/Berlin', { sunday: [['01:00', '04:00']] }), sixty);
    expect(checkBookable(fallCtx, ms('2026-10-25T02:00:00+02:00'))).toBeNull();
    expect(checkBookable(fallCtx, ms('2026-10-25T02:00:00+01:00'))).toBeNull();
    expect(checkBookable(fallCtx, ms('2026-10-25T04:00:00+01:00'))).toBe('outside-availability');
  });

  it('when the daily limit is counted, then a booking on the same UTC date but another local date does not count', () => {
    const tokyoCtx = context(
      compiled('Asia/Tokyo', { monday: [['08:00', '10:00']], tuesday: [['08:00', '10:00']] }),
      policy({ durationMinutes: 60, maxBookingsPerDay: 1 }),
      { bookings: [occupancy('evt_a', '2026-01-06T07:00:00+09:00', 60)] },
    );
    // 2026-01-05T09:00+09:00 is 2026-01-05T00:00Z: the same UTC date as the booking (2026-01-05T22:00Z).
    expect(checkBookable(tokyoCtx, ms('2026-01-05T09:00:00+09:00'))).toBeNull();
    expect(checkBookable(tokyoCtx, ms('2026-01-06T09:00:00+09:00'))).toBe('daily-limit-reached');
  });
});
