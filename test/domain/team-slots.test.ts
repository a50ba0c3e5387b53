// Contract §14, case by case: team slots combined from each host's standing starts. Expected
// instants are worked out by hand from the zone rules:
//   Europe/Berlin      +01 until 2026-03-29 01:00Z (02:00 → 03:00), +02 after
//   America/New_York   −05 until 2026-03-08 07:00Z (02:00 → 03:00), −04 after
// So between 8 and 29 March 2026 New York is five hours behind Berlin, before that six.
import { describe, expect, it } from 'vitest';
import type { CompiledAvailability } from '../../src/domain/availability.js';
import type { Interval } from '../../src/domain/intervals.js';
import { standingSlotStarts, type Occupancy, type SlotPolicy } from '../../src/domain/slots.js';
import {
  checkTeamBookable,
  hostsFreeAt,
  teamStandingStarts,
  type CountedBooking,
  type HostStarts,
  type HostVerdict,
  type TeamDailyCap,
  type TeamShape,
} from '../../src/domain/team-slots.js';
import { compiled, ms, occupancy, policy, utc, ZONES, type Pair } from './support.js';

const TEAM_TYPE = 'evt_team';
const COLLECTIVE: TeamShape = { assignment: 'collective' };
const ROUND_ROBIN: TeamShape = { assignment: 'round-robin', hostId: null };
const roundRobinWith = (hostId: string): TeamShape => ({ assignment: 'round-robin', hostId });

interface Host {
  holderId: string;
  availability: CompiledAvailability;
  fixed?: boolean;
  bookings?: Array<Occupancy & { id: string }>;
  busy?: Interval[];
}

/** What the app layer computes per host: its standing starts with the team type's policy, cap off. */
function startsOf(host: Host, slotPolicy: SlotPolicy, from: string, to: string): HostStarts {
  const starts = standingSlotStarts(
    {
      availability: host.availability,
      eventTypeId: TEAM_TYPE,
      policy: { ...slotPolicy, maxBookingsPerDay: null },
      bookings: host.bookings ?? [],
      busy: host.busy ?? [],
    },
    ms(from),
    ms(to),
  );
  return { holderId: host.holderId, fixed: host.fixed ?? false, starts };
}

/** The cap as the app reads it: the zone of the first host's schedule, every host's occupancies. */
function capOf(hosts: Host[], maxBookingsPerDay: number | null, extra: CountedBooking[] = []): TeamDailyCap {
  return {
    eventTypeId: TEAM_TYPE,
    maxBookingsPerDay,
    zone: hosts[0]!.availability.zone,
    bookings: [...hosts.flatMap((host) => host.bookings ?? []), ...extra],
  };
}

function teamStarts(
  shape: TeamShape,
  hosts: Host[],
  slotPolicy: SlotPolicy,
  range: { from: string; to: string },
  maxBookingsPerDay: number | null = null,
): string[] {
  const starts = teamStandingStarts(
    shape,
    hosts.map((host) => startsOf(host, slotPolicy, range.from, range.to)),
    capOf(hosts, maxBookingsPerDay),
  );
  return Array.from(starts, (start) => new Date(start).toISOString());
}

/** Hourly starts `date`T`first`:00Z … `date`T`last`:00Z, as UTC ISO strings. */
function hourly(date: string, first: number, last: number): string[] {
  return Array.from({ length: last - first + 1 }, (_, i) =>
    utc(`${date}T${String(first + i).padStart(2, '0')}:00:00Z`),
  );
}

const booked = (id: string, eventTypeId: string, startIso: string, minutes: number) => ({
  id,
  ...occupancy(eventTypeId, startIso, minutes),
});

const sixty = policy({ durationMinutes: 60 });
const nineToFive: Pair[] = [['09:00', '17:00']];
const berlinMondays = compiled('Europe/Berlin', { monday: nineToFive });
const newYorkMondays = compiled('America/New_York', { monday: nineToFive });
// Two Mondays: 2 March (New York on −05) and 9 March (New York already on −04, Berlin still on +01).
const TWO_MONDAYS = { from: '2026-03-02T00:00:00Z', to: '2026-03-10T00:00:00Z' };

describe('teamStandingStarts with hosts in different zones', () => {
  const hosts: Host[] = [
    { holderId: 'hdr_berlin', availability: berlinMondays },
    { holderId: 'hdr_newyork', availability: newYorkMondays },
  ];

  it('when a collective team spans Berlin and New York, then it offers the hours both are in, which grow by one when New York changes its clocks first', () => {
    // 2 March: Berlin 08:00–16:00Z, New York 14:00–22:00Z. 9 March: Berlin 08:00–16:00Z, New York 13:00–21:00Z.
    expect(teamStarts(COLLECTIVE, hosts, sixty, TWO_MONDAYS)).toEqual([
      ...hourly('2026-03-02', 14, 15),
      ...hourly('2026-03-09', 13, 15),
    ]);
  });

  it('when a round-robin team spans Berlin and New York, then it offers the hours either is in, each once', () => {
    expect(teamStarts(ROUND_ROBIN, hosts, sixty, TWO_MONDAYS)).toEqual([
      ...hourly('2026-03-02', 8, 21),
      ...hourly('2026-03-09', 8, 20),
    ]);
  });
});

describe('teamStandingStarts on a DST night in a host’s zone', () => {
  it('when Berlin springs forward inside a Berlin host’s 01:00–04:00, then a collective team with a UTC host has two real hours that night against three a week before', () => {
    const hosts: Host[] = [
      { holderId: 'hdr_berlin', availability: compiled('Europe/Berlin', { sunday: [['01:00', '04:00']] }) },
      { holderId: 'hdr_utc', availability: compiled('UTC', { sunday: [['00:00', '06:00']] }) },
    ];
    // 22 March: 01:00+01–04:00+01 = 00:00–03:00Z. 29 March: 01:00+01–04:00+02 = 00:00–02:00Z.
    expect(
      teamStarts(COLLECTIVE, hosts, policy({ durationMinutes: 30 }), {
        from: '2026-03-21T12:00:00Z',
        to: '2026-03-30T00:00:00Z',
      }),
    ).toEqual(
      [
        '2026-03-22T00:00:00Z',
        '2026-03-22T00:30:00Z',
        '2026-03-22T01:00:00Z',
        '2026-03-22T01:30:00Z',
        '2026-03-22T02:00:00Z',
        '2026-03-22T02:30:00Z',
        '2026-03-29T00:00:00Z',
        '2026-03-29T00:30:00Z',
        '2026-03-29T01:00:00Z',
        '2026-03-29T01:30:00Z',
      ].map(utc),
    );
  });
});

describe('teamStandingStarts for round robin with fixed hosts', () => {
  // Monday 2 March in Berlin (+01): the fixed host attends every booking, 09:00–12:00.
  const fixed: Host = {
    holderId: 'hdr_fixed',
    availability: compiled('Europe/Berlin', { monday: [['09:00', '12:00']] }),
    fixed: true,
  };
  const early: Host = { holderId: 'hdr_early', availability: berlinMondays };
  const late: Host = {
    holderId: 'hdr_late',
    availability: compiled('Europe/Berlin', { monday: [['11:00', '17:00']] }),
  };
  const MONDAY = { from: '2026-03-02T00:00:00Z', to: '2026-03-03T00:00:00Z' };

  it('when a fixed host is in the team, then only the hours of the fixed host that another host also has are offered', () => {
    expect(teamStarts(ROUND_ROBIN, [fixed, early, late], sixty, MONDAY)).toEqual(hourly('2026-03-02', 8, 10));
  });

  it('when a hostId is given, then the team offers that host’s hours with the fixed host only', () => {
    expect(teamStarts(roundRobinWith('hdr_late'), [fixed, early, late], sixty, MONDAY)).toEqual(
      hourly('2026-03-02', 10, 10),
    );
  });

  it('when the hostId is the fixed host or no host of the team, then nothing is offered', () => {
    expect(teamStarts(roundRobinWith('hdr_fixed'), [fixed, early, late], sixty, MONDAY)).toEqual([]);
    expect(teamStarts(roundRobinWith('hdr_nobody'), [fixed, early, late], sixty, MONDAY)).toEqual([]);
  });

  it('when every host is fixed, then nothing is offered (one other host must attend)', () => {
    expect(teamStarts(ROUND_ROBIN, [fixed, { ...early, fixed: true }], sixty, MONDAY)).toEqual([]);
  });

  it('when the only host free at 10:00 has busy time then, then 10:00 is not offered', () => {
    const busyEarly = {
      ...early,
      busy: [{ start: ms('2026-03-02T10:00:00+01:00'), end: ms('2026-03-02T10:30:00+01:00') }],
    };
    expect(teamStarts(ROUND_ROBIN, [fixed, busyEarly, late], sixty, MONDAY)).toEqual(
      ['2026-03-02T09:00:00+01:00', '2026-03-02T11:00:00+01:00'].map(utc),
    );
  });

  it('when hostsFreeAt is asked, then it names the non-fixed hosts whose starts hold the start, in the hosts’ order', () => {
    const starts = [fixed, early, late].map((host) => startsOf(host, sixty, MONDAY.from, MONDAY.to));
    expect(hostsFreeAt(starts, ms('2026-03-02T09:00:00+01:00'))).toEqual(['hdr_early']);
    expect(hostsFreeAt(starts, ms('2026-03-02T11:00:00+01:00'))).toEqual(['hdr_early', 'hdr_late']);
    expect(hostsFreeAt(starts, ms('2026-03-02T11:30:00+01:00'))).toEqual([]);
  });
});

describe('teamStandingStarts under the daily cap', () => {
  const allDay: Pair[] = [['00:00', '24:00']];
  const everyDay = { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay };
  // Tuesday 10 March 12:00Z to Wednesday 12:00Z. The team's one booking starts at 23:30Z: 00:30 on
  // the 11th in Berlin, 19:30 on the 10th in New York (−04). It occupies the New York host only.
  const DAY_AROUND = { from: '2026-03-10T12:00:00Z', to: '2026-03-11T12:00:00Z' };
  const berlin: Host = { holderId: 'hdr_berlin', availability: compiled('Europe/Berlin', everyDay) };
  const newYork: Host = {
    holderId: 'hdr_newyork',
    availability: compiled('America/New_York', everyDay),
    bookings: [booked('bkg_1', TEAM_TYPE, '2026-03-10T23:30:00Z', 60)],
  };

  it('when the first host is in Berlin, then the cap counts on Berlin dates: 11 March (23:00Z to 23:00Z) is full', () => {
    expect(teamStarts(ROUND_ROBIN, [berlin, newYork], sixty, DAY_AROUND, 1)).toEqual(hourly('2026-03-10', 12, 22));
  });

  it('when the first host is in New York, then the cap counts on New York dates: 10 March (04:00Z to 04:00Z) is full', () => {
    expect(teamStarts(ROUND_ROBIN, [newYork, berlin], sixty, DAY_AROUND, 1)).toEqual(hourly('2026-03-11', 4, 11));
  });

  it('when a collective booking occupies both hosts, then it counts once towards the cap', () => {
    const shared = booked('bkg_shared', TEAM_TYPE, '2026-03-11T08:00:00Z', 60);
    const hosts: Host[] = [
      { ...berlin, bookings: [shared] },
      { ...newYork, bookings: [shared] },
    ];
    // Both hosts are taken 08:00–09:00Z; the Berlin date of the 11th has one booking of two.
    expect(
      teamStarts(COLLECTIVE, hosts, sixty, { from: '2026-03-11T06:00:00Z', to: '2026-03-11T12:00:00Z' }, 2),
    ).toEqual(['2026-03-11T06:00:00Z', '2026-03-11T07:00:00Z', ...hourly('2026-03-11', 9, 11)].map(utc));
  });

  it('when two bookings of the type start on the date, then a cap of two closes it; a booking of another type does not count', () => {
    const hosts: Host[] = [
      {
        ...berlin,
        bookings: [
          booked('bkg_a', TEAM_TYPE, '2026-03-11T08:00:00Z', 60),
          booked('bkg_other', 'evt_personal', '2026-03-11T10:00:00Z', 60),
        ],
      },
      { ...newYork, bookings: [booked('bkg_b', TEAM_TYPE, '2026-03-11T09:00:00Z', 60)] },
    ];
    const range = { from: '2026-03-11T06:00:00Z', to: '2026-03-11T12:00:00Z' };
    expect(teamStarts(ROUND_ROBIN, hosts, sixty, range, 2)).toEqual([]);
    expect(teamStarts(ROUND_ROBIN, hosts, sixty, range, 3)).toEqual(hourly('2026-03-11', 6, 11));
  });
});

describe('checkTeamBookable', () => {
  const noCap: TeamDailyCap = {
    eventTypeId: TEAM_TYPE,
    maxBookingsPerDay: null,
    zone: ZONES.of('Europe/Berlin'),
    bookings: [],
  };
  const START = ms('2026-03-02T10:00:00+01:00');
  const fullDay: TeamDailyCap = {
    ...noCap,
    maxBookingsPerDay: 1,
    bookings: [{ id: 'bkg_1', eventTypeId: TEAM_TYPE, start: ms('2026-03-02T15:00:00+01:00') }],
  };
  const verdict = (holderId: string, reason: HostVerdict['reason'], fixed = false): HostVerdict => ({
    holderId,
    fixed,
    reason,
  });

  it('when a collective start is free for every host, then it is bookable for all of them', () => {
    expect(checkTeamBookable(COLLECTIVE, [verdict('hdr_a', null), verdict('hdr_b', null)], noCap, START)).toEqual({
      reason: null,
      candidates: ['hdr_a', 'hdr_b'],
    });
  });

  it('when collective hosts fail different rules, then the earliest rule in §5’s order is the reason', () => {
    const hosts = [verdict('hdr_a', 'overlaps-booking'), verdict('hdr_b', 'outside-availability')];
    expect(checkTeamBookable(COLLECTIVE, hosts, noCap, START)).toEqual({ reason: 'outside-availability' });
  });

  it('when no round-robin host is free, then the reason is how far the best of them got', () => {
    const hosts = [verdict('hdr_a', 'outside-availability'), verdict('hdr_b', 'overlaps-busy-time')];
    expect(checkTeamBookable(ROUND_ROBIN, hosts, noCap, START)).toEqual({ reason: 'overlaps-busy-time' });
  });

  it('when a round-robin start is free for some non-fixed hosts, then they are the candidates, in the hosts’ order', () => {
    const hosts = [
      verdict('hdr_fixed', null, true),
      verdict('hdr_b', null),
      verdict('hdr_a', 'overlaps-booking'),
      verdict('hdr_c', null),
    ];
    expect(checkTeamBookable(ROUND_ROBIN, hosts, noCap, START)).toEqual({
      reason: null,
      candidates: ['hdr_b', 'hdr_c'],
    });
    expect(checkTeamBookable(roundRobinWith('hdr_c'), hosts, noCap, START)).toEqual({
      reason: null,
      candidates: ['hdr_c'],
    });
  });

  it('when the fixed host is taken, then the start is not bookable whoever else is free', () => {
    const hosts = [verdict('hdr_fixed', 'overlaps-booking', true), verdict('hdr_a', null)];
    expect(checkTeamBookable(ROUND_ROBIN, hosts, noCap, START)).toEqual({ reason: 'overlaps-booking' });
  });

  it('when the hostId is not free or is no non-fixed host, then the start is not bookable though others are free', () => {
    const hosts = [verdict('hdr_fixed', null, true), verdict('hdr_a', null), verdict('hdr_b', 'overlaps-busy-time')];
    expect(checkTeamBookable(roundRobinWith('hdr_b'), hosts, noCap, START)).toEqual({ reason: 'overlaps-busy-time' });
    expect(checkTeamBookable(roundRobinWith('hdr_fixed'), hosts, noCap, START)).toEqual({
      reason: 'outside-availability',
    });
  });

  it('when the day is full, then the cap is the reason unless an earlier rule fails too', () => {
    expect(checkTeamBookable(ROUND_ROBIN, [verdict('hdr_a', null)], fullDay, START)).toEqual({
      reason: 'daily-limit-reached',
    });
    expect(checkTeamBookable(ROUND_ROBIN, [verdict('hdr_a', 'overlaps-booking')], fullDay, START)).toEqual({
      reason: 'daily-limit-reached',
    });
    expect(checkTeamBookable(ROUND_ROBIN, [verdict('hdr_a', 'before-minimum-notice')], fullDay, START)).toEqual({
      reason: 'before-minimum-notice',
    });
    // The next Berlin date is not full.
    expect(checkTeamBookable(ROUND_ROBIN, [verdict('hdr_a', null)], fullDay, ms('2026-03-03T00:00:00+01:00'))).toEqual({
      reason: null,
      candidates: ['hdr_a'],
    });
  });
});
