// Properties of the team slot engine (contract §14) over random teams: 2–6 hosts, each with its own
// zone (DST zones, often around one of their transitions), schedule, occupancies and busy time;
// bookings of the team type shared by several hosts (a collective booking occupies each); the
// team's daily cap. A naive model decides every candidate start by brute force: per host the
// reference reading of §5 (Temporal for every conversion, never src/domain/zone.ts), the busy
// rule by direct overlap, then the team's rule host by host, then the cap by counting.
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { Availability, TimeInterval } from '../../src/domain/availability.js';
import type { Interval } from '../../src/domain/intervals.js';
import { roundRobinOrder } from '../../src/domain/round-robin.js';
import {
  bookableSpan,
  checkBookable,
  standingSlotStarts,
  type Occupancy,
  type SlotContext,
  type SlotPolicy,
  type UnbookableReason,
} from '../../src/domain/slots.js';
import {
  checkTeamBookable,
  hostsFreeAt,
  teamStandingStarts,
  type CountedBooking,
  type HostStarts,
  type TeamDailyCap,
  type TeamShape,
} from '../../src/domain/team-slots.js';
import {
  contextOf,
  DAY,
  dayIntervals,
  EVENT_TYPE,
  MIN,
  Reference,
  sample,
  slotPolicy,
  weekly,
  ZONES,
  type Scenario,
} from './slot-scenarios.js';

// Each run builds up to six hosts' tracks and references: a few seconds for the file.
const RUNS = 150;

interface TeamHost {
  holderId: string;
  fixed: boolean;
  doc: Availability;
  /** Its occupancies, each with the id of its booking or hold. */
  bookings: Array<Occupancy & { id: string }>;
  busy: Interval[];
}

interface Team {
  hosts: TeamHost[];
  policy: SlotPolicy;
  /** Bookings of the team type that occupy none of today's hosts (hosts changed since): the cap counts them. */
  orphans: CountedBooking[];
  from: number;
  to: number;
  now: number;
}

const OTHER_TYPE = 'evt_other';
const multipleOf5 = (min: number, max: number) => fc.integer({ min: min / 5, max: max / 5 }).map((n) => n * 5);

const anchorOf = fc
  .constantFrom(...Object.keys(ZONES))
  .chain((zone) => fc.constantFrom(...ZONES[zone]!).map(([anchor, hot]) => ({ zone, anchor, hot })));

const team: fc.Arbitrary<Team> = anchorOf.chain(({ zone, anchor, hot }) => {
  const bias = { hot, clustered: false };
  const host = (sharedWeek: Availability['weekly']) =>
    fc.record({
      // Often the anchor's zone (the transition is in range), else any zone of the tests.
      zone: fc.oneof(
        { arbitrary: fc.constant(zone), weight: 2 },
        { arbitrary: fc.constantFrom(...Object.keys(ZONES)), weight: 1 },
      ),
      // A shared week makes common starts likely; an own week makes them rare.
      weekly: fc.oneof({ arbitrary: fc.constant(sharedWeek), weight: 4 }, { arbitrary: weekly(bias), weight: 1 }),
      // Sometimes other hours on a day or two around the transition.
      overrides: fc.oneof(
        { arbitrary: fc.constant<Array<{ dayOffset: number; intervals: TimeInterval[] }>>([]), weight: 2 },
        {
          arbitrary: fc.uniqueArray(
            fc.record({
              dayOffset: fc.integer({ min: -2, max: 4 }),
              intervals: dayIntervals({ hot, clustered: true }),
            }),
            { minLength: 1, maxLength: 2, selector: (o) => o.dayOffset },
          ),
          weight: 1,
        },
      ),
      fixed: fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 }),
      busy: fc.array(
        fc.record({
          position: fc.integer({ min: 0, max: 10_000 }),
          minutes: fc.oneof(multipleOf5(5, 240), fc.integer({ min: 1, max: 1440 })),
        }),
        { maxLength: 3 },
      ),
    });
  return weekly(bias)
    .chain((sharedWeek) =>
      fc.record({
        sharedWeek: fc.constant(sharedWeek),
        hosts: fc.array(host(sharedWeek), { minLength: 2, maxLength: 6 }),
        // One office: every host on the anchor's zone and the shared week, so that collective
        // teams have common starts often (their own overrides, occupancies and busy time aside).
        oneOffice: fc.oneof({ arbitrary: fc.constant(true), weight: 1 }, { arbitrary: fc.constant(false), weight: 2 }),
        policy: slotPolicy,
        fromOffset: fc.integer({ min: -3 * DAY, max: DAY / 2 }),
        length: fc.oneof(
          { arbitrary: fc.integer({ min: 3_600_000, max: 4 * DAY }), weight: 4 },
          { arbitrary: fc.integer({ min: 1, max: 16 * DAY }), weight: 1 },
        ),
        minuteAligned: fc.boolean(),
        nowOffset: fc.oneof(
          { arbitrary: fc.integer({ min: -7 * DAY, max: 0 }), weight: 2 },
          { arbitrary: fc.integer({ min: -2 * DAY, max: 4 * DAY }), weight: 1 },
        ),
        bookings: fc.array(
          fc.record({
            eventTypeId: fc.constantFrom(EVENT_TYPE, EVENT_TYPE, OTHER_TYPE),
            position: fc.integer({ min: 0, max: 10_000 }),
            durationMinutes: multipleOf5(5, 240),
            bufferBeforeMinutes: fc.constantFrom(0, 0, 10, 30),
            bufferAfterMinutes: fc.constantFrom(0, 0, 15, 45),
            // Which hosts it occupies: one (round robin, personal), several (collective), none (a former host's).
            hosts: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
          }),
          { maxLength: 12 },
        ),
      }),
    )
    .map((r): Team => {
      const anchorMs = Date.parse(`${anchor}T00:00:00Z`);
      const align = (t: number) => (r.minuteAligned ? Math.floor(t / MIN) * MIN : t);
      const from = align(anchorMs + r.fromOffset);
      const to = Math.max(from + 1, align(from + r.length));
      const now = align(from + r.nowOffset);
      // Occupancies and busy time spread over the range and two days either side of it.
      const placed = (position: number) =>
        Math.floor((from - 2 * DAY + ((to - from + 4 * DAY) * position) / 10_000) / MIN) * MIN;
      const bookings = r.bookings.map((b, index) => {
        const start = placed(b.position);
        const occupancy = {
          id: `bkg_${index}`,
          eventTypeId: b.eventTypeId,
          start,
          occupiedStart: start - b.bufferBeforeMinutes * MIN,
          occupiedEnd: start + (b.durationMinutes + b.bufferAfterMinutes) * MIN,
        };
        return { occupancy, hosts: b.hosts };
      });
      const anchorDate = Temporal.PlainDate.from(anchor);
      const hosts = r.hosts.map((h, index): TeamHost => ({
        holderId: `hdr_${String.fromCharCode(97 + ((index * 7) % 26))}${index}`,
        fixed: h.fixed,
        doc: {
          timeZone: r.oneOffice ? zone : h.zone,
          weekly: r.oneOffice ? r.sharedWeek : h.weekly,
          overrides: h.overrides.map((o) => ({
            date: anchorDate.add({ days: o.dayOffset }).toString(),
            intervals: o.intervals,
          })),
        },
        bookings: bookings.filter((b) => b.hosts[index]).map((b) => b.occupancy),
        busy: h.busy.map(({ position, minutes }) => ({
          start: placed(position),
          end: placed(position) + minutes * MIN,
        })),
      }));
      const orphans = bookings.filter((b) => !b.hosts.slice(0, hosts.length).some(Boolean)).map((b) => b.occupancy);
      return { hosts, policy: r.policy, orphans, from, to, now };
    });
});

// ---------------------------------------------------------------------------------------------
// The engine's inputs, as the app layer builds them

const capOff = (policy: SlotPolicy): SlotPolicy => ({ ...policy, maxBookingsPerDay: null });

function hostScenario(t: Team, host: TeamHost): Scenario {
  return { doc: host.doc, policy: capOff(t.policy), bookings: host.bookings, from: t.from, to: t.to, now: t.now };
}

function hostContext(t: Team, host: TeamHost): SlotContext {
  return { ...contextOf(hostScenario(t, host)), busy: host.busy };
}

function hostStarts(t: Team): HostStarts[] {
  return t.hosts.map((host) => ({
    holderId: host.holderId,
    fixed: host.fixed,
    starts: standingSlotStarts(hostContext(t, host), t.from, t.to),
  }));
}

function capOf(t: Team): TeamDailyCap {
  return {
    eventTypeId: EVENT_TYPE,
    maxBookingsPerDay: t.policy.maxBookingsPerDay,
    zone: contextOf(hostScenario(t, t.hosts[0]!)).availability.zone,
    // Every host's occupancies, as the app reads them per host: a shared booking comes once per host.
    bookings: [...t.hosts.flatMap((host) => host.bookings), ...t.orphans],
  };
}

// ---------------------------------------------------------------------------------------------
// The naive model

/** The rules of §5 in `checkBookable`'s order, by rank; the cap (3) is the team's. */
const RULES: readonly UnbookableReason[] = [
  'outside-availability',
  'before-minimum-notice',
  'beyond-booking-window',
  'daily-limit-reached',
  'overlaps-booking',
  'overlaps-busy-time',
];

class Model {
  private readonly references: Reference[];

  constructor(readonly t: Team) {
    this.references = t.hosts.map((host) => new Reference(hostScenario(t, host)));
  }

  /** Every start on some host's grid in [from, to), ascending. */
  candidates(): number[] {
    return [...new Set(this.references.flatMap((ref) => ref.gridStarts()))].sort((a, b) => a - b);
  }

  /** The ranks of the rules a host fails at `start`, the cap left out: grid, clock, bookings, busy time. */
  hostFailures(index: number, start: number): Set<number> {
    const { policy, now } = this.t;
    const ref = this.references[index]!;
    const failures = new Set<number>();
    if (!ref.onGrid(start)) failures.add(0);
    if (start < now + policy.minimumNoticeMinutes * MIN) failures.add(1);
    if (policy.bookingWindowDays !== null && start >= now + policy.bookingWindowDays * DAY) failures.add(2);
    if (ref.overlapsBooking(start)) failures.add(4);
    const occupiedStart = start - policy.bufferBeforeMinutes * MIN;
    const occupiedEnd = start + (policy.durationMinutes + policy.bufferAfterMinutes) * MIN;
    if (this.t.hosts[index]!.busy.some((b) => b.start < occupiedEnd && occupiedStart < b.end)) failures.add(5);
    return failures;
  }

  /** Standing for the host: on its grid, clear of its occupancies and busy time (the clock aside). */
  standingFor(index: number, start: number): boolean {
    const failures = this.hostFailures(index, start);
    return !failures.has(0) && !failures.has(4) && !failures.has(5);
  }

  /** Whether the team type's distinct bookings on the start's local date (first host's zone) reach the cap. */
  dayFull(start: number): boolean {
    const limit = this.t.policy.maxBookingsPerDay;
    if (limit === null) return false;
    const ids = new Set(
      [...this.t.hosts.flatMap((host) => host.bookings), ...this.t.orphans]
        .filter((b) => b.eventTypeId === EVENT_TYPE && this.capDate(b.start) === this.capDate(start))
        .map((b) => b.id),
    );
    return ids.size >= limit;
  }

  private readonly capDates = new Map<number, string>();

  private capDate(instant: number): string {
    let date = this.capDates.get(instant);
    if (date === undefined) {
      const zone = this.t.hosts[0]!.doc.timeZone;
      date = Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone).toPlainDate().toString();
      this.capDates.set(instant, date);
    }
    return date;
  }

  /** The hosts of which one must be free (round robin), by index. */
  choosable(shape: TeamShape): number[] {
    if (shape.assignment === 'collective') return [];
    return this.t.hosts.flatMap((host, index) =>
      !host.fixed && (shape.hostId === null || host.holderId === shape.hostId) ? [index] : [],
    );
  }

  /** The hosts who must all be free, by index. */
  required(shape: TeamShape): number[] {
    return this.t.hosts.flatMap((host, index) => (shape.assignment === 'collective' || host.fixed ? [index] : []));
  }

  /** The team's standing starts, start by start. */
  teamStarts(shape: TeamShape): number[] {
    const required = this.required(shape);
    const choosable = this.choosable(shape);
    return this.candidates().filter(
      (start) =>
        required.every((index) => this.standingFor(index, start)) &&
        (shape.assignment === 'collective' || choosable.some((index) => this.standingFor(index, start))) &&
        !this.dayFull(start),
    );
  }

  /**
   * The team's verdict read literally: the first rule (by rank) that the team fails, where the
   * team passes the rules up to rank k when every required host and at least one choosable host
   * (round robin) pass each of them, and the cap, when k reaches it, holds.
   */
  verdict(shape: TeamShape, start: number): UnbookableReason | null {
    const failures = this.t.hosts.map((_, index) => this.hostFailures(index, start));
    const passesUpTo = (index: number, rank: number) => [...failures[index]!].every((failed) => failed > rank);
    for (let rank = 0; rank < RULES.length; rank++) {
      const required = this.required(shape).every((index) => passesUpTo(index, rank));
      const chosen =
        shape.assignment === 'collective'
          ? this.t.hosts.length > 0
          : this.choosable(shape).some((index) => passesUpTo(index, rank));
      const capHolds = rank < 3 || !this.dayFull(start);
      if (!(required && chosen && capHolds)) return RULES[rank]!;
    }
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

/** The shapes a team is asked in: collective, round robin, and round robin restricted to each host and to none of them. */
function shapesOf(t: Team): TeamShape[] {
  return [
    { assignment: 'collective' },
    { assignment: 'round-robin', hostId: null },
    ...t.hosts.map((host): TeamShape => ({ assignment: 'round-robin', hostId: host.holderId })),
    { assignment: 'round-robin', hostId: 'hdr_not_a_host' },
  ];
}

const describeShape = (shape: TeamShape) =>
  shape.assignment === 'collective' ? 'collective' : `round-robin, hostId ${shape.hostId}`;

describe('team slots against a naive model (random hosts, zones with DST, schedules, occupancies, busy time, cap)', () => {
  it('when hosts’ standing starts are combined, then the team’s are exactly the model’s for collective and round robin, with and without hostId', () => {
    fc.assert(
      fc.property(team, (t) => {
        const model = new Model(t);
        const hosts = hostStarts(t);
        const cap = capOf(t);
        for (const shape of shapesOf(t)) {
          expect([...teamStandingStarts(shape, hosts, cap)], describeShape(shape)).toEqual(model.teamStarts(shape));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('when a team start is checked, then checkTeamBookable gives the first rule the team fails, and accepts exactly the listed starts inside the bookable span', () => {
    fc.assert(
      fc.property(team, fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 20 }), (t, positions) => {
        const model = new Model(t);
        const hosts = hostStarts(t);
        const cap = capOf(t);
        const span = bookableSpan(t.policy, t.now);
        const contexts = t.hosts.map((host) => hostContext(t, host));
        const firstMinute = Math.ceil(t.from / MIN) * MIN;
        const minutes = Math.max(0, Math.ceil((t.to - firstMinute) / MIN));
        const randomMinutes = positions.map((p) => firstMinute + Math.floor((p / 1_000_000) * minutes) * MIN);
        const starts = [...sample(model.candidates(), 60), ...randomMinutes].filter((s) => s >= t.from && s < t.to);
        for (const shape of shapesOf(t)) {
          const listed = new Set(teamStandingStarts(shape, hosts, cap).filter((s) => s >= span.from && s < span.to));
          for (const start of starts) {
            const verdicts = t.hosts.map((host, index) => ({
              holderId: host.holderId,
              fixed: host.fixed,
              reason: checkBookable(contexts[index]!, start),
            }));
            const verdict = checkTeamBookable(shape, verdicts, cap, start);
            const label = `${describeShape(shape)} at ${new Date(start).toISOString()}`;
            expect(verdict.reason, label).toBe(model.verdict(shape, start));
            expect(verdict.reason === null, label).toBe(listed.has(start));
            if (verdict.reason !== null) continue;
            expect(verdict.candidates, label).toEqual(
              shape.assignment === 'collective'
                ? t.hosts.map((host) => host.holderId)
                : model
                    .choosable(shape)
                    .filter((index) => model.standingFor(index, start))
                    .map((index) => t.hosts[index]!.holderId),
            );
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('when a round-robin start is listed, then hostsFreeAt names exactly the non-fixed hosts free there, and the chosen host is one of them', () => {
    fc.assert(
      fc.property(
        team,
        fc.array(fc.record({ priority: fc.integer({ min: 0, max: 4 }), recent: fc.nat(5) }), {
          minLength: 6,
          maxLength: 6,
        }),
        (t, loads) => {
          const model = new Model(t);
          const hosts = hostStarts(t);
          const shape: TeamShape = { assignment: 'round-robin', hostId: null };
          for (const start of sample([...teamStandingStarts(shape, hosts, capOf(t))], 40)) {
            const free = hostsFreeAt(hosts, start);
            const expected = t.hosts.filter((host, index) => !host.fixed && model.standingFor(index, start));
            expect(free).toEqual(expected.map((host) => host.holderId));
            const order = roundRobinOrder(
              free.map((holderId, index) => ({
                holderId,
                priority: loads[index]!.priority,
                weight: 100,
                recentBookings: loads[index]!.recent,
                lastBookedAt: null,
              })),
            );
            const chosen = t.hosts.findIndex((host) => host.holderId === order[0]);
            expect(t.hosts[chosen]!.fixed).toBe(false);
            expect(model.standingFor(chosen, start)).toBe(true);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
