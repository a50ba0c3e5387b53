// The calendar store: the port through which use cases read and change holders, keys, event
// types, schedules, bookings and webhooks, and write events to the outbox, each change in one
// transaction. One narrow record interface per resource; a transaction offers their writes too.
// Implemented once over Kysely (src/storage/kysely/), for SQLite and PostgreSQL.
import type { OccurrenceRef } from '../../domain/appointment.js';
import type { Availability } from '../../domain/availability.js';
import type { Booking, BookingStatus } from '../../domain/booking.js';
import type { EventType } from '../../domain/event-type.js';
import type { Hold } from '../../domain/hold.js';
import type { Instant } from '../../domain/instant.js';
import type { PageRequest } from '../../domain/page.js';
import type { Schedule } from '../../domain/schedule.js';
import type { Occupancy } from '../../domain/slots.js';
import type { TeamEventType } from '../../domain/team-event-type.js';
import type { DeliveredEventType, Delivery, Subscription, Webhook, WebhookEventType } from '../../domain/webhook.js';
import type { AccountReads, AccountWrites, ApiKeyReads, ApiKeyWrites, HolderReads, HolderWrites } from './owners.js';
import type {
  BusyTimeReads,
  BusyTimeWrites,
  CalendarSourceReads,
  CalendarSourceWrites,
} from './calendar-source-store.js';
import type { TeamEventTypeReads, TeamEventTypeWithHandle, TeamEventTypeWrites } from './team-event-type-store.js';
import type { ReminderReads, ReminderWrites } from './reminder-store.js';
import type { NotificationReads, NotificationWrites } from './notification-store.js';

export type {
  AccountReads,
  AccountWrites,
  ActingHolder,
  ApiKeyReads,
  ApiKeyWrites,
  AuthenticatedKey,
  HolderFilter,
  HolderReads,
  HolderWrites,
} from './owners.js';
export type {
  BusyTimeReads,
  BusyTimeWrites,
  CalendarSourceReads,
  CalendarSourceWrites,
  StoredSource,
  StoredSourceOfAccount,
  SyncLeases,
} from './calendar-source-store.js';
export type { TeamEventTypeReads, TeamEventTypeWithHandle, TeamEventTypeWrites } from './team-event-type-store.js';
export type { ReminderReads, ReminderWrites, StoredReminder } from './reminder-store.js';

/**
 * Whose items a list shows (contract §12): those of every holder of the account, or of the one
 * holder of it named (the `holderId` filter in account scope, or the holder a request acts for;
 * the use case has checked it is the account's).
 */
export interface AccountFilter {
  accountId: string;
  holderId: string | null;
}

/** An event type with the handle of its holder, where its booking page lives. */
export type HeldEventType = EventType & { holderHandle: string };

/** An item of a list of event types: a holder's own, or a team's (contract §14). */
export type ListedEventType = HeldEventType | TeamEventTypeWithHandle;

export interface EventTypeReads {
  /** The holder's own event type; deleted ones, and team event types, are not found. */
  get(holderId: string, id: string): Promise<EventType | undefined>;
  /** Whose live event type it is (account scope, contract §12); undefined for none, a team's, or a deleted holder's. */
  holderOf(id: string): Promise<string | undefined>;
  /**
   * Live event types, oldest first (keyset on created_at, id): the account's team event types and
   * its live holders' own; with `holderId`, that holder's own and the team types it hosts.
   */
  list(filter: AccountFilter, page: PageRequest): Promise<ListedEventType[]>;
  /** Every live event type of each of the holders (what their calendars hold), unordered. */
  liveOf(holderIds: readonly string[]): Promise<EventType[]>;
  /**
   * The titles of those of `ids` that are the holder's event types or its account's team types (whose
   * bookings it may host), deleted ones too (their bookings stay).
   */
  titles(holderId: string, ids: readonly string[]): Promise<Map<string, string>>;
  /** Slugs of live event types equal to `base` or of the form `base-N`. */
  slugsLike(holderId: string, base: string): Promise<Set<string>>;
}

export interface EventTypeWrites extends EventTypeReads {
  /** Throws `UniqueViolation` when a live event type of the holder has the slug already. */
  insert(eventType: EventType): Promise<void>;
  update(eventType: EventType): Promise<void>;
  delete(holderId: string, id: string, at: Instant): Promise<boolean>;
  /** Deletes every live event type of the holder (it is being deleted); their bookings stay. */
  deleteAllOf(holderId: string, at: Instant): Promise<void>;
}

export interface ScheduleReads {
  get(holderId: string, id: string): Promise<Schedule | undefined>;
  /** The holder's default schedule; undefined only for no such holder (every holder has one). */
  defaultOf(holderId: string): Promise<Schedule | undefined>;
  /** The holder's schedules, the default first, then by creation and id. */
  list(holderId: string, page: PageRequest): Promise<Schedule[]>;
  /** Every schedule of each of the holders, unordered: what their calendars compile. */
  allOf(holderIds: readonly string[]): Promise<Schedule[]>;
}

export interface ScheduleWrites extends ScheduleReads {
  count(holderId: string): Promise<number>;
  insert(schedule: Schedule): Promise<void>;
  /** Writes name, zone, weekly hours, overrides and `updatedAt`. */
  update(schedule: Schedule): Promise<void>;
  /** Removes a schedule that is not the default; false when the holder has no such schedule. */
  delete(holderId: string, id: string): Promise<boolean>;
  /** Whether a live event type of the holder books in the schedule. */
  inUse(holderId: string, id: string): Promise<boolean>;
}

export interface BookingQuery extends PageRequest {
  from: Instant;
  to: Instant;
  eventTypeId: string | null;
}

/**
 * The time a confirmed booking or a hold occupies, as stored. A hold's (`expiresAt` set) occupies
 * it only while `now < expiresAt`; an expired one stays stored until something takes its time or
 * retention removes it, and the use cases tell the two apart (`app/occupancies.ts`).
 */
export interface StoredOccupancy extends Occupancy {
  id: string;
  expiresAt: Instant | null;
  /** A seat's occurrence (contract §15), the same for every seat of it; null for what is not seated. */
  occurrence: string | null;
  /** A seat's number in its occurrence (migration 0025); null for what is not seated. */
  seat: number | null;
  /** Of an occurrence's live seats as one (`occupanciesAt`): the numbers they hold. */
  seatNumbers?: readonly number[];
}

/**
 * Whose bookings and holds a call by id reaches (contract §12, §14): a holder's (its own, and for
 * bookings also the team bookings it hosts), or an account's own (its team bookings and holds,
 * which have no holder).
 */
export type Reach = { holderId: string } | { accountId: string };

/**
 * A seat of an occurrence (contract §15): the occurrence its bookings and holds share, and its
 * number there, which no other live seat of the occurrence holds on the same host (migration 0025).
 */
export interface Seat {
  occurrence: string;
  number: number;
}

/**
 * Whose a booking or hold is: a holder's own, or its account's (a team event type's, contract
 * §14), with the hosts whose time it takes.
 */
export type Ownership = { holderId: string } | { holderId: null; accountId: string; hostIds: string[] };

export interface BookingReads {
  /** A booking in any status that `reach` reaches; holds are not bookings and are not found. */
  get(reach: Reach, id: string): Promise<Booking | undefined>;
  /**
   * The end and buffers a booking or hold was made with, in any status: a seat joining an
   * occurrence takes its seats' (contract §15). Undefined for no such row.
   */
  bookedSpan(id: string): Promise<Pick<Booking, 'end' | 'bufferBeforeMinutes' | 'bufferAfterMinutes'> | undefined>;
  /** Whose booking it is (account scope, and a guest's link, which name the booking only); undefined for no such booking. */
  ownerOf(id: string): Promise<Ownership | undefined>;
  /**
   * Confirmed bookings starting in [from, to), by start then id: the holder's own and the team
   * bookings it hosts (contract §14).
   */
  listConfirmed(holderId: string, query: BookingQuery): Promise<Booking[]>;
  /**
   * The same over the account: every booking of it (its holders', deleted ones' too, and its team
   * bookings); with `holderId`, what that holder lists.
   */
  listConfirmedOfAccount(filter: AccountFilter, query: BookingQuery): Promise<Booking[]>;
  /**
   * Bookings in every status starting in [from, to), by start then id, at most `limit`: the
   * holder's own and the team bookings it hosts, what its calendar feed shows.
   */
  listAnyStatus(holderId: string, from: Instant, to: Instant, limit: number): Promise<Booking[]>;
  /**
   * Confirmed bookings and holds in which the holder is a host whose occupancy (buffers included)
   * overlaps [from, to), but `excludeBookingId`, as a decision judges them at `now`: the seats of
   * an occurrence live at `now` come as one (`seats`, `seatNumbers`), however many they are;
   * everything else (an expired hold too) as itself.
   */
  occupanciesOverlapping(
    holderId: string,
    from: Instant,
    to: Instant,
    now: Instant,
    excludeBookingId?: string,
  ): Promise<StoredOccupancy[]>;
  /**
   * The same for each of `holderIds` (a calendar per holder: at most a team type's hosts, 100 by
   * contract §14, in one statement), every one of them a key.
   */
  occupanciesOverlappingOf(
    holderIds: readonly string[],
    from: Instant,
    to: Instant,
  ): Promise<Map<string, StoredOccupancy[]>>;
  /** Confirmed bookings and holds of the event type in which the holder is a host, starting in [from, to). */
  occupanciesStartingIn(
    holderId: string,
    eventTypeId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<StoredOccupancy[]>;
  /**
   * The seats of an occurrence (contract §15) that occupy the holder's time at `now`: its
   * confirmed bookings and live holds, counted by the store (an occurrence has up to 1000).
   */
  seatsTaken(holderId: string, occurrence: string, eventTypeId: string, start: Instant, now: Instant): Promise<number>;
  /**
   * Confirmed bookings and holds of the event type starting in [from, to), whoever hosts them: one
   * per host, so a booking of several hosts comes as often (a team type's daily cap counts ids).
   */
  occupanciesOfEventTypeStartingIn(
    eventTypeId: string,
    from: Instant,
    to: Instant,
    excludeBookingId?: string,
  ): Promise<StoredOccupancy[]>;
}

export interface BookingWrites extends BookingReads {
  /**
   * Stores the booking (a team booking with a row per host, contract §14); false, storing
   * nothing, when the database itself rules its time out
   * (PostgreSQL's exclusion constraint: a confirmed booking or a hold, committed or being
   * committed, overlaps it; an expired hold too, until `HoldWrites.dropExpired` removes it). The refusal waits for a concurrent overlapping transaction to end, and never
   * while holding anything that transaction may wait for. `seat`: the seat it takes (contract §15),
   * whose occurrence's time it shares with the other seats; none for what is not seated. A seat
   * number a concurrent seat took is refused alike.
   */
  insert(booking: Booking, seat?: Seat | null): Promise<boolean>;
  /**
   * Stores confirmed bookings of one holder's own event type at one start, decided together
   * (`takeTimeForEach`), each as `insert` would: for each, whether it was stored. Two processes'
   * writes of one occurrence's seats wait for each other in one order (by seat number), never in a cycle.
   */
  insertEach(writes: ReadonlyArray<{ booking: Booking; seat: Seat | null }>): Promise<boolean[]>;
  /**
   * Writes a state move of a booking that still has status `from`; false when it no longer has
   * (a concurrent move won), so a move is enforced by the database and not only by a lock.
   * Throws `OverlapViolation` for a move back to confirmed over another confirmed booking
   * (PostgreSQL; the use cases never make one).
   */
  update(booking: Booking, from: BookingStatus): Promise<boolean>;
}

/** Live holds starting in [from, to) (either end open when null), of one event type or all. */
export interface HoldQuery extends PageRequest {
  from: Instant | null;
  to: Instant | null;
  eventTypeId: string | null;
}

/** The live page holds occupying a host (its own pages' and the team pages' it hosts), and how many of them one client made. */
export interface LivePageHolds {
  ofHost: number;
  ofClient: number;
}

export interface HoldReads {
  /** The hold `reach` reaches (a holder its own; an account its team holds), while it is live at `now`. */
  get(reach: Reach, id: string, now: Instant): Promise<Hold | undefined>;
  /** Whose hold it is, live or not (account scope, contract §12); undefined for no such hold. */
  ownerOf(id: string): Promise<Ownership | undefined>;
  /** The holder's holds live at `now`, by start then id. */
  listLive(holderId: string, query: HoldQuery, now: Instant): Promise<Hold[]>;
  /** The same over the account: its holders' and its team holds; with `holderId`, that holder's. */
  listLiveOfAccount(filter: AccountFilter, query: HoldQuery, now: Instant): Promise<Hold[]>;
}

/** Whose hold is ended: a holder's own, or the account's team hold with the hosts whose time it frees. */
export type HoldEnding = { holderId: string } | { accountId: string; hostIds: readonly string[] };

/** A hold as it ended, with the seat it held (contract §15; null for none): its booking takes the same seat. */
export interface EndedHold extends Hold {
  seat: Seat | null;
}

export interface HoldWrites extends HoldReads {
  /** Stores the hold, like `BookingWrites.insert` a booking: false when the database rules its time out. */
  insert(hold: Hold, seat?: Seat | null): Promise<boolean>;
  /**
   * Ends the hold if it is live at `now` (release or conversion) and returns it; undefined,
   * changing nothing, when there is no such live hold (expired, released, converted, or taken by a
   * concurrent request first).
   */
  end(owner: HoldEnding, id: string, now: Instant): Promise<EndedHold | undefined>;
  /**
   * Removes those of `ids` (found among the occupancies of `hostId`, whose time is to be taken) that
   * are expired holds at `now`. An expired hold occupies nothing any calendar shows, so removing it
   * changes no other host's calendar than `hostId`'s as far as anyone can see.
   */
  dropExpired(hostId: string, ids: string[], now: Instant): Promise<void>;
  /** Ends every hold of the holder's event type (it is being deleted). */
  endAllOf(holderId: string, eventTypeId: string): Promise<void>;
  /**
   * Ends every hold of the account's team event type (it is being deleted); `hostIds` are the hosts
   * whose time they may take (`hostsOfLiveTeamHolds`).
   */
  endAllOfTeam(accountId: string, eventTypeId: string, hostIds: readonly string[]): Promise<void>;
  /** The hosts whose time the holds of a team event type take (ended with it, `endAllOfTeam`). */
  hostsOfTeamHolds(eventTypeId: string): Promise<string[]>;
  /** Ends every hold of the holder, of any event type (the holder is being deleted). */
  endAllOfHolder(holderId: string): Promise<void>;
  /** Ends the holder's live holds made by one booking page session (it picked another time). */
  endPageHoldsOf(holderId: string, pageSession: string, now: Instant): Promise<void>;
  /**
   * The live holds made on booking pages that occupy the host (its own event types' and the team
   * types' it hosts, contract §14), and how many of them `client` (a digest) made.
   */
  countLivePageHolds(hostId: string, client: string, now: Instant): Promise<LivePageHolds>;
  /** The live holds one booking page session made that `reach` reaches (a team page's: the account's). */
  livePageHoldsOfSession(reach: Reach, pageSession: string, now: Instant): Promise<Hold[]>;
}

/** Whose webhooks a request reaches (contract §12): the account's (all of them), or only this holder's. */
export interface WebhookReach {
  accountId: string;
  holderId?: string;
}

export interface WebhookReads {
  get(reach: WebhookReach, id: string): Promise<Webhook | undefined>;
  /** Oldest first (keyset on created_at, id). */
  list(reach: WebhookReach, page: PageRequest): Promise<Webhook[]>;
  /** Ids of the active webhooks subscribed to `type` that hear the holder: its own and its account's. */
  subscribedIds(holderId: string, type: WebhookEventType): Promise<string[]>;
  /**
   * Ids of the active webhooks subscribed to `type` that hear a team booking of the account with
   * these hosts (contract §12): the account's and each host's own, oldest first.
   */
  subscribedIdsOfTeam(accountId: string, hostIds: readonly string[], type: WebhookEventType): Promise<string[]>;
  /** The holder's webhooks, active or not. */
  count(holderId: string): Promise<number>;
}

export interface WebhookWrites extends WebhookReads {
  /**
   * The account webhooks (not its holders'), active or not, the account row locked until the
   * transaction ends (PostgreSQL): registrations take turns, so two cannot take the last place.
   */
  countOfAccountLocked(accountId: string): Promise<number>;
  insert(webhook: Webhook): Promise<void>;
  update(webhook: Webhook): Promise<void>;
  /** Removes the webhook with its deliveries, so nothing more is sent to it; false when out of reach. */
  delete(reach: WebhookReach, id: string): Promise<boolean>;
  /** Removes every webhook of the holder with their deliveries (the holder is being deleted). */
  deleteAllOf(holderId: string): Promise<void>;
}

export interface DeliveryReads {
  /** A webhook's deliveries, newest first (keyset on created_at descending), with their attempts. */
  list(webhookId: string, page: PageRequest): Promise<Delivery[]>;
  get(webhookId: string, deliveryId: string): Promise<Delivery | undefined>;
}

export interface DeliveryWrites extends DeliveryReads {
  /** Makes a finished delivery due now with a fresh retry schedule. */
  restart(deliveryId: string, now: Instant): Promise<void>;
}

/** Whose an event is: a holder's (the store reads its account), or the account's own (an account webhook's test). */
export type EventOwner = { holderId: string } | { holderId: null; accountId: string };

/** One event written to the outbox, with one delivery per target webhook. */
export type OutboxEvent = EventOwner & {
  id: string;
  type: DeliveredEventType;
  /** The full delivery body, `{ type, timestamp, data }`, serialised once at the time of the change. */
  payload: string;
  createdAt: Instant;
};

export interface OutboxWrites {
  /** Records the event and a pending delivery, due at once, for each `{ id, webhookId }`. */
  enqueue(event: OutboxEvent, deliveries: Array<{ id: string; webhookId: string }>): Promise<void>;
}

/**
 * The appointments bookings form (contract §16): a booking and the bookings it was rescheduled
 * into, all of one `appointmentId`.
 */
export interface AppointmentReads {
  /** The appointment's latest booking (moved most often) that `reach` reaches; undefined for none. */
  latest(reach: Reach, appointmentId: string): Promise<Booking | undefined>;
  /**
   * Which of `appointmentIds` name an appointment the holder hosts or hosted (a booking of it of
   * its own, or a team booking of it among whose hosts it is), in any status; or (an occurrence's
   * id, `occurrenceOfId`) a seated occurrence of an event type it hosts: its own, or a team type
   * among whose hosts it is.
   */
  hostedBy(holderId: string, appointmentIds: readonly string[]): Promise<Set<string>>;
  /**
   * The seats of a seated occurrence (contract §15) that the holder hosts, in any status but held:
   * the bookings of the event type at that start of its own, or of a team type among whose hosts
   * they put it. Oldest first.
   */
  seatsOf(holderId: string, occurrence: OccurrenceRef): Promise<Booking[]>;
}

/** What may be read outside a transaction. */
export interface Reads {
  accounts: AccountReads;
  holders: HolderReads;
  apiKeys: ApiKeyReads;
  eventTypes: EventTypeReads;
  teamEventTypes: TeamEventTypeReads;
  schedules: ScheduleReads;
  bookings: BookingReads;
  appointments: AppointmentReads;
  holds: HoldReads;
  webhooks: WebhookReads;
  deliveries: DeliveryReads;
  calendarSources: CalendarSourceReads;
  busyTime: BusyTimeReads;
  reminders: ReminderReads;
  notifications: NotificationReads;
}

/** What a booking or hold of one event type is judged by, besides the time it would take. */
export interface DecisionRules {
  eventType: EventType;
  /** The hours and zone it is booked in: its schedule's (`scheduleId`), else its holder's default schedule's. */
  schedule: Availability;
  /**
   * How many calendar sources the holder has, share-locked until the transaction ends where
   * writers run concurrently (PostgreSQL): a sync replacing a source's busy time holds its row
   * `for update` until it commits, so the decision waits for it, and its busy-time read (a later
   * statement) sees the result (contract §11). With none, there is no busy time to read.
   */
  sources: number;
  /**
   * The active webhooks that hear the holder's events (its own and its account's), oldest first:
   * whom the decision's event goes to (`subscribedTo`), read with the rules rather than in a
   * statement of its own.
   */
  webhooks: Subscription[];
}

/** A host of a team event type as a decision judges it (contract §14). */
export interface HostRules {
  holderId: string;
  fixed: boolean;
  priority: number;
  weight: number;
  /** The hours and zone it offers the type in: its host entry's schedule, else its default one. */
  schedule: Availability;
  /** Round robin: its confirmed bookings of the type created since the decision's `loadSince`. */
  recentBookings: number;
  /** Round robin: when its latest confirmed booking of the type was created; null for none. */
  lastBookedAt: Instant | null;
}

/** What a booking or hold of a team event type is judged by (contract §14). */
export interface TeamDecisionRules {
  eventType: TeamEventType;
  /** Every host of the type, in its order. */
  hosts: HostRules[];
}

export interface DecisionReads {
  /**
   * The rules of a decision, in one statement, at the start of the transaction that decides:
   * undefined when the event type is not the holder's or was deleted.
   */
  rulesFor(holderId: string, eventTypeId: string): Promise<DecisionRules | undefined>;
  /**
   * The rules of a decision for the account's live team event type, in one statement: undefined
   * for none (another account's, a holder's own, deleted). Round robin's counts are of bookings
   * created at or after `loadSince`.
   */
  teamRulesFor(accountId: string, eventTypeId: string, loadSince: Instant): Promise<TeamDecisionRules | undefined>;
  /**
   * How many calendar sources each of the holders has (absent: none), their rows share-locked in
   * sorted holder order until the transaction ends where writers run concurrently: a team
   * decision's `DecisionRules.sources` for every host it may judge, taken before it reads any.
   */
  sharedSources(holderIds: readonly string[]): Promise<Map<string, number>>;
}

/** What a transaction reads and writes: all of it lands at commit, or none of it. */
export interface Transaction {
  /** Read first by every booking and hold decision. */
  decisions: DecisionReads;
  accounts: AccountWrites;
  holders: HolderWrites;
  apiKeys: ApiKeyWrites;
  eventTypes: EventTypeWrites;
  teamEventTypes: TeamEventTypeWrites;
  schedules: ScheduleWrites;
  bookings: BookingWrites;
  holds: HoldWrites;
  webhooks: WebhookWrites;
  deliveries: DeliveryWrites;
  calendarSources: CalendarSourceWrites;
  busyTime: BusyTimeWrites;
  reminders: ReminderWrites;
  outbox: OutboxWrites;
  /** The notification outbox (contract §16): the messages of a booking's change, written with it. */
  notifications: NotificationWrites;
  /**
   * Serialises writers of one holder's calendar until the transaction ends. SQLite write
   * transactions are exclusive already; PostgreSQL locks the holder row, which every change to
   * a calendar also takes at its commit (to bump the calendar version). Lock order: a
   * transaction that writes bookings takes it after those writes, never before them, so no
   * commit queued behind it holds a booking row or overlapping insert it waits for.
   */
  lockCalendar(holderId: string): Promise<void>;
  /**
   * Serialises the decisions of one team event type that count its daily cap until the
   * transaction ends (PostgreSQL: its row, `for no key update`; SQLite's writers are exclusive).
   * Taken after the decision's writes, as `lockCalendar` is.
   */
  lockTeamEventType(eventTypeId: string): Promise<void>;
  /** The seat numbers this process's other write transactions chose, which this one passes over (contract §15). */
  seatClaims: SeatClaims;
}

/**
 * The seat numbers of each occurrence that this process's other write transactions chose and
 * this one's reads may not show taken: what a seat's decision passes over when it chooses a
 * number, so that concurrent seats of one process never pick the same one. A pick the database
 * refuses costs a wait for the other transaction's commit and a second decision; the unique
 * index, not this, keeps an occurrence to its seats (other processes' picks are not known here).
 */
export interface SeatClaims {
  /** The numbers of `occurrence` chosen by transactions still open, or ended since this one began. */
  claimedIn(occurrence: string): ReadonlySet<number>;
  /** Chooses `number` of `occurrence` for this transaction. */
  claim(occurrence: string, number: number): void;
}

export interface Store extends Reads {
  /**
   * Runs `work` in one write transaction: all of its writes land, or none do. It may run `work`
   * more than once (PostgreSQL, after a serialization failure or deadlock): `work` must not
   * have effects outside the transaction.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, scope?: TransactionScope): Promise<T>;
}

/**
 * What a transaction declares it changes, for this process's caches: every row it may change is
 * one of `ownerIds`' (holders: their keys, bookings and holds, events and deliveries; accounts:
 * their own row, account keys and account webhooks), so the keys and calendars of other holders
 * and accounts that this process keeps stay valid past its commit. The store holds the
 * transaction to it: a write of another owner's rows throws before it is sent. Without a scope,
 * anything may have changed.
 */
export interface TransactionScope {
  ownerIds: readonly string[];
}
