// Busy time from iCalendar text: exports shaped like Google's, Outlook's and Apple's, time zones
// (DST in both hemispheres, Windows names, VTIMEZONE definitions, gaps and repeats), recurrence
// with its exceptions, and what bounds and garbage give. Expected intervals are written out as
// local times with their offsets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { busyFromCalendars, busyFromICalendar, type BusyLimits } from '../../src/domain/busy-time.js';
import { ianaZoneOfTzid } from '../../src/domain/ical-zones.js';
import { WINDOWS_ZONES } from '../../src/domain/windows-zones.js';
import { canonicalTimeZone } from '../../src/domain/zone.js';
import { cpuMsSince } from '../support/cpu-time.js';

const LIMITS: BusyLimits = { maxEvents: 20_000, maxIntervals: 50_000, maxRecurrenceSteps: 200_000 };

function fixture(name: string): string {
  return readFileSync(join(import.meta.dirname, '../fixtures/calendars', name), 'utf8');
}

const utc = (at: string | number) => new Date(typeof at === 'number' ? at : Date.parse(at)).toISOString();

/** The busy intervals as [start, end] in UTC ISO form, or the error. */
function busy(text: string, from: string, to: string, zone = 'Europe/Berlin', limits = LIMITS) {
  const result = busyFromICalendar(text, { start: Date.parse(from), end: Date.parse(to) }, zone, limits);
  if (!result.ok) return result;
  return {
    ...result,
    intervals: result.intervals.map((interval) => [
      new Date(interval.start).toISOString(),
      new Date(interval.end).toISOString(),
    ]),
  };
}

function intervals(...pairs: [string, string][]) {
  return pairs.map(([start, end]) => [utc(start), utc(end)]);
}

/** A calendar of the given VEVENT bodies (and extra top-level lines such as VTIMEZONEs). */
function calendar(events: string[][], extra: string[] = []): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Slotwise tests//EN',
    ...extra,
    ...events.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

describe('busyFromICalendar on real-shaped exports', () => {
  it('when a Google secret address is read, then the series keeps 09:30 Berlin across the change, its EXDATE, moved and cancelled instances apply, and all-day, UTC, yearly, cancelled, transparent and timeless events count as they should', () => {
    const result = busy(fixture('google-secret.ics'), '2026-03-09T00:00+01:00', '2026-04-02T00:00+02:00');
    expect(result).toEqual({
      ok: true,
      skippedEvents: 0,
      ofAppointments: [],
      intervals: intervals(
        ['2026-03-09T09:30+01:00', '2026-03-09T09:45+01:00'],
        // 11 March: EXDATE. 16 March: moved to 11:00.
        ['2026-03-16T11:00+01:00', '2026-03-16T11:30+01:00'],
        ['2026-03-16T14:00+01:00', '2026-03-16T15:00+01:00'],
        ['2026-03-17T14:00+01:00', '2026-03-17T15:00+01:00'],
        ['2026-03-18T09:30+01:00', '2026-03-18T09:45+01:00'],
        // UNTIL=20260318T130000Z is this occurrence's start: included.
        ['2026-03-18T14:00+01:00', '2026-03-18T15:00+01:00'],
        ['2026-03-20T13:00Z', '2026-03-20T14:00Z'],
        // A yearly dinner since 2015.
        ['2026-03-21T19:00+01:00', '2026-03-21T22:00+01:00'],
        ['2026-03-23T09:30+01:00', '2026-03-23T09:45+01:00'],
        // 25 March: cancelled instance. The conference: two local days, 47 hours (summer time begins).
        ['2026-03-28T00:00+01:00', '2026-03-30T00:00+02:00'],
        ['2026-03-30T09:30+02:00', '2026-03-30T09:45+02:00'],
        ['2026-04-01T09:30+02:00', '2026-04-01T09:45+02:00'],
      ),
    });
  });

  it('when an Exchange calendar is read, then Windows zone names, the EXDATE list and UNTIL, a customized zone defined only by its VTIMEZONE, free, tentative, cancelled and out-of-office events count as they should', () => {
    const result = busy(fixture('outlook-exchange.ics'), '2026-03-02T00:00Z', '2026-04-20T00:00Z');
    expect(result).toEqual({
      ok: true,
      skippedEvents: 0,
      ofAppointments: [],
      intervals: intervals(
        ['2026-03-03T10:00+01:00', '2026-03-03T11:00+01:00'],
        ['2026-03-05T10:00+01:00', '2026-03-05T11:00+01:00'],
        // Tentative blocks; the free lunch on 4 March does not.
        ['2026-03-09T15:00+01:00', '2026-03-09T15:30+01:00'],
        ['2026-03-10T10:00+01:00', '2026-03-10T11:00+01:00'],
        // Pacific Standard Time, three days into summer time there.
        ['2026-03-11T09:00-07:00', '2026-03-11T10:00-07:00'],
        ['2026-03-12T10:00+01:00', '2026-03-12T11:00+01:00'],
        // 17 and 19 March: EXDATE. 20 March: out of office, a local day in the holder's zone.
        ['2026-03-20T00:00+01:00', '2026-03-21T00:00+01:00'],
        ['2026-03-24T10:00+01:00', '2026-03-24T11:00+01:00'],
        // The customized zone (Sydney's rules): daylight time until 5 April.
        ['2026-03-26T09:00+11:00', '2026-03-26T10:00+11:00'],
        ['2026-03-26T10:00+01:00', '2026-03-26T11:00+01:00'],
        ['2026-03-31T10:00+02:00', '2026-03-31T11:00+02:00'],
        ['2026-04-02T09:00+11:00', '2026-04-02T10:00+11:00'],
        ['2026-04-02T10:00+02:00', '2026-04-02T11:00+02:00'],
        ['2026-04-07T10:00+02:00', '2026-04-07T11:00+02:00'],
        ['2026-04-09T09:00+10:00', '2026-04-09T10:00+10:00'],
        ['2026-04-09T10:00+02:00', '2026-04-09T11:00+02:00'],
        ['2026-04-14T10:00+02:00', '2026-04-14T11:00+02:00'],
        // UNTIL=20260416T080000Z is this occurrence's start: the last one.
        ['2026-04-16T10:00+02:00', '2026-04-16T11:00+02:00'],
      ),
    });
  });

  it('when an iCloud calendar (LF line ends) is read, then COUNT, RDATE, a cancelled and a moved override, a floating time, a monthly second Tuesday and a yearly all-day event count in Los Angeles time', () => {
    const result = busy(
      fixture('apple-icloud.ics'),
      '2026-02-23T00:00-08:00',
      '2026-05-04T00:00-07:00',
      'America/Los_Angeles',
    );
    expect(result).toEqual({
      ok: true,
      skippedEvents: 0,
      ofAppointments: [],
      intervals: intervals(
        ['2026-02-27T08:00-08:00', '2026-02-27T09:00-08:00'],
        ['2026-03-06T08:00-08:00', '2026-03-06T09:00-08:00'],
        ['2026-03-10T19:00-07:00', '2026-03-10T21:00-07:00'],
        // RDATE: an extra Wednesday lesson. 13 March: cancelled.
        ['2026-03-11T17:00-07:00', '2026-03-11T18:00-07:00'],
        // Floating: read in the holder's zone.
        ['2026-03-15T10:00-07:00', '2026-03-15T11:30-07:00'],
        ['2026-03-20T08:00-07:00', '2026-03-20T09:00-07:00'],
        ['2026-03-27T08:00-07:00', '2026-03-27T09:00-07:00'],
        ['2026-04-03T08:00-07:00', '2026-04-03T09:00-07:00'],
        ['2026-04-06T00:00-07:00', '2026-04-07T00:00-07:00'],
        ['2026-04-10T08:00-07:00', '2026-04-10T09:00-07:00'],
        // The second Tuesday (14 April) moved to Thursday.
        ['2026-04-16T19:00-07:00', '2026-04-16T21:00-07:00'],
        ['2026-04-17T08:00-07:00', '2026-04-17T09:00-07:00'],
        ['2026-04-24T08:00-07:00', '2026-04-24T09:00-07:00'],
        // COUNT=10: the tenth lesson.
        ['2026-05-01T08:00-07:00', '2026-05-01T09:00-07:00'],
      ),
    });
  });
});

describe('busyFromICalendar and time zones', () => {
  // A weekly 10:00 across each zone's changes of 2026 stays 10:00 local (written with its offset).
  const DST_CASES: { zone: string; start: string; expected: string[] }[] = [
    {
      zone: 'Europe/Berlin',
      start: '20260319',
      expected: ['2026-03-19T10:00+01:00', '2026-03-26T10:00+01:00', '2026-04-02T10:00+02:00'],
    },
    { zone: 'Europe/Berlin', start: '20261022', expected: ['2026-10-22T10:00+02:00', '2026-10-29T10:00+01:00'] },
    { zone: 'America/New_York', start: '20260306', expected: ['2026-03-06T10:00-05:00', '2026-03-13T10:00-04:00'] },
    { zone: 'America/New_York', start: '20261030', expected: ['2026-10-30T10:00-04:00', '2026-11-06T10:00-05:00'] },
    { zone: 'Australia/Sydney', start: '20260402', expected: ['2026-04-02T10:00+11:00', '2026-04-09T10:00+10:00'] },
    { zone: 'Australia/Sydney', start: '20261001', expected: ['2026-10-01T10:00+10:00', '2026-10-08T10:00+11:00'] },
    { zone: 'Asia/Kolkata', start: '20260326', expected: ['2026-03-26T10:00+05:30', '2026-04-02T10:00+05:30'] },
    { zone: 'America/Santiago', start: '20260402', expected: ['2026-04-02T10:00-03:00', '2026-04-09T10:00-04:00'] },
    { zone: 'America/Santiago', start: '20260903', expected: ['2026-09-03T10:00-04:00', '2026-09-10T10:00-03:00'] },
    { zone: 'Pacific/Auckland', start: '20260402', expected: ['2026-04-02T10:00+13:00', '2026-04-09T10:00+12:00'] },
    { zone: 'Pacific/Auckland', start: '20260924', expected: ['2026-09-24T10:00+12:00', '2026-10-01T10:00+13:00'] },
  ];

  for (const { zone, start, expected } of DST_CASES) {
    it(`when a weekly 10:00 in ${zone} from ${start} crosses a change, then every occurrence is at 10:00 local`, () => {
      const text = calendar([
        [
          'UID:weekly',
          `DTSTART;TZID=${zone}:${start}T100000`,
          `DTEND;TZID=${zone}:${start}T103000`,
          `RRULE:FREQ=WEEKLY;COUNT=${expected.length}`,
        ],
      ]);
      // The holder's zone is another one: the TZID alone decides.
      const result = busy(text, '2026-01-01T00:00Z', '2027-01-01T00:00Z', 'Asia/Tokyo');
      expect(result).toEqual({
        ok: true,
        skippedEvents: 0,
        ofAppointments: [],
        intervals: expected.map((at) => [utc(at), utc(Date.parse(at) + 30 * 60_000)]),
      });
    });
  }

  it('when TZIDs are Windows names without a VTIMEZONE, then they are read as CLDR’s IANA zones', () => {
    const names: [string, string][] = [
      ['Eastern Standard Time', '2026-07-01T09:00-04:00'],
      ['Tokyo Standard Time', '2026-07-01T09:00+09:00'],
      ['India Standard Time', '2026-07-01T09:00+05:30'],
      ['AUS Eastern Standard Time', '2026-07-01T09:00+10:00'],
      ['GMT Standard Time', '2026-07-01T09:00+01:00'],
      ['Romance Standard Time', '2026-07-01T09:00+02:00'],
      ['UTC', '2026-07-01T09:00Z'],
    ];
    for (const [tzid, at] of names) {
      const text = calendar([[`UID:${tzid}`, `DTSTART;TZID=${tzid}:20260701T090000`, 'DURATION:PT1H']]);
      expect(busy(text, '2026-06-01T00:00Z', '2026-08-01T00:00Z', 'Pacific/Honolulu'), tzid).toMatchObject({
        intervals: [[utc(at), utc(Date.parse(at) + 3_600_000)]],
      });
    }
  });

  it('when the Windows table is read, then every one of its zones is one Temporal knows', () => {
    const entries = Object.entries(WINDOWS_ZONES);
    expect(entries.length).toBeGreaterThan(130);
    for (const [windowsName, zone] of entries) {
      expect(canonicalTimeZone(zone), zone).toBeDefined();
      // "UTC" is an IANA name too, read as such.
      expect(ianaZoneOfTzid(windowsName), windowsName).toBe(canonicalTimeZone(windowsName) ?? canonicalTimeZone(zone));
    }
  });

  it('when a TZID carries a path prefix (Mozilla, libical), then the IANA name at its end is used', () => {
    expect(ianaZoneOfTzid('/mozilla.org/20050126_1/Europe/Berlin')).toBe('Europe/Berlin');
    expect(ianaZoneOfTzid('/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires')).toBe(
      'America/Argentina/Buenos_Aires',
    );
    expect(ianaZoneOfTzid('/citadel.org/20190914_1/Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(ianaZoneOfTzid('Customized Time Zone')).toBeUndefined();
    expect(ianaZoneOfTzid('Not/A_Zone')).toBeUndefined();
  });

  it('when a file defines an IANA-named zone with wrong rules, then the zone database wins', () => {
    const bogus = [
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+0500',
      'TZOFFSETTO:+0500',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const text = calendar([['UID:a', 'DTSTART;TZID=Europe/Berlin:20260701T090000', 'DURATION:PT1H']], bogus);
    expect(busy(text, '2026-06-01T00:00Z', '2026-08-01T00:00Z')).toMatchObject({
      intervals: intervals(['2026-07-01T09:00+02:00', '2026-07-01T10:00+02:00']),
    });
  });

  it('when a TZID is unknown, then its VTIMEZONE decides, and without one the holder’s zone does', () => {
    const defined = [
      'BEGIN:VTIMEZONE',
      'TZID:Kathmandu office',
      'BEGIN:STANDARD',
      'DTSTART:19860101T001500',
      'TZOFFSETFROM:+0530',
      'TZOFFSETTO:+0545',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const text = calendar(
      [
        ['UID:a', 'DTSTART;TZID=Kathmandu office:20260701T090000', 'DURATION:PT1H'],
        ['UID:b', 'DTSTART;TZID=Atlantis Standard Time:20260702T090000', 'DURATION:PT1H'],
      ],
      defined,
    );
    expect(busy(text, '2026-06-01T00:00Z', '2026-08-01T00:00Z', 'America/New_York')).toMatchObject({
      intervals: intervals(
        ['2026-07-01T09:00+05:45', '2026-07-01T10:00+05:45'],
        ['2026-07-02T09:00-04:00', '2026-07-02T10:00-04:00'],
      ),
    });
  });

  const CUSTOM_BERLIN = [
    'BEGIN:VTIMEZONE',
    'TZID:Customized Time Zone',
    'BEGIN:STANDARD',
    'DTSTART:16010101T030000',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:16010101T020000',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
  ];

  for (const tzid of ['Europe/Berlin', 'Customized Time Zone']) {
    it(`when a time falls in the spring gap or the autumn repeat (${tzid}), then the gap is read with the offset before it and the repeat as its first occurrence`, () => {
      const text = calendar(
        [
          ['UID:gap', `DTSTART;TZID=${tzid}:20260329T023000`, 'DURATION:PT30M'],
          ['UID:repeat', `DTSTART;TZID=${tzid}:20261025T023000`, 'DURATION:PT15M'],
        ],
        CUSTOM_BERLIN,
      );
      expect(busy(text, '2026-03-01T00:00Z', '2026-11-01T00:00Z')).toMatchObject({
        intervals: intervals(
          // 02:30 does not exist on 29 March: 02:30+01:00, which is 03:30 summer time.
          ['2026-03-29T02:30+01:00', '2026-03-29T03:00+01:00'],
          ['2026-10-25T02:30+02:00', '2026-10-25T02:45+02:00'],
        ),
      });
    });
  }

  it('when events are all-day or floating, then they are read in the holder’s zone, local midnight to local midnight, on days of 23 and 25 hours too', () => {
    const text = calendar([
      ['UID:spring', 'DTSTART;VALUE=DATE:20260329'],
      ['UID:autumn', 'DTSTART;VALUE=DATE:20261025', 'DTEND;VALUE=DATE:20261026'],
      ['UID:floating', 'DTSTART:20260701T090000', 'DTEND:20260701T093000'],
      ['UID:tzid-on-a-date', 'DTSTART;TZID=Asia/Tokyo;VALUE=DATE:20260801'],
    ]);
    expect(busy(text, '2026-03-01T00:00Z', '2026-12-01T00:00Z')).toMatchObject({
      intervals: intervals(
        ['2026-03-29T00:00+01:00', '2026-03-30T00:00+02:00'],
        ['2026-07-01T09:00+02:00', '2026-07-01T09:30+02:00'],
        ['2026-08-01T00:00+02:00', '2026-08-02T00:00+02:00'],
        ['2026-10-25T00:00+02:00', '2026-10-26T00:00+01:00'],
      ),
    });
  });

  it('when a holder’s local midnight does not exist (Santiago, 6 September), then the all-day event starts when that day does', () => {
    const text = calendar([['UID:a', 'DTSTART;VALUE=DATE:20260906']]);
    expect(busy(text, '2026-09-01T00:00Z', '2026-10-01T00:00Z', 'America/Santiago')).toMatchObject({
      intervals: intervals(['2026-09-06T01:00-03:00', '2026-09-07T00:00-03:00']),
    });
  });

  it('when lengths come from DTEND, DURATION or neither, then DTEND is exact, a DURATION in days nominal, and a date-time without either blocks nothing', () => {
    const text = calendar([
      // A night shift 22:00–02:00 (4 hours) every Saturday: still 4 hours across the change.
      [
        'UID:night',
        'DTSTART;TZID=Europe/Berlin:20260321T220000',
        'DTEND;TZID=Europe/Berlin:20260322T020000',
        'RRULE:FREQ=WEEKLY;COUNT=2',
      ],
      // One day from noon: noon to noon on the wall clock, 25 hours.
      ['UID:nominal', 'DTSTART;TZID=Europe/Berlin:20261024T120000', 'DURATION:P1D'],
      ['UID:exact', 'DTSTART;TZID=America/New_York:20260307T120000', 'DURATION:PT24H'],
      ['UID:moment', 'DTSTART;TZID=Europe/Berlin:20260401T120000'],
    ]);
    expect(busy(text, '2026-03-01T00:00Z', '2026-11-01T00:00Z')).toMatchObject({
      intervals: intervals(
        ['2026-03-07T12:00-05:00', '2026-03-08T13:00-04:00'],
        ['2026-03-21T22:00+01:00', '2026-03-22T02:00+01:00'],
        ['2026-03-28T22:00+01:00', '2026-03-29T03:00+02:00'],
        ['2026-10-24T12:00+02:00', '2026-10-25T12:00+01:00'],
      ),
    });
  });
});

describe('busyFromICalendar and recurrence', () => {
  it('when overrides replace occurrences, then the highest SEQUENCE wins, a transparent one frees its time, one without its series still blocks, and another event at the same time merges with the series', () => {
    const text = calendar([
      ['UID:s', 'DTSTART;TZID=Europe/Berlin:20260302T100000', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;COUNT=5'],
      [
        'UID:s',
        'RECURRENCE-ID;TZID=Europe/Berlin:20260303T100000',
        'SEQUENCE:1',
        'DTSTART;TZID=Europe/Berlin:20260303T120000',
        'DURATION:PT1H',
      ],
      [
        'UID:s',
        'RECURRENCE-ID;TZID=Europe/Berlin:20260303T100000',
        'SEQUENCE:2',
        'DTSTART;TZID=Europe/Berlin:20260303T140000',
        'DURATION:PT1H',
      ],
      // RECURRENCE-ID in UTC for a zoned series: the same instant.
      [
        'UID:s',
        'RECURRENCE-ID:20260304T090000Z',
        'DTSTART;TZID=Europe/Berlin:20260304T100000',
        'DURATION:PT1H',
        'TRANSP:TRANSPARENT',
      ],
      [
        'UID:orphan',
        'RECURRENCE-ID;TZID=Europe/Berlin:20260310T100000',
        'DTSTART;TZID=Europe/Berlin:20260310T160000',
        'DURATION:PT1H',
      ],
      ['UID:other', 'DTSTART;TZID=Europe/Berlin:20260305T100000', 'DURATION:PT30M'],
    ]);
    expect(busy(text, '2026-03-01T00:00Z', '2026-04-01T00:00Z')).toMatchObject({
      intervals: intervals(
        ['2026-03-02T10:00+01:00', '2026-03-02T11:00+01:00'],
        ['2026-03-03T14:00+01:00', '2026-03-03T15:00+01:00'],
        ['2026-03-05T10:00+01:00', '2026-03-05T11:00+01:00'],
        ['2026-03-06T10:00+01:00', '2026-03-06T11:00+01:00'],
        ['2026-03-10T16:00+01:00', '2026-03-10T17:00+01:00'],
      ),
    });
  });

  it('when a series has RDATE periods, date EXDATEs and UNTIL as a date, then each applies', () => {
    const text = calendar([
      [
        'UID:r',
        'DTSTART;TZID=America/New_York:20260302T090000',
        'DTEND;TZID=America/New_York:20260302T100000',
        // UNTIL as a bare date for date-times: the whole day counts.
        'RRULE:FREQ=DAILY;UNTIL=20260306',
        'EXDATE;VALUE=DATE:20260304',
        'RDATE;VALUE=PERIOD:20260310T170000Z/20260310T173000Z,20260311T170000Z/PT2H',
      ],
    ]);
    expect(busy(text, '2026-03-01T00:00Z', '2026-04-01T00:00Z', 'UTC')).toMatchObject({
      intervals: intervals(
        ['2026-03-02T09:00-05:00', '2026-03-02T10:00-05:00'],
        ['2026-03-03T09:00-05:00', '2026-03-03T10:00-05:00'],
        ['2026-03-05T09:00-05:00', '2026-03-05T10:00-05:00'],
        ['2026-03-06T09:00-05:00', '2026-03-06T10:00-05:00'],
        ['2026-03-10T17:00Z', '2026-03-10T17:30Z'],
        ['2026-03-11T17:00Z', '2026-03-11T19:00Z'],
      ),
    });
  });

  it('when series began decades ago, then their occurrences in the window are exact and cheap to find', () => {
    const text = calendar([
      ['UID:daily', 'DTSTART;TZID=Europe/Berlin:19900101T080000', 'DURATION:PT15M', 'RRULE:FREQ=DAILY;INTERVAL=3'],
      [
        'UID:weekday',
        'DTSTART;TZID=Europe/Berlin:19950102T120000',
        'DURATION:PT30M',
        'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
      ],
      ['UID:monthly', 'DTSTART;TZID=Europe/Berlin:19900131T180000', 'DURATION:PT1H', 'RRULE:FREQ=MONTHLY'],
      ['UID:leap', 'DTSTART;VALUE=DATE:19920229', 'RRULE:FREQ=YEARLY'],
    ]);
    const started = process.cpuUsage();
    const result = busy(text, '2028-02-26T00:00+01:00', '2028-03-02T00:00+01:00', 'Europe/Berlin', {
      ...LIMITS,
      maxRecurrenceSteps: 2_000,
    });
    expect(cpuMsSince(started)).toBeLessThan(1_000);
    // 1 January 1990 + 3k days: 26 February 2028 is day 13,935 = 3 × 4,645.
    expect(result).toMatchObject({
      intervals: intervals(
        ['2028-02-26T08:00+01:00', '2028-02-26T08:15+01:00'],
        ['2028-02-28T12:00+01:00', '2028-02-28T12:30+01:00'],
        ['2028-02-29T00:00+01:00', '2028-03-01T00:00+01:00'],
        ['2028-03-01T12:00+01:00', '2028-03-01T12:30+01:00'],
      ),
    });
  });

  it('when busy status comes from Outlook’s property alone, then FREE frees and TRANSP, where present, decides', () => {
    const text = calendar([
      ['UID:a', 'DTSTART:20260302T100000Z', 'DURATION:PT1H', 'X-MICROSOFT-CDO-BUSYSTATUS:FREE'],
      ['UID:b', 'DTSTART:20260303T100000Z', 'DURATION:PT1H', 'X-MICROSOFT-CDO-BUSYSTATUS:FREE', 'TRANSP:OPAQUE'],
      ['UID:c', 'DTSTART:20260304T100000Z', 'DURATION:PT1H', 'STATUS:TENTATIVE'],
      ['UID:d', 'DTSTART:20260305T100000Z', 'DURATION:PT1H', 'STATUS:cancelled'],
    ]);
    expect(busy(text, '2026-03-01T00:00Z', '2026-04-01T00:00Z')).toMatchObject({
      intervals: intervals(['2026-03-03T10:00Z', '2026-03-03T11:00Z'], ['2026-03-04T10:00Z', '2026-03-04T11:00Z']),
    });
  });

  it('when occurrences overlap, touch or cross the window’s edges, then they are merged and clipped', () => {
    const text = calendar([
      ['UID:a', 'DTSTART:20260302T090000Z', 'DTEND:20260302T100000Z'],
      ['UID:b', 'DTSTART:20260302T100000Z', 'DTEND:20260302T110000Z'],
      ['UID:c', 'DTSTART:20260302T103000Z', 'DTEND:20260302T104500Z'],
      ['UID:d', 'DTSTART:20260228T220000Z', 'DTEND:20260301T020000Z'],
      ['UID:e', 'DTSTART:20260331T230000Z', 'DTEND:20260401T010000Z'],
    ]);
    expect(busy(text, '2026-03-01T00:00Z', '2026-04-01T00:00Z')).toMatchObject({
      intervals: intervals(
        ['2026-03-01T00:00Z', '2026-03-01T02:00Z'],
        ['2026-03-02T09:00Z', '2026-03-02T11:00Z'],
        ['2026-03-31T23:00Z', '2026-04-01T00:00Z'],
      ),
    });
  });

  it('when CalDAV objects are put one after another, then each calendar’s events and zones count', () => {
    const first = calendar(
      [['UID:a', 'DTSTART;TZID=Customized Time Zone:20260701T090000', 'DURATION:PT1H']],
      [
        'BEGIN:VTIMEZONE',
        'TZID:Customized Time Zone',
        'BEGIN:STANDARD',
        'DTSTART:16010101T000000',
        'TZOFFSETFROM:+0300',
        'TZOFFSETTO:+0300',
        'END:STANDARD',
        'END:VTIMEZONE',
      ],
    );
    const second = calendar([['UID:b', 'DTSTART:20260702T090000Z', 'DURATION:PT1H']]);
    expect(busy(first + second, '2026-06-01T00:00Z', '2026-08-01T00:00Z')).toMatchObject({
      intervals: intervals(
        ['2026-07-01T09:00+03:00', '2026-07-01T10:00+03:00'],
        ['2026-07-02T09:00Z', '2026-07-02T10:00Z'],
      ),
    });
  });
});

describe('busyFromICalendar on bounds and garbage', () => {
  const WINDOW: [string, string] = ['2026-03-01T00:00Z', '2026-04-01T00:00Z'];
  const good = ['UID:good', 'DTSTART:20260302T100000Z', 'DURATION:PT1H'];

  it('when the text is not a calendar, then it is refused without quoting it', () => {
    for (const text of [
      '',
      '   \n',
      '<!doctype html><html><body>Sign in to continue</body></html>',
      'hello',
      '{"error":"Not found"}',
    ]) {
      const result = busy(text, ...WINDOW);
      expect(result).toEqual({
        ok: false,
        error: 'the calendar could not be parsed: it is not iCalendar text (it does not begin with BEGIN:VCALENDAR)',
      });
    }
  });

  it('when the text is cut short, then it is refused; when only an event is unclosed, that event is skipped', () => {
    const whole = fixture('google-secret.ics');
    expect(busy(whole.slice(0, Math.floor(whole.length * 0.6)), ...WINDOW)).toEqual({
      ok: false,
      error: 'the calendar could not be parsed: it is cut short (it does not end with END:VCALENDAR)',
    });
    const unclosed = [
      'BEGIN:VCALENDAR',
      'BEGIN:VEVENT',
      ...good,
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:cut',
      'END:VCALENDAR',
    ];
    expect(busy(unclosed.join('\r\n'), ...WINDOW)).toMatchObject({ ok: true, skippedEvents: 1 });
  });

  it('when single events are malformed, then each is skipped and counted, and the rest still counts', () => {
    const text = calendar([
      good,
      ['UID:bad-date', 'DTSTART:20261345T100000Z', 'DURATION:PT1H'],
      ['UID:no-such-day', 'DTSTART;VALUE=DATE:20260230'],
      ['UID:bad-rule', 'DTSTART:20260303T100000Z', 'DURATION:PT1H', 'RRULE:FREQ=SOMETIMES'],
      ['UID:no-freq', 'DTSTART:20260303T100000Z', 'DURATION:PT1H', 'RRULE:BYDAY=MO'],
      ['UID:backwards', 'DTSTART:20260303T100000Z', 'DTEND:20260303T090000Z'],
      ['UID:mixed', 'DTSTART;VALUE=DATE:20260303', 'DTEND:20260303T090000Z'],
      ['UID:no-start', 'DTEND:20260303T090000Z'],
      ['UID:bad-duration', 'DTSTART:20260303T100000Z', 'DURATION:PXYZ'],
      ['UID:garbage-line', 'DTSTART:20260303T100000Z', 'this is not a content line'],
      // Rules ical.js refuses only when it expands them.
      ['UID:weekly-monthday', 'DTSTART:20260303T100000Z', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;BYMONTHDAY=1'],
      ['UID:monthly-yearday', 'DTSTART:20260303T100000Z', 'DURATION:PT1H', 'RRULE:FREQ=MONTHLY;BYYEARDAY=1'],
      ['UID:sixth-monday', 'DTSTART:20260303T100000Z', 'DURATION:PT1H', 'RRULE:FREQ=MONTHLY;BYDAY=6MO'],
    ]);
    expect(busy(text, ...WINDOW)).toEqual({
      ok: true,
      skippedEvents: 12,
      ofAppointments: [],
      intervals: intervals(['2026-03-02T10:00Z', '2026-03-02T11:00Z']),
    });
  });

  it('when the frame around the events is malformed, then the calendar is refused', () => {
    const text = calendar([good], ['BEGIN:VTIMEZONE', 'TZID:Broken', 'not a content line', 'END:VTIMEZONE']);
    expect(busy(text, ...WINDOW)).toEqual({
      ok: false,
      error: 'the calendar could not be parsed: its properties or time zone definitions are not valid iCalendar',
    });
  });

  it('when a calendar has more events than allowed, then it is refused before parsing them', () => {
    const text = calendar(Array.from({ length: 11 }, (_, i) => [`UID:${i}`, 'DTSTART:20260302T100000Z']));
    expect(busy(text, ...WINDOW, 'UTC', { ...LIMITS, maxEvents: 10 })).toEqual({
      ok: false,
      error: 'the calendar has more than 10 events',
    });
    expect(busy(text, ...WINDOW, 'UTC', { ...LIMITS, maxEvents: 11 })).toMatchObject({ ok: true });
  });

  it('when a calendar has more occurrences in the window than allowed, then it is refused', () => {
    const text = calendar([['UID:d', 'DTSTART:20260301T100000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY']]);
    expect(busy(text, ...WINDOW, 'UTC', { ...LIMITS, maxIntervals: 30 })).toEqual({
      ok: false,
      error: 'the calendar has more than 30 busy occurrences in the window',
    });
    expect(busy(text, ...WINDOW, 'UTC', { ...LIMITS, maxIntervals: 31 })).toMatchObject({ ok: true });
  });

  const COSTLY_RULES = [
    'FREQ=SECONDLY',
    'FREQ=MINUTELY',
    'FREQ=SECONDLY;BYMONTH=2',
    'FREQ=MINUTELY;BYMONTH=1;BYMONTHDAY=1',
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=WEEKLY;BYWEEKNO=1;BYMONTH=6',
    `FREQ=HOURLY;BYMINUTE=${Array.from({ length: 60 }, (_, minute) => minute).join(',')}`,
  ];

  for (const rule of COSTLY_RULES) {
    it(`when a rule is ${rule}, then the calendar is refused within its step budget, quickly`, () => {
      const text = calendar([good, ['UID:costly', 'DTSTART:20260305T100000Z', 'DURATION:PT1S', `RRULE:${rule}`]]);
      const started = process.cpuUsage();
      const result = busy(text, '2026-03-01T00:00Z', '2027-03-01T00:00Z', 'UTC', {
        maxEvents: 100,
        maxIntervals: 1_000_000,
        maxRecurrenceSteps: 100_000,
      });
      expect(result).toEqual({
        ok: false,
        error:
          "the calendar's recurring events need more than 100000 expansion steps (a rule repeats too often, e.g. every second or minute, or can never match)",
      });
      // 0.5–2 s of CPU here for 100,000 steps (more on a loaded CI run, whose other threads and
      // caches this process shares); a budget not counted, or counted ten times too loosely, would
      // take ten times that or never end.
      expect(cpuMsSince(started)).toBeLessThan(6_000);
    });
  }

  it('when a rule repeats every second a few times, then those seconds are busy', () => {
    const text = calendar([['UID:s', 'DTSTART:20260305T100000Z', 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY;COUNT=3']]);
    expect(busy(text, ...WINDOW)).toMatchObject({
      intervals: intervals(['2026-03-05T10:00:00Z', '2026-03-05T10:00:03Z']),
    });
  });

  it('when a yearly rule names a day some years lack, then only real days block', () => {
    const text = calendar([
      ['UID:y', 'DTSTART;VALUE=DATE:20260130', 'RRULE:FREQ=YEARLY;BYMONTH=2,3;BYMONTHDAY=30'],
      ['UID:leap', 'DTSTART;VALUE=DATE:20000229', 'RRULE:FREQ=YEARLY'],
    ]);
    expect(busy(text, '2026-01-01T00:00Z', '2029-01-01T00:00Z', 'UTC')).toMatchObject({
      intervals: intervals(
        ['2026-01-30T00:00Z', '2026-01-31T00:00Z'],
        ['2026-03-30T00:00Z', '2026-03-31T00:00Z'],
        ['2027-03-30T00:00Z', '2027-03-31T00:00Z'],
        ['2028-02-29T00:00Z', '2028-03-01T00:00Z'],
        ['2028-03-30T00:00Z', '2028-03-31T00:00Z'],
      ),
    });
  });

  it('when the default zone or the window is wrong, then the call is refused', () => {
    expect(busy(calendar([good]), ...WINDOW, 'Mars/Olympus_Mons')).toEqual({
      ok: false,
      error: 'the default zone "Mars/Olympus_Mons" is not an IANA time zone',
    });
    expect(busy(calendar([good]), WINDOW[1], WINDOW[0])).toEqual({
      ok: false,
      error: 'the window must start before it ends',
    });
  });

  it('when a calendar holds to-dos, journals and free/busy blocks, then only its events count, even if those are malformed', () => {
    const text = [
      'BEGIN:VCALENDAR',
      'BEGIN:VTODO',
      'DTSTART:not a date',
      'END:VTODO',
      'BEGIN:VJOURNAL',
      'DTSTART:20260303T100000Z',
      'END:VJOURNAL',
      'BEGIN:VFREEBUSY',
      'FREEBUSY:20260304T100000Z/PT1H',
      'END:VFREEBUSY',
      'BEGIN:VEVENT',
      ...good,
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\n');
    expect(busy(text, ...WINDOW)).toEqual({
      ok: true,
      skippedEvents: 0,
      ofAppointments: [],
      intervals: intervals(['2026-03-02T10:00Z', '2026-03-02T11:00Z']),
    });
  });
});

describe('busyFromCalendars: one fetch (a CalDAV calendar of many objects) under one set of bounds', () => {
  const WINDOW = { start: Date.parse('2026-03-01T00:00Z'), end: Date.parse('2027-03-01T00:00Z') };
  const LIMITS_OF_A_FETCH: BusyLimits = { maxEvents: 20_000, maxIntervals: 50_000, maxRecurrenceSteps: 100_000 };
  /** One object of a CalDAV calendar: a series of 45,000 minutes, all of them before the window. */
  const minutely = (i: number) =>
    calendar([[`UID:m${i}`, 'DTSTART:20200101T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY;COUNT=45000']]);

  it('when each object stays within the recurrence budget but all of them together do not, then the fetch is refused quickly', () => {
    const objects = Array.from({ length: 100 }, (_, i) => minutely(i));
    expect(busyFromICalendar(objects[0]!, WINDOW, 'UTC', LIMITS_OF_A_FETCH)).toMatchObject({ ok: true });
    const started = process.cpuUsage();
    expect(busyFromCalendars(objects, WINDOW, 'UTC', LIMITS_OF_A_FETCH)).toEqual({
      ok: false,
      error:
        "the calendar's recurring events need more than 100000 expansion steps (a rule repeats too often, e.g. every second or minute, or can never match)",
    });
    // One budget, not 100: about what one object costs (1–2 s of CPU here, more on a loaded CI
    // run), not a hundred times that.
    expect(cpuMsSince(started)).toBeLessThan(6_000);
  });

  it('when the objects hold more events together than allowed, then the fetch is refused before parsing them', () => {
    const three = (i: number) =>
      calendar([0, 1, 2].map((j) => [`UID:${i}-${j}`, 'DTSTART:20260302T100000Z', 'DURATION:PT1H']));
    expect(
      busyFromCalendars([three(1), three(2), three(3)], WINDOW, 'UTC', { ...LIMITS_OF_A_FETCH, maxEvents: 8 }),
    ).toEqual({
      ok: false,
      error: 'the calendar has more than 8 events',
    });
    expect(
      busyFromCalendars([three(1), three(2), three(3)], WINDOW, 'UTC', { ...LIMITS_OF_A_FETCH, maxEvents: 9 }),
    ).toMatchObject({
      ok: true,
      intervals: [{ start: Date.parse('2026-03-02T10:00Z'), end: Date.parse('2026-03-02T11:00Z') }],
    });
  });
});

describe('busy time of Slotwise appointments (contract §16)', () => {
  const WINDOW = { start: Date.parse('2026-03-01T00:00Z'), end: Date.parse('2026-04-01T00:00Z') };
  const at = (start: string, end: string) => ({ start: Date.parse(start), end: Date.parse(end) });

  it('when events name Slotwise appointments by UID, then their time is kept apart by appointment, a series with its overrides and its objects together, and the rest merged as before', () => {
    const object = calendar([
      ['UID:bkg_first1@slotwise', 'DTSTART:20260302T100000Z', 'DTEND:20260302T103000Z'],
      ['UID:meeting@example.com', 'DTSTART:20260302T103000Z', 'DTEND:20260302T110000Z'],
      ['UID:bkg_series2@slotwise', 'DTSTART:20260303T090000Z', 'DTEND:20260303T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=2'],
      [
        'UID:bkg_series2@slotwise',
        'RECURRENCE-ID:20260310T090000Z',
        'DTSTART:20260310T140000Z',
        'DTEND:20260310T150000Z',
      ],
      // Not of Slotwise's form: another product's, or a Slotwise UID with more around it.
      ['UID:bkg_first1@slotwise.example', 'DTSTART:20260304T100000Z', 'DTEND:20260304T110000Z'],
      ['UID:BKG_FIRST1@SLOTWISE', 'DTSTART:20260305T100000Z', 'DTEND:20260305T110000Z'],
      ['UID:bkg_cancelled3@slotwise', 'STATUS:CANCELLED', 'DTSTART:20260306T100000Z', 'DTEND:20260306T110000Z'],
    ]);
    const another = calendar([['UID:bkg_first1@slotwise', 'DTSTART:20260302T110000Z', 'DTEND:20260302T113000Z']]);
    expect(busyFromCalendars([object, another], WINDOW, 'UTC', LIMITS)).toEqual({
      ok: true,
      intervals: [
        at('2026-03-02T10:30Z', '2026-03-02T11:00Z'),
        at('2026-03-04T10:00Z', '2026-03-04T11:00Z'),
        at('2026-03-05T10:00Z', '2026-03-05T11:00Z'),
      ],
      ofAppointments: [
        {
          appointmentId: 'bkg_first1',
          intervals: [at('2026-03-02T10:00Z', '2026-03-02T10:30Z'), at('2026-03-02T11:00Z', '2026-03-02T11:30Z')],
        },
        {
          appointmentId: 'bkg_series2',
          intervals: [at('2026-03-03T09:00Z', '2026-03-03T10:00Z'), at('2026-03-10T14:00Z', '2026-03-10T15:00Z')],
        },
      ],
      skippedEvents: 0,
    });
  });

  it('when appointments’ occurrences and others’ together pass maxIntervals, then the calendar is refused as one', () => {
    const text = calendar([
      ['UID:bkg_a@slotwise', 'DTSTART:20260302T100000Z', 'DURATION:PT30M', 'RRULE:FREQ=DAILY;COUNT=3'],
      ['UID:other', 'DTSTART:20260302T120000Z', 'DURATION:PT30M', 'RRULE:FREQ=DAILY;COUNT=3'],
    ]);
    expect(busyFromICalendar(text, WINDOW, 'UTC', { ...LIMITS, maxIntervals: 6 })).toMatchObject({ ok: true });
    expect(busyFromICalendar(text, WINDOW, 'UTC', { ...LIMITS, maxIntervals: 5 })).toEqual({
      ok: false,
      error: 'the calendar has more than 5 busy occurrences in the window',
    });
  });
});
