import { compileAvailability, type CompiledAvailability } from '../domain/availability.js';
import type { EventType } from '../domain/event-type.js';
import { DAY_MS, type Instant } from '../domain/instant.js';
import type { Interval } from '../domain/intervals.js';
import {
  rangeDecidedBy,
  sameStandingPolicy,
  type SlotPolicy,
  standingSlotStarts,
  standingSlotStartsSince,
  type StandingSlotContext,
  type StandingSlots,
} from '../domain/slots.js';
import type { Zones } from '../domain/zone.js';
import { availabilityOf, type Schedule } from '../domain/schedule.js';
import type { Reads, StoredOccupancy } from './ports/store.js';
import { occupanciesAt } from './occupancies.js';
import { StoreUnavailable } from './ports/storage-errors.js';

/** Everything that decides a holder's slots, as of one calendar version, ready for the engine. */
export interface Calendar {
  version: number;
  /** The holder's schedules by id (contract §13), each compiled for the engine. */
  schedules: Map<string, CompiledSchedule>;
  /** The id of the holder's default schedule: the one an event type without `scheduleId` is booked in. */
  defaultScheduleId: string;
  /** Live event types by id; each one's schedule is in `schedules`. */
  eventTypes: Map<string, EventType>;
  /**
   * Confirmed bookings and holds live when loaded, overlapping `[coveredFrom, coveredTo)`,
   * ascending (they never overlap each other).
   */
  occupancies: StoredOccupancy[];
  /** Busy time from the holder's calendar sources overlapping `[coveredFrom, coveredTo)` (contract §11). */
  busy: Interval[];
  coveredFrom: Instant;
  coveredTo: Instant;
  loadedAt: Instant;
  /** When the first of its holds expires: from then on it is out of date (Infinity without holds). */
  validUntil: Instant;
}

/** A schedule ready for the engine. */
export interface CompiledSchedule {
  availability: CompiledAvailability;
  /**
   * Its availability document as stored, as JSON. A newer calendar whose schedule of the same id
   * reads the same shares `availability` with this one, so the slot tracks of the event types
   * booked in it may be derived from this one's.
   */
  json: string;
}

/**
 * The compiled hours and zone `offer` is booked in: its schedule's, else the default schedule's
 * (also when the schedule is gone: a team host's whose schedule was deleted regardless falls back
 * to its default one, as the foreign key leaves it).
 */
export function scheduleOf(calendar: Calendar, offer: Pick<SlotOffer, 'scheduleId'>): CompiledAvailability {
  const schedule = offer.scheduleId === null ? undefined : calendar.schedules.get(offer.scheduleId);
  return (schedule ?? calendar.schedules.get(calendar.defaultScheduleId)!).availability;
}

/**
 * What a slot track is of: a holder's own event type, or a team event type the holder hosts (with
 * that host's schedule, and the team's daily cap left to the team: contract §14).
 */
export interface SlotOffer {
  id: string;
  policy: SlotPolicy;
  /** The holder's schedule it is offered in; null: the default schedule. */
  scheduleId: string | null;
}

/** A holder's own event type as a slot offer. */
export function offerOf(eventType: EventType): SlotOffer {
  return { id: eventType.id, policy: eventType, scheduleId: eventType.scheduleId };
}

/**
 * Bookings held per holder: from shortly before now to 70 days ahead, enough for a 62-day query
 * starting within the next few days (with the two days either side the engine reads). Not more:
 * every booking changes the version, and a holder busy with bookings reloads this span at its next
 * slot query, which should cost no more than reading one query's bookings.
 */
const COVERED_BEFORE_MS = 3 * DAY_MS;
const COVERED_AHEAD_MS = 70 * DAY_MS;
/** A calendar is reloaded this long after loading even if unchanged, so that what it covers moves on with time. */
const RECENTRE_AFTER_MS = DAY_MS;
const MAX_CACHED_HOLDERS = 1_000;
/**
 * Reads of a calendar until its event types and schedules agree (each names a schedule that was
 * read): they are read by separate statements, between which an event type may move to a schedule
 * made meanwhile, or off one deleted meanwhile. Each disagreement is a commit between two
 * statements of a few milliseconds.
 */
const LOAD_ATTEMPTS = 5;
/**
 * Standing slots kept for all holders together, in bytes of starts (8 each): a realistic event
 * type over 67 days holds about a thousand, one open around the clock in 5-minute steps ~19,000.
 */
const MAX_TRACK_BYTES = 32 * 1024 * 1024;

/**
 * A per-process cache of holders' calendars, each valid exactly while the holder's calendar
 * version is unchanged and none of its holds has expired. The database bumps that version (by trigger) in the same transaction as
 * every change to the holder's event types, schedules or bookings, whichever process makes it,
 * so the version read with the key (itself reused while nothing concerning the holder was
 * committed: `KeyCache`) tells whether the cached calendar is current. The version is read
 * before the calendar: a calendar loaded meanwhile is at least as new as its label, and the
 * next request that sees a newer version loads it again.
 *
 * One load per holder and version at a time: the requests that see a new version together (a
 * busy holder's page at saturation) wait for the same load, so they also share one calendar and
 * its tracks, each computed once. A failed load is forgotten with its error; the next request
 * loads again.
 *
 * A booking changes a calendar's tracks by what it occupies, not by a recompute of the 67 days
 * they cover (issue 16). A track stays in the cache with the calendar it was computed for; when a
 * newer calendar of the holder asks for it, `standingSlotStartsSince` derives the new track from
 * the old one if only bookings, holds and busy time differ between the two: the old starts are
 * kept except on the local days that an added or removed occupancy or busy span can change, and
 * where the newer calendar covers later days. A newer calendar shares its predecessor's compiled
 * schedule, one by one, while the stored schedule's hours and zone are unchanged, which is what
 * tells the engine the grid is the same: a change of one schedule recomputes only the tracks of
 * the event types booked in it. Anything else (new hours, another schedule, duration, buffers or
 * daily cap, no range in common) is computed in full.
 */
export class CalendarCache {
  private readonly calendars = new Map<string, Calendar>();
  /** The load in flight per holder: at most one per holder, gone once it settles. */
  private readonly loads = new Map<string, { version: number; calendar: Promise<Calendar> }>();
  private readonly tracks = new Map<string, Track>();
  private trackBytes = 0;
  private readonly computed = { full: 0, derived: 0 };

  constructor(
    private readonly store: Reads,
    private readonly zones: Zones,
  ) {}

  /**
   * The holder's calendar as of `knownVersion` (a version just read, e.g. with the API key) or,
   * without one, as of now; undefined when there is no such holder.
   */
  async current(holderId: string, now: Instant, knownVersion: number | null = null): Promise<Calendar | undefined> {
    const version = knownVersion ?? (await this.store.holders.calendarVersion(holderId));
    if (version === undefined) return undefined;
    // The warm path (most slot queries): no batch of one to build and wait for.
    return this.cachedAt(holderId, version, now) ?? (await this.currentOf([{ holderId, version }], now))[0];
  }

  /** The holder's cached calendar, if it is of `version` and still answers for `now`. */
  private cachedAt(holderId: string, version: number, now: Instant): Calendar | undefined {
    const cached = this.calendars.get(holderId);
    return cached && cached.version === version && now - cached.loadedAt < RECENTRE_AFTER_MS && now < cached.validUntil
      ? cached
      : undefined;
  }

  /**
   * Each holder's calendar as of its version (just read, e.g. a team type's hosts from the holder
   * cache), in their order: those neither cached nor being loaded at that version are loaded
   * together, one statement per kind of record for all of them (a cold team query as few round
   * trips as one holder's), each still its holder's load in flight for whoever asks meanwhile.
   */
  async currentOf(holders: readonly HolderVersion[], now: Instant): Promise<Calendar[]> {
    const unloaded: HolderVersion[] = [];
    const known = holders.map(({ holderId, version }) => {
      const cached = this.cachedAt(holderId, version, now);
      if (cached) return cached;
      const inFlight = this.loads.get(holderId);
      if (inFlight?.version === version)
        // Loaded at an earlier moment: a hold live then may have expired by now.
        return inFlight.calendar.then((calendar) =>
          now < calendar.validUntil ? calendar : this.startLoads([{ holderId, version }], now)[0]!,
        );
      unloaded.push({ holderId, version });
      return undefined;
    });
    const loading = unloaded.length === 0 ? [] : this.startLoads(unloaded, now);
    let next = 0;
    return Promise.all(known.map((calendar) => calendar ?? loading[next++]!));
  }

  /**
   * The event type's slot track as of `calendar` (one just returned by `current`), or undefined
   * when `[from, to)` reaches beyond what the calendar decides. A track is the event type's
   * standing slots (see `standingSlotStarts`) over all that the calendar decides: a query within
   * it is the part of them its range and the clock allow. The same array until the calendar
   * changes, so what is derived from it may be kept with it.
   */
  slotTrack(
    holderId: string,
    calendar: Calendar,
    offer: SlotOffer,
    from: Instant,
    to: Instant,
  ): Float64Array | undefined {
    const decided = rangeDecidedBy(calendar.coveredFrom, calendar.coveredTo);
    if (from < decided.from || to > decided.to) return undefined;
    const key = `${holderId} ${offer.id}`;
    const cached = this.tracks.get(key);
    if (cached && cached.calendar === calendar && sameOffer(cached.offer, offer)) return cached.starts;
    const context = standingContext(calendar, offer);
    const previous = cached && standingSlotsOf(cached);
    let starts = previous && standingSlotStartsSince(previous, context, decided.from, decided.to);
    if (starts) this.computed.derived++;
    else {
      starts = standingSlotStarts(context, decided.from, decided.to);
      this.computed.full++;
    }
    if (cached) {
      this.tracks.delete(key);
      this.trackBytes -= cached.starts.byteLength;
    }
    // Least recently computed first out.
    while (this.trackBytes + starts.byteLength > MAX_TRACK_BYTES && this.tracks.size > 0) {
      const [oldest, entry] = this.tracks.entries().next().value!;
      this.tracks.delete(oldest);
      this.trackBytes -= entry.starts.byteLength;
    }
    this.tracks.set(key, { calendar, offer, starts });
    this.trackBytes += starts.byteLength;
    return starts;
  }

  /** How many slot tracks were computed over their whole range and how many derived from an older track, since the cache was made. */
  trackComputations(): { full: number; derived: number } {
    return { ...this.computed };
  }

  /** Forgets every calendar, load in flight and track (tests that change the database behind the store's back). */
  clear(): void {
    this.calendars.clear();
    this.loads.clear();
    this.tracks.clear();
    this.trackBytes = 0;
  }

  /**
   * Loads the calendars together, each as its holder's load in flight; each enters the cache
   * unless a newer load or `clear` replaced it meanwhile. Each fails alone (a holder whose
   * calendar kept changing while it was read), or all with the statement that failed.
   */
  private startLoads(holders: readonly HolderVersion[], now: Instant): Promise<Calendar>[] {
    const outcomes = this.load(holders, now);
    return holders.map(({ holderId, version }, index) => {
      const calendar = outcomes.then((outcomes) => {
        const outcome = outcomes[index]!;
        if (outcome instanceof Error) throw outcome;
        return outcome;
      });
      const inFlight = { version, calendar };
      this.loads.set(holderId, inFlight);
      const settled = () => {
        if (this.loads.get(holderId) !== inFlight) return false;
        this.loads.delete(holderId);
        return true;
      };
      calendar.then((loaded) => {
        if (!settled()) return;
        // Least recently loaded first out: a Map iterates in insertion order.
        this.calendars.delete(holderId);
        if (this.calendars.size >= MAX_CACHED_HOLDERS) this.calendars.delete(this.calendars.keys().next().value!);
        this.calendars.set(holderId, loaded);
      }, settled);
      return calendar;
    });
  }

  /** The holders' calendars (each one's in their order), or the error of a holder whose calendar could not be read. */
  private async load(holders: readonly HolderVersion[], now: Instant): Promise<Array<Calendar | StoreUnavailable>> {
    const coveredFrom = now - COVERED_BEFORE_MS;
    const coveredTo = now + COVERED_AHEAD_MS;
    const holderIds = holders.map((holder) => holder.holderId);
    const [agreed, occupancies, busyTime] = await Promise.all([
      this.loadSchedulesAndEventTypes(holderIds),
      this.store.bookings.occupanciesOverlappingOf(holderIds, coveredFrom, coveredTo),
      this.store.busyTime.overlappingOf(holderIds, coveredFrom, coveredTo),
    ]);
    return holders.map(({ holderId, version }) => {
      const records = agreed.get(holderId)!;
      if (records instanceof StoreUnavailable) return records;
      const { schedules, defaultScheduleId, eventTypes } = records;
      const { live, nextExpiry } = occupanciesAt(occupancies.get(holderId)!, now);
      const previous = this.calendars.get(holderId);
      const compiled = new Map<string, CompiledSchedule>();
      for (const schedule of schedules) {
        const json = JSON.stringify(availabilityOf(schedule));
        const kept = previous?.schedules.get(schedule.id);
        compiled.set(
          schedule.id,
          kept?.json === json
            ? kept
            : { availability: compileAvailability(schedule, this.zones.of(schedule.timeZone)), json },
        );
      }
      return {
        version,
        schedules: compiled,
        defaultScheduleId,
        eventTypes: new Map(eventTypes.map((eventType) => [eventType.id, eventType])),
        occupancies: live.sort((a, b) => a.occupiedStart - b.occupiedStart),
        busy: busyTime.get(holderId)!,
        coveredFrom,
        coveredTo,
        loadedAt: now,
        validUntil: nextExpiry,
      };
    });
  }

  /**
   * Each holder's schedules and live event types, read until they agree: the default schedule
   * and every event type's own schedule among the schedules. Those that disagree are read again
   * (all of them in one statement per kind), the others kept; one that never agrees is an error.
   */
  private async loadSchedulesAndEventTypes(
    holderIds: readonly string[],
  ): Promise<Map<string, ScheduleAndEventTypes | StoreUnavailable>> {
    const agreed = new Map<string, ScheduleAndEventTypes | StoreUnavailable>();
    let unread = holderIds;
    for (let attempt = 1; unread.length > 0; attempt++) {
      const [schedules, eventTypes] = await Promise.all([
        this.store.schedules.allOf(unread),
        this.store.eventTypes.liveOf(unread),
      ]);
      const ofHolder = new Map(
        unread.map((id) => [id, { schedules: [] as Schedule[], eventTypes: [] as EventType[] }]),
      );
      for (const schedule of schedules) ofHolder.get(schedule.holderId)!.schedules.push(schedule);
      for (const eventType of eventTypes) ofHolder.get(eventType.holderId)!.eventTypes.push(eventType);
      const disagreeing: string[] = [];
      for (const [holderId, read] of ofHolder) {
        const ids = new Set(read.schedules.map((schedule) => schedule.id));
        const defaultScheduleId = read.schedules.find((schedule) => schedule.isDefault)?.id;
        if (
          defaultScheduleId !== undefined &&
          read.eventTypes.every((e) => e.scheduleId === null || ids.has(e.scheduleId))
        )
          agreed.set(holderId, { ...read, defaultScheduleId });
        else if (attempt === LOAD_ATTEMPTS)
          agreed.set(
            holderId,
            new StoreUnavailable(`The calendar of holder ${holderId} kept changing while it was read`, 1),
          );
        else disagreeing.push(holderId);
      }
      unread = disagreeing;
    }
    return agreed;
  }
}

/** A holder and its calendar version, as just read. */
export interface HolderVersion {
  holderId: string;
  version: number;
}

interface ScheduleAndEventTypes {
  schedules: Schedule[];
  defaultScheduleId: string;
  eventTypes: EventType[];
}

/** An offer's standing slots over what `calendar` decides. */
interface Track {
  calendar: Calendar;
  offer: SlotOffer;
  starts: Float64Array;
}

/**
 * Whether a track computed for `a` holds for `b` on the same calendar: the same schedule and what
 * the standing starts depend on (a holder's own event type comes with its calendar, so this holds
 * for it; a team type's changes are not the host's calendar's).
 */
function sameOffer(a: SlotOffer, b: SlotOffer): boolean {
  return a.scheduleId === b.scheduleId && (a.policy === b.policy || sameStandingPolicy(a.policy, b.policy));
}

function standingContext(calendar: Calendar, offer: SlotOffer): StandingSlotContext {
  return {
    availability: scheduleOf(calendar, offer),
    eventTypeId: offer.id,
    policy: offer.policy,
    bookings: calendar.occupancies,
    busy: calendar.busy,
  };
}

/** What a newer track of the same offer may be derived from. */
function standingSlotsOf(track: Track): StandingSlots {
  const decided = rangeDecidedBy(track.calendar.coveredFrom, track.calendar.coveredTo);
  return { context: standingContext(track.calendar, track.offer), ...decided, starts: track.starts };
}
