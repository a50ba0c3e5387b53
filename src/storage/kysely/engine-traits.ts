import type { Kysely, RawBuilder, SelectQueryBuilder } from 'kysely';
import type { Database, Engine } from '../schema.js';

/** A row of `bookings` as an occupancy of time: what the booking decision and the slot track read. */
export interface OccupancyRow {
  id: string;
  event_type_id: string;
  start_at: number;
  occupied_start: number;
  occupied_end: number;
  expires_at: number | null;
  occurrence: string | null;
  seat: number | null;
}

/**
 * An occupancy as a decision reads it (`EngineTraits.occupanciesOverlapping`): a booking's or
 * hold's row, or the live seats of one occurrence as one, with how many they are and the numbers
 * they hold (comma-separated).
 */
export interface JudgedOccupancyRow extends OccupancyRow {
  seats: number | string;
  seat_numbers: string | null;
}

/** An occupancy row with the holder whose time it is: a read of many holders' occupancies. */
export interface HolderOccupancyRow extends OccupancyRow {
  holder_id: string;
}

/**
 * What differs between the engines, named: everything else is the shared SQL of this folder. The
 * values live in the dialect files (`../sqlite.ts`, `../postgres.ts`), with the SQL only one
 * engine has (row locks, `skip locked`).
 */
export interface EngineTraits {
  name: Engine;
  /** `begin immediate` (SQLite: take the write lock before reading) or `begin`. */
  begin: 'begin immediate' | 'begin';
  /** `Transaction.lockCalendar`: the holder's row on PostgreSQL; nothing on SQLite, whose writers run one at a time. */
  lockCalendar(db: Kysely<Database>, holderId: string): Promise<void>;
  /** `Transaction.lockTeamEventType`: the event type's row on PostgreSQL; nothing on SQLite. */
  lockTeamEventType(db: Kysely<Database>, eventTypeId: string): Promise<void>;
  /**
   * The query with its rows locked until the transaction ends, where write transactions run
   * concurrently (PostgreSQL `for update`); as it is where writers are exclusive (SQLite).
   */
  lockingRows<O>(
    query: SelectQueryBuilder<Database, keyof Database, O>,
  ): SelectQueryBuilder<Database, keyof Database, O>;
  /**
   * The query with its rows kept from deletion and key changes until the transaction ends, where
   * write transactions run concurrently (PostgreSQL `for key share`: what a foreign key takes; it
   * waits for a `for update` and keeps one waiting, and lets every other writer of the row pass);
   * as it is where writers are exclusive (SQLite).
   */
  keepingRows<O>(
    query: SelectQueryBuilder<Database, keyof Database, O>,
  ): SelectQueryBuilder<Database, keyof Database, O>;
  /**
   * The query with its rows share-locked until the transaction ends, in the query's order, where
   * write transactions run concurrently (PostgreSQL `for share`, applied after `order by`); as it
   * is where writers are exclusive (SQLite).
   */
  sharingRows<O>(
    query: SelectQueryBuilder<Database, keyof Database, O>,
  ): SelectQueryBuilder<Database, keyof Database, O>;
  /**
   * A subquery: how many calendar sources the holder in `holderIdColumn` has, their rows
   * share-locked until the transaction ends where writers run concurrently (PostgreSQL `for
   * share`: a sync holding one `for update` is waited for). See `DecisionRules.sources`.
   */
  sharedSourceCount(holderIdColumn: string): RawBuilder<number>;
  /**
   * A subquery: the active webhooks that hear the events of the holder in `holderIdColumn`, its
   * own and those of its account in `accountIdColumn` (`activeWebhooksFrom`), oldest first, as
   * JSON text of `[{ "id": …, "events": "<the stored events text>" }]`. See `DecisionRules.webhooks`.
   */
  activeWebhooks(holderIdColumn: string, accountIdColumn: string): RawBuilder<string>;
  /**
   * The holder's occupancies (confirmed bookings, holds) whose time overlaps [from, to), but
   * `excludeBookingId`'s, as a decision judges them at `now`: the live seats of one occurrence as
   * one row (`seats`, `seat_numbers`), which spares reading up to a thousand rows of it into the
   * process on every seat; each other booking and hold (an expired hold too) as its own. Each
   * engine's statement seeks them as its indexes answer best (`OVERLAPPING_OCCUPANCIES` in the
   * dialect files).
   */
  occupanciesOverlapping(
    db: Kysely<Database>,
    holderId: string,
    from: number,
    to: number,
    now: number,
    excludeBookingId: string,
  ): Promise<JudgedOccupancyRow[]>;
  /**
   * The same for each holder of `holderIdsJson` (a JSON array of distinct ids, bound as one
   * parameter), in one statement: each holder's rows sought as that engine seeks one holder's.
   */
  occupanciesOverlappingOf(
    db: Kysely<Database>,
    holderIdsJson: string,
    from: number,
    to: number,
  ): Promise<HolderOccupancyRow[]>;
  /**
   * `column` is one of the strings of the JSON array `idsJson` (a bound parameter), sought through
   * an index on `column` as `column = ?` would be: a read of many holders is one statement whose
   * text is the same however many there are (compiled, and on PostgreSQL prepared, once). `in
   * (…)` with a placeholder per id would be a statement text per count.
   */
  oneOf(column: string, idsJson: string): RawBuilder<boolean>;
  /**
   * Whether one statement may insert into one table inside a `with` and into another from it
   * (PostgreSQL's data-modifying `with`): a booking's row and its one occupancy then cost one
   * round trip. SQLite has no such `with`, and no round trip to save.
   */
  insertsInWith: boolean;
  /**
   * Ends a claim that ranks its rows in a subquery (the webhook deliveries', the notifications'):
   * locks the rows of the table under `alias` it claims and passes over rows another claim holds
   * (PostgreSQL's `for update of … skip locked`: a window function's subquery cannot be locked).
   */
  claimingRowsOf(alias: string): RawBuilder<unknown>;
  /** Ends a claim's inner select of one table: `for update skip locked` (PostgreSQL), nothing on SQLite. */
  skippingLocked: RawBuilder<unknown>;
  /**
   * Whether concurrent write transactions share one commit (SQLite: one writer, whose commits
   * are limited by fsync); see GroupCommit. PostgreSQL commits concurrent transactions in
   * parallel and groups their WAL flushes itself.
   */
  groupCommit: boolean;
  /**
   * A failure after which running the whole transaction again is safe and may succeed. (Every
   * other engine error reaches the adapters already translated into the ports' errors: see
   * `portDialect` in the dialect files.)
   */
  isRetryable(error: unknown): boolean;
}
