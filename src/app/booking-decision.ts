import { compileAvailability } from '../domain/availability.js';
import { DomainError } from '../domain/errors.js';
import type { Instant } from '../domain/instant.js';
import { bookingCheckWindows, checkBookable, UNBOOKABLE_DETAIL } from '../domain/slots.js';
import type { Zones } from '../domain/zone.js';
import { unknownEventType } from './event-types.js';
import { occupanciesAt } from './occupancies.js';
import type { DecisionRules, Transaction } from './ports/store.js';

/** A booking or hold taking time: what `takeTime` decides on, and how the time is written. */
export interface TimeToTake<Locked> {
  /** What it is judged by (`rulesToBook`), read first in the transaction. */
  rules: DecisionRules;
  start: Instant;
  now: Instant;
  /** The booking being moved: its own time does not stand in the way. */
  moving?: string;
  /** The time is a live hold's, being booked: judged when it was held (contract §9), not again. */
  held?: boolean;
  /**
   * Writes the booking or hold (after whatever must precede it in the transaction); false when
   * the database refused its time: a concurrent decision took it (PostgreSQL's exclusion
   * constraint; SQLite has one writer).
   */
  insert(): Promise<boolean>;
  /**
   * Counts more of what was written, after the daily cap's count and under the same calendar
   * locks (a page hold's caps); its answer is `takeTime`'s.
   */
  underLock?(): Promise<Locked>;
}

/**
 * The booking decision, the one way time is taken (a booking, a hold, a hold's conversion, a
 * reschedule, a page's hold): judge `start` by the rules (contract §5; live holds occupy time like
 * bookings, §9), remove the expired holds in its way, write, then lock the calendars and count
 * the daily cap, which no constraint does. 409 `slot-unavailable` for time it may not take.
 *
 * Overlaps are ruled out by the write itself (the database refuses an insert over a concurrent
 * booking or hold). The cap's count is read after the write, under the calendar lock, so it
 * includes every booking of the day that committed first. Lock order: writes first, then the
 * holders' calendars (`lockCalendars`) — a decision covering several holders (a team's hosts)
 * writes one occupancy per host, then locks them all in that one order.
 */
export async function takeTime<Locked = void>(
  tx: Transaction,
  zones: Zones,
  taking: TimeToTake<Locked>,
): Promise<Locked | undefined> {
  const { rules, now } = taking;
  const { eventType } = rules;
  const judged = taking.held ? RESERVED : await assertBookable(tx, zones, taking);
  if (judged.expiredHoldIds.length > 0) await tx.holds.dropExpired(eventType.holderId, judged.expiredHoldIds, now);
  if (!(await taking.insert())) throw new DomainError('slot-unavailable', UNBOOKABLE_DETAIL['overlaps-booking']);
  const limit = eventType.maxBookingsPerDay;
  const cap = limit !== null && judged.sameDay !== null ? { limit, day: judged.sameDay } : null;
  if (cap === null && !taking.underLock) return undefined;
  await lockCalendars(tx, [eventType.holderId]);
  if (cap !== null) {
    const ofTheDay = await tx.bookings.occupanciesStartingIn(
      eventType.holderId,
      eventType.id,
      cap.day.from,
      cap.day.to,
    );
    if (occupanciesAt(ofTheDay, now).live.length > cap.limit)
      throw new DomainError('slot-unavailable', UNBOOKABLE_DETAIL['daily-limit-reached']);
  }
  return taking.underLock?.();
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

/** What `assertBookable` found besides its verdict. */
interface Judgement {
  /** The local day whose bookings the daily cap counts; null without a cap. */
  sameDay: ReturnType<typeof bookingCheckWindows>['sameDay'];
  /** Expired holds where the new time goes: removed before the write. */
  expiredHoldIds: string[];
}

/** A held time's judgement: made when it was held. */
const RESERVED: Judgement = { sameDay: null, expiredHoldIds: [] };

/**
 * Judges `start` by contract §5 at `now`, ignoring the booking being moved. Every read here
 * follows `rules`, which holds the share locks of the holder's calendar sources.
 */
async function assertBookable(
  tx: Transaction,
  zones: Zones,
  { rules, start, now, moving }: TimeToTake<unknown>,
): Promise<Judgement> {
  const { eventType } = rules;
  const holderId = eventType.holderId;
  // The event type's schedule: its hours, and the zone whose local date the daily cap counts.
  const zone = zones.of(rules.schedule.timeZone);
  const windows = bookingCheckWindows(zone, eventType, start);
  const [overlapping, sameDay, busy] = await Promise.all([
    tx.bookings.occupanciesOverlapping(holderId, windows.overlapping.from, windows.overlapping.to, moving),
    windows.sameDay
      ? tx.bookings.occupanciesStartingIn(holderId, eventType.id, windows.sameDay.from, windows.sameDay.to, moving)
      : [],
    // Busy time from the holder's calendars, judged in this transaction too (contract §11), read
    // after `rules` locked the sources: no sync can be writing it.
    rules.sources === 0 ? [] : tx.busyTime.overlapping(holderId, windows.overlapping.from, windows.overlapping.to),
  ]);
  // A booking of the same day that also overlaps is in both answers: count it once.
  const { from, to } = windows.overlapping;
  const near = occupanciesAt(overlapping, now);
  const ofTheDay = occupanciesAt(
    sameDay.filter((b) => !(b.occupiedStart < to && b.occupiedEnd > from)),
    now,
  );
  const reason = checkBookable(
    {
      availability: compileAvailability(rules.schedule, zone),
      eventTypeId: eventType.id,
      policy: eventType,
      bookings: [...near.live, ...ofTheDay.live],
      busy,
      now,
    },
    start,
  );
  if (reason !== null) throw new DomainError('slot-unavailable', UNBOOKABLE_DETAIL[reason]);
  return { sameDay: windows.sameDay, expiredHoldIds: near.expiredHoldIds };
}
