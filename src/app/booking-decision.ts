import { randomInt } from 'node:crypto';
import { compileAvailability, type Availability } from '../domain/availability.js';
import { occupancyOf, timeOf, type BookedTime } from '../domain/booking.js';
import { DomainError } from '../domain/errors.js';
import type { Instant } from '../domain/instant.js';
import { roundRobinOrder } from '../domain/round-robin.js';
import {
  bookingCheckWindows,
  checkBookable,
  UNBOOKABLE_DETAIL,
  occurrenceAt,
  type SlotPolicy,
  type UnbookableReason,
} from '../domain/slots.js';
import { checkTeamBookable, type HostVerdict, type TeamDailyCap, type TeamShape } from '../domain/team-slots.js';
import type { Zones } from '../domain/zone.js';
import { unknownEventType } from './event-types.js';
import { occupanciesAt } from './occupancies.js';
import type {
  DecisionRules,
  Seat,
  SeatClaims,
  StoredOccupancy,
  TeamDecisionRules,
  Transaction,
} from './ports/store.js';

/** What a booking or hold is judged by: its holder's own event type's rules, or a team type's (contract §14). */
export type BookingRules = DecisionRules | TeamDecisionRules;

export function isTeam(rules: BookingRules): rules is TeamDecisionRules {
  return rules.eventType.holderId === null;
}

/** What a decision writes: on which hosts, when, and in which occurrence. */
export interface TakenTime {
  hostIds: readonly string[];
  /**
   * The time to write: the event type's from the start with its buffers as they are now, a held
   * time as it was held, or the time of the occurrence a seat joins (contract §15: its end and
   * buffers, even if the event type changed since).
   */
  time: BookedTime;
  /** The seat it takes in its occurrence (`occurrenceOf`); null for an event type without seats. */
  seat: Seat | null;
}

/**
 * The occurrence of a seated event type at `start` (contract §15): what every seat of it stores
 * with its occupancy, so on PostgreSQL the exclusion constraint lets them share its time.
 */
export function occurrenceOf(eventTypeId: string, start: number): string {
  return `${eventTypeId}@${start}`;
}

/** The seat a decision takes, as `chooseSeat` chose it. */
interface SeatChoice {
  seat: Seat;
  /**
   * Whether its seats must still be counted under the decision's lock: the occurrence has seats
   * numbered beyond the event type's seats (lowered since they were taken), which the numbers
   * alone do not keep to.
   */
  countUnderLock: boolean;
}

/**
 * The seat a seated decision takes at `start` (contract §15): a number from 1 to the event type's
 * seats that none of the occurrence's live seats on its hosts holds (`held`, as judged: the
 * booking being moved left it, expired holds were removed). While every number held is within
 * the seats, each live seat holds its own such number, so the unique index alone keeps the
 * occurrence to its seats: concurrent seats need no lock and commit side by side, and a random
 * free number keeps them from picking the same one (a clash is refused by the write, and judged
 * again). Once the seats were lowered below a number held, the lowest free one is taken and the
 * seats are counted under the lock. Undefined when no number is free (no seat left): judged again.
 *
 * A number another transaction of this process chose (`claims`: open, or committed after this
 * one's reads) is passed over while another is free: it is most likely taken, and a clash costs a
 * wait for that transaction's commit and a second decision (measured on PostgreSQL: one seat in
 * ten of 16 concurrent clients clashed, each with three statements more). The choice is claimed
 * before anything is awaited, so two decisions of this process never choose alike.
 */
function chooseSeat(
  eventType: BookingRules['eventType'],
  start: Instant,
  held: ReadonlySet<number>,
  claims: SeatClaims,
): SeatChoice | undefined {
  const seats = eventType.seats!;
  const occurrence = occurrenceOf(eventType.id, start);
  const claimed = claims.claimedIn(occurrence);
  const free: number[] = [];
  const unclaimed: number[] = [];
  for (let number = 1; number <= seats; number++) {
    if (held.has(number)) continue;
    free.push(number);
    if (!claimed.has(number)) unclaimed.push(number);
  }
  if (free.length === 0) return undefined;
  const choices = unclaimed.length > 0 ? unclaimed : free;
  const countUnderLock = [...held].some((number) => number > seats);
  const number = countUnderLock ? choices[0]! : choices[randomInt(choices.length)]!;
  claims.claim(occurrence, number);
  return { seat: { occurrence, number }, countUnderLock };
}

/** A booking or hold taking time: what `takeTime` decides on, and how the time is written. */
export interface TimeToTake<Locked> {
  /** What it is judged by (`rulesToBook`, or a team type's `teamRulesFor`), read first in the transaction. */
  rules: BookingRules;
  start: Instant;
  now: Instant;
  /** The booking being moved: its own time does not stand in the way. */
  moving?: string;
  /**
   * A live hold whose time is being booked: judged when it was held (contract §9), not again,
   * and booked on its hosts with its time, in the occurrence it was a seat of (§15: its booking
   * is that seat, whatever the event type's seats are now).
   */
  held?: BookedTime & { seat: Seat | null };
  /** Round robin (contract §14): the one host that may be chosen (`hostId`); any when absent. */
  hostId?: string | null;
  /** A team type: hosts to book if they are all free (a rescheduled booking's), before any other choice. */
  keep?: readonly string[];
  /**
   * Writes the booking or hold as `taken` says (a holder's own type: on its holder), after
   * whatever must precede it in the transaction; false when the database refused their time: a
   * concurrent decision took it (PostgreSQL's exclusion constraint; SQLite has one writer), or a
   * concurrent seat took its seat's number. A round-robin decision may then write it again with
   * another host, a seat with another number.
   */
  insert(taken: TakenTime): Promise<boolean>;
  /**
   * Counts more of what was written, after the daily cap's count and under the same lock (a
   * page hold's caps); its answer is `takeTime`'s.
   */
  underLock?(): Promise<Locked>;
}

/**
 * The booking decision, the one way time is taken (a booking, a hold, a hold's conversion, a
 * reschedule, a page's hold), of a holder's own event type or a team's: judge `start` for each
 * host the booking would take (contract §5 and §14; live holds occupy time like bookings, §9; a
 * seat joins its occurrence with a free seat number, §15), choose the hosts, remove the expired
 * holds in their way, write, then lock and count the daily cap, which no constraint does. 409
 * `slot-unavailable` for time it may not take.
 *
 * Overlaps are ruled out by the write itself (the database refuses an insert over a concurrent
 * booking or hold of any of its hosts that is not a seat of the same occurrence), and so are more
 * seats than an occurrence has: each takes a number no other seat of it holds (`chooseSeat`), so
 * of concurrent seats exactly the free ones win without waiting for one another. The counts are
 * read after the write, under a lock (the holder's calendar, or the team type's row), so they
 * include every booking of the day (and, once its seats were lowered, every seat of the
 * occurrence) that committed first. Lock order: the hosts' calendar sources (sorted), the writes
 * (hosts sorted), then the counts' lock.
 */
export async function takeTime<Locked = void>(
  tx: Transaction,
  zones: Zones,
  taking: TimeToTake<Locked>,
): Promise<Locked | undefined> {
  const { rules } = taking;
  return isTeam(rules) ? takeTeamTime(tx, zones, taking, rules) : takeHolderTime(tx, zones, taking, rules);
}

/** A holder's own event type: its holder is the one host, and its own bookings of the type count the cap. */
async function takeHolderTime<Locked>(
  tx: Transaction,
  zones: Zones,
  taking: TimeToTake<Locked>,
  rules: DecisionRules,
): Promise<Locked | undefined> {
  const { eventType } = rules;
  const host = { holderId: eventType.holderId, schedule: rules.schedule, sources: rules.sources };
  if (taking.held) {
    // Held as reserved: nothing is judged again, and the hold counted toward the cap (and as a seat) already.
    const { held } = taking;
    if (!(await taking.insert({ hostIds: held.hostIds, time: held, seat: held.seat })))
      throw unbookable('overlaps-booking');
    if (!taking.underLock) return undefined;
    await lockCalendars(tx, [host.holderId]);
    return taking.underLock();
  }
  const [[refusal], written] = await writeEach(tx, zones, host, rules, taking, 1, async ([only]) => [
    await taking.insert(only!.taken),
  ]);
  if (refusal) throw unbookable(refusal);
  await countUnderLock(tx, host, rules, taking, written);
  return taking.underLock?.();
}

/**
 * Several bookings of one holder's own event type at one start, decided in one transaction as if
 * each were decided after the one before it committed (`BookingBatches`): for each, in order,
 * null when it was written, else why it was refused, as `takeTime` would have refused it alone.
 * Throws, writing nothing to keep, what would refuse every one of them that was written (the
 * daily cap, the seats counted under the lock): alone, each is then decided again.
 */
export async function takeTimeForEach(
  tx: Transaction,
  zones: Zones,
  taking: Pick<TimeToTake<void>, 'start' | 'now'> & { rules: DecisionRules; count: number; write: WriteEach },
): Promise<Array<UnbookableReason | null>> {
  const { rules } = taking;
  const host = { holderId: rules.eventType.holderId, schedule: rules.schedule, sources: rules.sources };
  const [refusals, written] = await writeEach(tx, zones, host, rules, taking, taking.count, taking.write);
  await countUnderLock(tx, host, rules, taking, written);
  return refusals;
}

/** What `writeEach` wrote: whether anything, and in which occurrence, with what still to count under the lock. */
interface Written {
  /** The last judgement, whose `sameDay` the daily cap counts. */
  judged: HostJudgement;
  /** The seat of the last write (null without seats); undefined when nothing was written. */
  choice: SeatChoice | null | undefined;
  /** Whether a seat was chosen among the occurrence's seats lowered below a number held (`SeatChoice`). */
  seatsToCount: boolean;
}

/**
 * Writes several decisions' bookings at once (each to be decided as `TimeToTake.insert` is, by its
 * `index` among them): for each, whether the database took it.
 */
export type WriteEach = (writes: ReadonlyArray<{ index: number; taken: TakenTime }>) => Promise<boolean[]>;

/**
 * Judges `start` for the host and writes, in order, `count` decisions the judgement allows: of an
 * event type without seats, the first (the rest are judged again, seeing it); of a seated one,
 * each with a free seat number (`chooseSeat`), together. A write the database refused (a
 * concurrent decision took the time or the seat's number) is judged again, seeing what refused
 * it; so is one for which no number was left. The judgement's reason refuses what is still waiting.
 */
async function writeEach(
  tx: Transaction,
  zones: Zones,
  host: JudgedHost,
  rules: DecisionRules,
  taking: Pick<TimeToTake<unknown>, 'start' | 'now' | 'moving'>,
  count: number,
  write: WriteEach,
): Promise<[Array<UnbookableReason | null>, Written]> {
  const { start, now } = taking;
  const { eventType } = rules;
  const refusals: Array<UnbookableReason | null> = Array.from({ length: count }, () => 'overlaps-booking');
  let waiting = refusals.map((_, index) => index);
  let choice: SeatChoice | null | undefined;
  let seatsToCount = false;
  let judged: HostJudgement;
  for (let attempt = 0; ; attempt++) {
    judged = await judgeHost(tx, zones, host, eventType, taking);
    if (judged.reason !== null) {
      for (const index of waiting) refusals[index] = judged.reason;
      break;
    }
    if (judged.expiredHoldIds.length > 0) await tx.holds.dropExpired(host.holderId, judged.expiredHoldIds, now);
    const time = await timeToWrite(tx, eventType, start, [host.holderId], judged.joining);
    // Without seats, the first alone: the rest are judged again, and see it. With seats, each
    // while a number is free; those left are judged again, and see the occurrence full.
    const chosen: Array<{ index: number; choice: SeatChoice | null }> = [];
    const held = new Set(judged.joining?.seatNumbers);
    for (const index of eventType.seats ? waiting : waiting.slice(0, 1)) {
      const seat = eventType.seats ? chooseSeat(eventType, start, held, tx.seatClaims) : null;
      if (seat === undefined) break;
      if (seat) held.add(seat.seat.number);
      chosen.push({ index, choice: seat });
    }
    const written =
      chosen.length === 0
        ? []
        : await write(
            chosen.map(({ index, choice }) => ({
              index,
              taken: { hostIds: time.hostIds, time, seat: choice?.seat ?? null },
            })),
          );
    let wrote = false;
    chosen.forEach(({ index, choice: seat }, position) => {
      if (!written[position]) return;
      refusals[index] = null;
      wrote = true;
      choice = seat;
      seatsToCount ||= seat?.countUnderLock ?? false;
    });
    waiting = waiting.filter((index) => refusals[index] !== null);
    if (waiting.length === 0) break;
    // A write refused by a concurrent decision that committed first (or a seat's number a
    // concurrent seat took): judged again, seeing it. Each clash is another seat taken, so the
    // occurrence is full before the attempts run out; without seats, refused at once.
    if (!wrote && (!eventType.seats || attempt >= eventType.seats)) break;
  }
  return [refusals, { judged, choice, seatsToCount }];
}

/**
 * After the writes, under the host's calendar lock, what no constraint keeps: the daily cap and,
 * once the seats were lowered, the occurrence's seats (`countSeats`). Both refuse by throwing.
 */
async function countUnderLock(
  tx: Transaction,
  host: JudgedHost,
  rules: DecisionRules,
  taking: Pick<TimeToTake<unknown>, 'start' | 'now' | 'underLock'>,
  { judged, choice, seatsToCount }: Written,
): Promise<void> {
  const { eventType } = rules;
  if (choice === undefined) return;
  const limit = eventType.maxBookingsPerDay;
  const cap = limit !== null && judged.sameDay !== null ? { limit, day: judged.sameDay } : null;
  if (cap === null && !seatsToCount && !taking.underLock) return;
  await lockCalendars(tx, [host.holderId]);
  if (seatsToCount) await countSeats(tx, host.holderId, eventType, taking.start, taking.now);
  if (cap !== null) {
    const ofTheDay = await tx.bookings.occupanciesStartingIn(host.holderId, eventType.id, cap.day.from, cap.day.to);
    if (overDailyCap(occupanciesAt(ofTheDay, taking.now).live, cap.limit, choice?.seat.occurrence ?? null))
      throw unbookable('daily-limit-reached');
  }
}

/**
 * A team event type (contract §14): the hosts who must all be free are judged each by its own
 * schedule, occupancies (every event type) and busy time, with the team's rules of the clock and
 * without the cap, which the team counts once per booking over every host (`checkTeamBookable`).
 * Collective: every host (or the booking's own hosts, `keep`). Round robin: `keep` first, when
 * given and free; then every fixed host and one other, chosen in `roundRobinOrder`; a host whose
 * time the database refuses (a concurrent decision took it) is passed over for the next.
 */
async function takeTeamTime<Locked>(
  tx: Transaction,
  zones: Zones,
  taking: TimeToTake<Locked>,
  rules: TeamDecisionRules,
): Promise<Locked | undefined> {
  const { start, now } = taking;
  const { eventType } = rules;
  const cap: TeamDailyCap = {
    eventTypeId: eventType.id,
    maxBookingsPerDay: eventType.maxBookingsPerDay,
    // Contract §14: the local dates of the first host's schedule.
    zone: zones.of(rules.hosts[0]!.schedule.timeZone),
    bookings: [],
  };
  if (taking.held) {
    // Held as reserved: nothing is judged again, and the hold counted toward the cap (and as a seat) already.
    const { held } = taking;
    if (!(await taking.insert({ hostIds: held.hostIds, time: held, seat: held.seat })))
      throw unbookable('overlaps-booking');
    if (!taking.underLock) return undefined;
    await tx.lockTeamEventType(eventType.id);
    return taking.underLock();
  }

  const shape: TeamShape =
    eventType.assignment === 'collective'
      ? { assignment: 'collective' }
      : { assignment: 'round-robin', hostId: taking.hostId ?? null };
  const required = shape.assignment === 'collective' ? rules.hosts : rules.hosts.filter((host) => host.fixed);
  const candidates =
    shape.assignment === 'collective'
      ? []
      : rules.hosts.filter((host) => !host.fixed && (shape.hostId === null || host.holderId === shape.hostId));
  const judging = new TeamJudging(tx, zones, taking, rules);
  // Every host this decision may judge, its sources locked before any is read, in one order.
  await judging.lockSources([...(taking.keep ?? []), ...[...required, ...candidates].map(hostIdOf)]);
  const dayWindow = bookingCheckWindows(cap.zone, eventType, start).sameDay;
  if (dayWindow !== null) {
    const ofTheDay = await tx.bookings.occupanciesOfEventTypeStartingIn(
      eventType.id,
      dayWindow.from,
      dayWindow.to,
      taking.moving,
    );
    cap.bookings = occupanciesAt(ofTheDay, now).live;
  }

  const requiredIds = required.map(hostIdOf);
  // What may be booked, in turn: the booking's own hosts (a collective booking keeps them or
  // fails); then every host, or every fixed host with one other in round robin's order.
  const assignments: Array<readonly string[]> = taking.keep ? [taking.keep] : [];
  if (shape.assignment === 'round-robin')
    for (const holderId of roundRobinOrder(candidates)) assignments.push([...requiredIds, holderId]);
  else if (!taking.keep) assignments.push(requiredIds);
  let written: readonly string[] | undefined;
  let choice: SeatChoice | null = null;
  for (const assignment of assignments) {
    // A seat's number taken by a concurrent seat first: the same hosts judged again (seats are
    // collective only); each clash is another seat taken, so the occurrence fills before the attempts run out.
    for (let attempt = 0; !written && attempt <= (eventType.seats ?? 0); attempt++) {
      if (!(await judging.allFree(assignment, cap))) break;
      await judging.dropExpiredHolds(assignment);
      const time = await timeToWrite(tx, eventType, start, assignment, judging.joining(assignment));
      const chosen = eventType.seats
        ? chooseSeat(eventType, start, judging.seatNumbers(assignment), tx.seatClaims)
        : null;
      if (chosen !== undefined && (await taking.insert({ hostIds: assignment, time, seat: chosen?.seat ?? null }))) {
        written = assignment;
        choice = chosen;
      } else judging.refused(assignment);
    }
    if (written) break;
  }
  if (!written) {
    const judged =
      shape.assignment === 'collective' && taking.keep
        ? taking.keep.map((holderId) => ({ holderId, fixed: false }))
        : [...required, ...candidates];
    throw unbookable(await judging.reasonFor(shape, judged, cap));
  }

  const seatsToCount = choice?.countUnderLock ?? false;
  if (eventType.maxBookingsPerDay === null && !seatsToCount && !taking.underLock) return undefined;
  await tx.lockTeamEventType(eventType.id);
  // Every seat occupies every host of the occurrence (seats are collective only): one host counts them.
  if (seatsToCount) await countSeats(tx, [...written].sort()[0]!, eventType, start, now);
  if (dayWindow !== null) {
    const ofTheDay = await tx.bookings.occupanciesOfEventTypeStartingIn(eventType.id, dayWindow.from, dayWindow.to);
    if (overDailyCap(occupanciesAt(ofTheDay, now).live, eventType.maxBookingsPerDay!, choice?.seat.occurrence ?? null))
      throw unbookable('daily-limit-reached');
  }
  return taking.underLock?.();
}

const hostIdOf = (host: { holderId: string }) => host.holderId;

/**
 * The hosts of one team decision as they are judged, each once: its schedule (its host entry's,
 * else its default one, which a former host of the type is judged by), its sources, its verdict.
 */
class TeamJudging {
  private readonly verdicts = new Map<string, HostJudgement>();
  private sources = new Map<string, number>();

  constructor(
    private readonly tx: Transaction,
    private readonly zones: Zones,
    private readonly taking: TimeToTake<unknown>,
    private readonly rules: TeamDecisionRules,
  ) {}

  async lockSources(holderIds: readonly string[]): Promise<void> {
    this.sources = await this.tx.decisions.sharedSources(holderIds);
  }

  /** Whether every host of `assignment` is free at the start and the team's cap allows one more. */
  async allFree(assignment: readonly string[], cap: TeamDailyCap): Promise<boolean> {
    const verdicts: HostVerdict[] = [];
    for (const holderId of assignment)
      verdicts.push({ holderId, fixed: true, reason: (await this.judged(holderId)).reason });
    return checkTeamBookable({ assignment: 'collective' }, verdicts, cap, this.taking.start).reason === null;
  }

  /**
   * The database refused this assignment's time: a concurrent decision that took one of its hosts
   * committed. Which one, the refusal does not say; its hosts are judged again when next asked,
   * by statements that see that commit.
   */
  refused(assignment: readonly string[]): void {
    for (const holderId of assignment) this.verdicts.delete(holderId);
  }

  /** The occurrence a seat would join at the start, as the assignment's hosts were judged; undefined for none. */
  joining(assignment: readonly string[]): StoredOccupancy | undefined {
    for (const holderId of assignment) {
      const joining = this.verdicts.get(holderId)?.joining;
      if (joining) return joining;
    }
    return undefined;
  }

  /** The numbers the live seats of the occurrence at the start hold on any host of the assignment. */
  seatNumbers(assignment: readonly string[]): Set<number> {
    const numbers = new Set<number>();
    for (const holderId of assignment)
      for (const number of this.verdicts.get(holderId)?.joining?.seatNumbers ?? []) numbers.add(number);
    return numbers;
  }

  async dropExpiredHolds(assignment: readonly string[]): Promise<void> {
    const dropped = new Set<string>();
    for (const holderId of assignment) {
      const ids = this.verdicts.get(holderId)!.expiredHoldIds.filter((id) => !dropped.has(id));
      if (ids.length === 0) continue;
      await this.tx.holds.dropExpired(holderId, ids, this.taking.now);
      for (const id of ids) dropped.add(id);
    }
  }

  /** Why no assignment could be booked, in `checkTeamBookable`'s terms, every host that counts judged. */
  async reasonFor(
    shape: TeamShape,
    hosts: ReadonlyArray<{ holderId: string; fixed: boolean }>,
    cap: TeamDailyCap,
  ): Promise<UnbookableReason> {
    const verdicts: HostVerdict[] = [];
    for (const host of hosts)
      verdicts.push({ holderId: host.holderId, fixed: host.fixed, reason: (await this.judged(host.holderId)).reason });
    // Every host free, and still refused: taken by concurrent decisions.
    return checkTeamBookable(shape, verdicts, cap, this.taking.start).reason ?? 'overlaps-booking';
  }

  private async judged(holderId: string): Promise<HostJudgement> {
    const known = this.verdicts.get(holderId);
    if (known) return known;
    const host = { holderId, schedule: await this.scheduleOf(holderId), sources: this.sources.get(holderId) ?? 0 };
    // Each host without the daily cap: the team counts it once per booking.
    const policy = { ...this.rules.eventType, maxBookingsPerDay: null };
    const verdict = await judgeHost(this.tx, this.zones, host, policy, this.taking);
    this.verdicts.set(holderId, verdict);
    return verdict;
  }

  private async scheduleOf(holderId: string): Promise<Availability> {
    const entry = this.rules.hosts.find((host) => host.holderId === holderId);
    if (entry) return entry.schedule;
    const schedule = await this.tx.schedules.defaultOf(holderId);
    if (!schedule) throw new Error(`host ${holderId} of a booking has no default schedule`);
    return schedule;
  }
}

/**
 * Takes the calendar locks of `ownerIds` in one order (sorted ids), each once: two decisions
 * over overlapping lists of holders then never wait for each other in a cycle.
 */
export async function lockCalendars(tx: Transaction, ownerIds: readonly string[]): Promise<void> {
  for (const holderId of [...new Set(ownerIds)].sort()) await tx.lockCalendar(holderId);
}

/**
 * The rules of a booking or hold of the holder's live event type `eventTypeId`, or `missing()`
 * when there is none: by default a 400 on `eventTypeId` (a reference in the input, not the
 * addressed resource); `eventTypeDeleted` where the event type came from a booking or a page.
 */
export async function rulesToBook(
  tx: Transaction,
  holderId: string,
  eventTypeId: string,
  missing: () => DomainError = unknownEventType,
): Promise<DecisionRules> {
  const rules = await tx.decisions.rulesFor(holderId, eventTypeId);
  if (!rules) throw missing();
  return rules;
}

/** 409: the time was to be taken for an event type deleted meanwhile (`of`: what was to take it). */
export function eventTypeDeleted(of: string): DomainError {
  return new DomainError('slot-unavailable', `The event type of ${of} was deleted; it has no bookable times any more.`);
}

/** 409 `slot-unavailable`, saying why. */
export function unbookable(reason: UnbookableReason): DomainError {
  return new DomainError('slot-unavailable', UNBOOKABLE_DETAIL[reason]);
}

/** One host as a decision judges it: whose time, in which schedule, with how many calendar sources. */
interface JudgedHost {
  holderId: string;
  schedule: Availability;
  /** Its calendar sources, share-locked: with none, there is no busy time to read. */
  sources: number;
}

/** What `judgeHost` found. */
interface HostJudgement {
  /** Why the host cannot take the start; null when it can. */
  reason: UnbookableReason | null;
  /** The local day whose bookings the daily cap counts; null without a cap. */
  sameDay: ReturnType<typeof bookingCheckWindows>['sameDay'];
  /** Expired holds where the new time goes: removed before the write. */
  expiredHoldIds: string[];
  /** The occurrence of the seated event type at the start, which the seat joins (contract §15); undefined for none. */
  joining?: StoredOccupancy;
}

/**
 * The time a decision writes on `hostIds`: the event type's from `start`, or the time of the
 * occurrence a seat joins (contract §15), read from one of its seats unless the event type's
 * own time would occupy exactly the same (then they agree, and nothing is read).
 */
async function timeToWrite(
  tx: Transaction,
  eventType: BookingRules['eventType'],
  start: number,
  hostIds: readonly string[],
  joining: StoredOccupancy | undefined,
): Promise<BookedTime> {
  const own = eventType.holderId === null ? timeOf(eventType, start, hostIds) : timeOf(eventType, start);
  if (!joining) return own;
  const occupied = occupancyOf(own);
  if (occupied.occupiedStart === joining.occupiedStart && occupied.occupiedEnd === joining.occupiedEnd) return own;
  const span = await tx.bookings.bookedSpan(joining.id);
  return span ? { ...own, ...span } : own;
}

/**
 * Whether the event type's live occupancies of the day, as counted under the lock after the write
 * (each booking once, over every host; an occurrence's seats as one), are more than `limit`. A
 * seat that joined an occurrence, which has other seats, adds none (contract §15): the day may
 * have more occurrences than a cap lowered since, and its seats still join them.
 */
function overDailyCap(ofTheDay: readonly StoredOccupancy[], limit: number, occurrence: string | null): boolean {
  if (new Set(ofTheDay.map((occupancy) => occupancy.id)).size <= limit) return false;
  return !ofTheDay.some(
    (occupied) => occurrence !== null && occupied.occurrence === occurrence && (occupied.seats ?? 1) > 1,
  );
}

/**
 * The occurrence's seats as the host's rows hold them now, under the lock of the decision's
 * counts: more than the event type's seats (a concurrent seat committed first, or the seats were
 * lowered) is 409, and the transaction writes nothing.
 */
async function countSeats(
  tx: Transaction,
  holderId: string,
  eventType: BookingRules['eventType'],
  start: number,
  now: number,
): Promise<void> {
  const taken = await tx.bookings.seatsTaken(holderId, occurrenceOf(eventType.id, start), eventType.id, start, now);
  if (taken > (eventType.seats ?? 1)) throw unbookable('no-seats-left');
}

/**
 * Judges `start` for one host by contract §5 at `now`, ignoring the booking being moved: its
 * schedule's grid, the policy's clock rules and (when the policy has one) daily cap, its
 * occupancies of every event type and its busy time. Every read here follows the share locks of
 * the host's calendar sources (`rules`, `sharedSources`).
 */
async function judgeHost(
  tx: Transaction,
  zones: Zones,
  host: JudgedHost,
  policy: SlotPolicy & { id: string },
  { start, now, moving }: Pick<TimeToTake<unknown>, 'start' | 'now' | 'moving'>,
): Promise<HostJudgement> {
  const { holderId } = host;
  // The schedule's hours, and the zone whose local date the daily cap counts.
  const zone = zones.of(host.schedule.timeZone);
  const windows = bookingCheckWindows(zone, policy, start);
  const [overlapping, sameDay, busy] = await Promise.all([
    tx.bookings.occupanciesOverlapping(holderId, windows.overlapping.from, windows.overlapping.to, now, moving),
    windows.sameDay
      ? tx.bookings.occupanciesStartingIn(holderId, policy.id, windows.sameDay.from, windows.sameDay.to, moving)
      : [],
    // Busy time from the host's calendars, judged in this transaction too (contract §11), read
    // after its sources were locked: no sync can be writing it.
    host.sources === 0 ? [] : tx.busyTime.overlapping(holderId, windows.overlapping.from, windows.overlapping.to),
  ]);
  // A booking of the same day that also overlaps is in both answers: count it once.
  const { from, to } = windows.overlapping;
  const near = occupanciesAt(overlapping, now);
  const ofTheDay = occupanciesAt(
    sameDay.filter((b) => !(b.occupiedStart < to && b.occupiedEnd > from)),
    now,
  );
  const context = {
    availability: compileAvailability(host.schedule, zone),
    eventTypeId: policy.id,
    policy,
    bookings: [...near.live, ...ofTheDay.live],
    busy,
    now,
  };
  const reason = checkBookable(context, start);
  const joining = occurrenceAt(context, start);
  return { reason, sameDay: windows.sameDay, expiredHoldIds: near.expiredHoldIds, ...(joining ? { joining } : {}) };
}
